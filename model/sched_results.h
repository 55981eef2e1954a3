/*
 * sched_results.h - wakeup locality, latency, migrations and switches of one run: the
 * contract between the sources (perf stream, BPF, perf.data replay) and the reports.
 * Scalar measures are declared in sched_measures.def; how they were measured is in prov.
 */
#ifndef LOCUS_SCHED_RESULTS_H
#define LOCUS_SCHED_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "topology.h"
#include "event.h"
#include "hist.h"
#include "provenance.h"

/* Flags of a measure (sched_measures.def). */
enum measure_flags { MF_DELTA = 1, MF_DROP = 2, MF_DASH = 4, MF_LOOP = 8 };

/* Where the woken task was placed relative to its previous CPU. */
enum placement {
	PLACE_STAYED,		/* the CPU it last ran on */
	PLACE_PULLED,		/* moved to the waker's CPU or a CPU sharing the waker's LLC */
	PLACE_ELSEWHERE,	/* moved anywhere else */
	PLACE_NR
};

struct task_stat {
	int32_t tid, pid;
	char comm[TASK_COMM_LEN];
	uint64_t wakeups;	/* times it was woken */
	uint64_t migrations;
	uint64_t voluntary, involuntary;
	uint64_t run_ns;	/* time on a CPU */
	uint64_t delays;	/* wakeups whose wake-to-run delay was measured */
	uint64_t delay_sum_ns;	/* their sum */
};

struct pair_stat {
	int32_t waker_tid, wakee_tid;
	char waker_comm[TASK_COMM_LEN], wakee_comm[TASK_COMM_LEN];
	uint64_t count;			/* at least its true count, at most over more */
	uint64_t over;			/* Space-Saving: how much count may exceed the true count */
	uint64_t by_class[LOC_NR];	/* waker CPU to target CPU (since it got its slot) */
};

struct cpu_stat {
	uint64_t voluntary, involuntary;	/* switch-outs of tracked tasks */
	uint64_t busy_ns, idle_ns;		/* any task vs the idle task, between first and last event */
	uint64_t tracked_ns;			/* tracked tasks running */
	uint64_t wakeups_from, wakeups_to;	/* as waker CPU, as target CPU */
	uint64_t migrations_in, migrations_out;
	uint64_t switch_in_missed;		/* wakeups run here whose switch-in was not recorded */
	uint64_t switch_in_inferred;		/* switch-ins the recording lacks, shown by the task's
						 * own event (the stream lost them) */
	uint64_t unknown_ns;			/* before those: neither busy nor idle as far as known */
	uint64_t idle_passed;			/* as target CPU: wakeups that waited here, busy,
						 * while an allowed CPU was idle */
};

struct sched_results {
	int ncpus;
	const struct topology *topo;
	bool waking_source;		/* wakeups from sched_waking (else sched_wakeup) */
	uint64_t first_ns, last_ns;	/* span of events seen */

	/* every scalar measure (sched_measures.def) */
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) uint64_t field;
#include "sched_measures.def"
#undef SCHED_MEASURE
	struct provenance prov;		/* how all this was measured */
	/* switch-ins the recording lacks, inferred from the task's own events (the perf
	 * stream's records, lost); the CPU time before them not known busy or idle; idle
	 * judgements made with a CPU's state still open (too many waited) */
	uint64_t switch_in_inferred, unknown_ns, idle_judged_open;
	uint64_t *wake_matrix;		/* [waker_cpu * ncpus + target_cpu] */
	uint64_t *prev_matrix;		/* [prev_cpu * ncpus + target_cpu] */
	uint64_t by_class[LOC_NR];	/* waker CPU -> target CPU */
	uint64_t prev_by_class[LOC_NR];	/* previous CPU -> target CPU */
	uint64_t placement[PLACE_NR];
	/* wakeups passed over an idle CPU (analyzers/idle.h): by waker -> target class, how
	 * close the closest idle allowed CPU was to the target (SMT, LLC, node, remote), and
	 * the wait that overlapped it (ns) by waker -> target class */
	uint64_t idle_passed_class[LOC_NR];
	uint64_t idle_closest[LOC_NR];
	uint64_t idle_wait_class[LOC_NR];
	/* wakeups that sent an IPI, and that woke a polling idle CPU without one, by waker
	 * CPU -> the CPU it was sent to */
	uint64_t ipi_class[LOC_NR];
	uint64_t no_ipi_class[LOC_NR];

	/* the timed wakeups (those in delay_class) by waker -> target class and waker -> the
	 * CPU they ran on: how the Wakeups section's classes become the ones blame, stacks
	 * and the timelines count; ran_known false where the source does not count it (BPF) */
	bool ran_known;
	uint64_t ran_class[LOC_NR][LOC_NR];	/* [target class][ran-on class] */
	uint64_t ran_moved_within;	/* timed, ran elsewhere than chosen, the same class */
	uint64_t ran_moved_other;	/* ran elsewhere than chosen, outside ran_class (not
					 * timed, or the waker's CPU unknown) */

	struct hist delay;		/* wake-to-run, ns */
	struct hist delay_class[LOC_NR];/* by waker -> target class */
	struct hist *delay_cpu;		/* by the CPU it ran on, ncpus entries */
	bool no_cpu_delays;		/* a light snapshot: delay_cpu left empty */

	uint64_t *mig_matrix;		/* [orig * ncpus + dest] */
	uint64_t mig_by_class[LOC_NR];

	struct cpu_stat *cpu;		/* ncpus entries */

	struct task_stat *tasks;	/* sorted by wakeups, then run time */
	int ntasks;
	uint64_t tasks_retired;		/* tasks that exited and left the live table (their
					 * counts stay in every total; the busiest are listed) */
	int tasks_retired_kept;		/* of them, listed in tasks */
	struct pair_stat *pairs;	/* sorted by count */
	int npairs;
	int pairs_kept;			/* slots of the pair table (0: not bounded this way) */
	uint64_t pairs_bound;		/* the most any listed count exceeds its true count;
					 * every pair with more wakeups is listed (0: exact) */
	uint64_t pairs_evicted;		/* pairs that gave their slot to another */
	uint64_t pairs_wakeups;		/* wakeups the pair table counted, listed or not (all
					 * of sleeping tasks but pairs_dropped) */
	uint64_t pairs_filtered;	/* of them, of pairs that held no slot then (the
					 * filter: each pair's at most pairs_bound) */

	uint64_t events[EV_TYPE_NR];	/* every event seen, by type (all tasks) */
};

/* One measure's declaration, and its value in r. */
struct sched_measure {
	const char *field, *group, *key, *label;
	unsigned flags;
	const char *dash, *loop;
	size_t offset;			/* in struct sched_results */
};
enum sched_measure_id {
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) SM_##field,
#include "sched_measures.def"
#undef SCHED_MEASURE
	SM_NR
};
extern const struct sched_measure sched_measures[SM_NR];
_Static_assert(SM_NR <= 64, "provenance.unmeasured holds a bit per measure");
#define SM_BIT(field) (1ull << SM_##field)
/* Whether r's source counts measure m (else its value is not a measured 0). */
static inline bool sched_measured(const struct sched_results *r, int m)
{
	return !(r->prov.unmeasured >> m & 1);
}
static inline uint64_t *sched_measure_ptr(struct sched_results *r, int m)
{
	return (uint64_t *)(void *)((char *)r + sched_measures[m].offset);
}
static inline uint64_t sched_measure_get(const struct sched_results *r, int m)
{
	return *(const uint64_t *)(const void *)((const char *)r + sched_measures[m].offset);
}
/*
 * The sample behind the timed figures (delays, idle CPUs passed over): the wakeups
 * timed of all the collector decided on, and the factor that scales a sampled count or
 * wait to an estimate of the whole run (1 when every wakeup was timed).
 */
struct sched_sample {
	bool sampled;		/* some wakeups were left untimed */
	unsigned every;		/* the period asked for (provenance), 1 in this many */
	uint64_t timed, all;	/* wakeups timed, of all */
	double fraction;	/* timed / all (1 when not sampled) */
	double scale;		/* all / timed: a sampled count times this is the estimate */
};
void sched_sample_of(const struct sched_results *r, struct sched_sample *s);

/* Every MF_DROP measure added up: 0 means nothing was lost. */
uint64_t sched_results_dropped(const struct sched_results *r);

/*
 * The busiest of the tasks that retired (exited and left a collector's live table),
 * exactly: their counts no longer change, so a heap of the TASKS_RETIRED_KEPT best in
 * the table's order (sched_task_cmp) is the true top.
 */
#define TASKS_RETIRED_KEPT 1024
struct task_top {
	struct task_stat *h;	/* a heap, the least busy first */
	int n;
	uint64_t offered;	/* tasks retired in all */
};
void task_top_offer(struct task_top *t, const struct task_stat *st);
void task_top_release(struct task_top *t);

/* Allocate the per-CPU parts for ncpus CPUs. */
void sched_results_init(struct sched_results *r, const struct topology *topo);
void sched_results_release(struct sched_results *r);
/* qsort orders: tasks by wakeups, then run time, then tid; pairs by count, then tids. */
int sched_task_cmp(const void *a, const void *b);
int sched_pair_cmp(const void *a, const void *b);

#endif
