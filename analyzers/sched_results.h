/*
 * sched_results.h - wakeup locality, latency, migrations and switches of one run: the
 * contract between whatever collected them (stream analyzer, later BPF) and the reports.
 */
#ifndef LOCUS_SCHED_RESULTS_H
#define LOCUS_SCHED_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../collectors/topology.h"
#include "../common/event.h"
#include "hist.h"

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
	uint64_t count;
	uint64_t by_class[LOC_NR];	/* waker CPU to target CPU */
};

struct cpu_stat {
	uint64_t voluntary, involuntary;	/* switch-outs of tracked tasks */
	uint64_t busy_ns, idle_ns;		/* any task vs the idle task, between first and last event */
	uint64_t tracked_ns;			/* tracked tasks running */
	uint64_t wakeups_from, wakeups_to;	/* as waker CPU, as target CPU */
	uint64_t migrations_in, migrations_out;
	uint64_t switch_in_missed;		/* switches onto this CPU the kernel did not record */
};

struct sched_results {
	int ncpus;
	const struct topology *topo;
	bool waking_source;		/* wakeups from sched_waking (else sched_wakeup) */
	uint64_t first_ns, last_ns;	/* span of events seen */

	uint64_t wakeups;		/* wakeups of tracked tasks */
	uint64_t wakeups_placed;	/* ... whose target CPU is known */
	uint64_t wakeups_running;	/* waking a task that was running: nothing to place */
	uint64_t wakeups_new;		/* new tasks placed (sched_wakeup_new) */
	uint64_t moved_before_run;	/* ran on another CPU than the one chosen */
	uint64_t switch_in_missed;	/* tasks seen running without their switch-in event:
					 * placed by that evidence, their delay not measured */
	uint64_t *wake_matrix;		/* [waker_cpu * ncpus + target_cpu] */
	uint64_t *prev_matrix;		/* [prev_cpu * ncpus + target_cpu] */
	uint64_t by_class[LOC_NR];	/* waker CPU -> target CPU */
	uint64_t prev_by_class[LOC_NR];	/* previous CPU -> target CPU */
	uint64_t placement[PLACE_NR];

	struct hist delay;		/* wake-to-run, ns */
	struct hist delay_class[LOC_NR];/* by waker -> target class */
	struct hist *delay_cpu;		/* by the CPU it ran on, ncpus entries */
	bool no_cpu_delays;		/* a light snapshot: delay_cpu left empty */
	uint64_t delays_untimed;	/* wakeups left out of the delay sample */
	long delay_rate;		/* the BPF collector's timing limit (per s per CPU; 0: all) */

	uint64_t migrations;
	uint64_t *mig_matrix;		/* [orig * ncpus + dest] */
	uint64_t mig_by_class[LOC_NR];

	uint64_t voluntary, involuntary;/* switch-outs of tracked tasks */
	struct cpu_stat *cpu;		/* ncpus entries */

	struct task_stat *tasks;	/* sorted by wakeups, then run time */
	int ntasks;
	struct pair_stat *pairs;	/* sorted by count */
	int npairs;
	uint64_t pairs_dropped;		/* wakeups whose pair did not fit the table */

	uint64_t events[EV_TYPE_NR];	/* every event seen, by type (all tasks) */
	uint64_t lost;			/* records the kernel dropped */
	uint64_t late;			/* arrived after their reordering window */
	uint64_t undecodable;		/* samples that could not be decoded */
};

/* Allocate the per-CPU parts for ncpus CPUs. */
void sched_results_init(struct sched_results *r, const struct topology *topo);
void sched_results_release(struct sched_results *r);
/* qsort orders: tasks by wakeups, then run time, then tid; pairs by count, then tids. */
int sched_task_cmp(const void *a, const void *b);
int sched_pair_cmp(const void *a, const void *b);

#endif
