/*
 * sweep.h - the benchmark loop's data: runs per sweep value, each with the benchmark's
 * metric and locus's measures, and how they were measured.
 */
#ifndef LOCUS_MODEL_SWEEP_H
#define LOCUS_MODEL_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "provenance.h"
#include "topology.h"

/* What each run measures, in report order. */
enum measure {
	M_METRIC,	/* the benchmark's own figure of merit */
	M_CS,		/* context switches/s of the workload's tasks */
	/* per second: a slot for each scheduler measure; MF_LOOP ones are measured */
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) M_S_##field,
#include "sched_measures.def"
#undef SCHED_MEASURE
#define M_S_FIRST (M_CS + 1)	/* M_S_FIRST + SM_<field> is M_S_<field> */
	M_SAME_CPU,	/* share of placed wakeups, waker CPU to target CPU, % */
	M_SMT,
	M_LLC,
	M_NODE,
	M_REMOTE,
	M_P99,		/* wake-to-run p99, microseconds */
	M_IDLE_PCT,	/* share of timed wakeups that passed over an idle allowed CPU, % */
	M_HITM,		/* HITM loads/s */
	M_ELAPSED,	/* the run's wall time, s */
	/* counts per run, from a locus stat --json file (locus diff reads those too) */
	M_ST_TASK_CLOCK, /* task-clock, ms */
	M_ST_CS,	/* context-switches */
	M_ST_VOL,	/* voluntary switches (rusage) */
	M_ST_INVOL,	/* involuntary switches (rusage) */
	M_ST_MIGR,	/* cpu-migrations */
	M_ST_FAULTS,	/* page-faults */
	M_ST_CYCLES,
	M_ST_INSNS,
	M_ST_CREFS,	/* cache-references */
	M_ST_CMISS,	/* cache-misses */
	M_ST_LLC,	/* LLC-load-misses */
	M_ST_HITM,	/* hitm */
	M_NR
};
/* M_SAME_CPU + c is the share of locality class c (enum locality) */
_Static_assert(M_SMT - M_SAME_CPU == LOC_SMT && M_LLC - M_SAME_CPU == LOC_LLC &&
		       M_NODE - M_SAME_CPU == LOC_NODE && M_REMOTE - M_SAME_CPU == LOC_REMOTE &&
		       LOC_SAME_CPU == 0 && LOC_REMOTE + 1 == LOC_NR,
	       "the class shares follow enum locality");

/* Better when higher (+1), when lower (-1), or neither (0: informational). */
struct measure_info {
	const char *key;	/* JSON key */
	const char *label;	/* text column */
	int better;
};
const struct measure_info *measure_info(enum measure m);
/* The count measure (M_ST_*) of the locus stat counter called name, or -1. */
int measure_by_stat_name(const char *name);
/* The measure whose JSON key is key, or -1. */
int measure_by_key(const char *key);

struct sweep_run {
	char value[64];		/* the sweep value ("" without a sweep) */
	int rep;		/* 1-based */
	int exit_code;
	bool ok;		/* exited 0 and, when asked, the metric was found */
	bool interrupted;	/* a signal to locus cut it short: not ok, not a failure either */
	double m[M_NR];
	bool have[M_NR];
	/* a measure taken from a sample (the BPF collector's timed wakeups): its 95%
	 * interval from the sample alone (Wilson), in the measure's unit */
	double lo[M_NR], hi[M_NR];
	bool have_ci[M_NR];
	long long dropped;	/* every drop counter of its results added up; -1: unknown */
};

/*
 * Who delayed the wakee in a run's file (locus run --sections blame --json): its p99
 * wakeups' wait by cause (blame.h's order: running, ahead, hardirq, softirq, elsewhere,
 * cpu_idle, unattributed) and by task name (the tasks' tids differ between runs).
 */
#define SWEEP_BLAME_CAUSES 7
#define SWEEP_BLAME_TASKS 64
struct sweep_blame {
	bool present;			/* the file has the p99 of blame */
	double p99_ns, p99_wakeups;	/* the p99 wait, and the wakeups that waited it or more */
	double by[SWEEP_BLAME_CAUSES];	/* their wait by cause, in all */
	struct sweep_blame_task {
		char comm[16];
		double ns;		/* their wait while tasks of this name ran instead */
	} task[SWEEP_BLAME_TASKS];
	int ntasks;
};

/* What a file held: a benchmark loop (locus run -r), or counts (locus stat --json). */
enum sweep_kind { SWEEP_LOOP, SWEEP_STAT };

/* One benchmark loop: where it ran, what it ran, every run. */
struct sweep_set {
	enum sweep_kind kind;
	const char *made_by;	/* SWEEP_STAT: "locus stat", or "locus run" (its file has sched) */
	/* environment */
	char kernel[128], cpu_model[128], topology[160], cmdline[1024], version[32], time[40];
	char hostname[128];	/* the machine's name ("" in a file of an older locus) */
	char command[1024];	/* the command with its {NAME} placeholder */
	/* the metric */
	bool have_metric;
	char metric_name[64], metric_unit[24];
	bool metric_higher;
	/* the sweep */
	char sweep_name[32];	/* "" without --sweep */
	char (*values)[64];
	int nvalues;
	int repeat;
	char hitm_why[200];	/* why no HITM/s, or "" */
	struct provenance prov;	/* how the scheduler measures were taken (source none: unknown) */
	struct sweep_run *runs;
	int nruns, cap;
	struct sweep_blame blame;	/* a run's file with --sections blame */
};

void sweep_set_add(struct sweep_set *s, const struct sweep_run *run);
void sweep_set_release(struct sweep_set *s);
/* The direction of a measure in this set: the metric's own for M_METRIC. */
int sweep_better(const struct sweep_set *s, enum measure m);

#endif
