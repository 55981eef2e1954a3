/*
 * sweep.h - the benchmark loop's data: runs per sweep value, each with the
 * benchmark's metric and locus's measures; their summaries; and the
 * comparison of two sweeps (locus diff).
 */
#ifndef LOCUS_SWEEP_H
#define LOCUS_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "sched_results.h"

/* What each run measures, in report order. */
enum measure {
	M_METRIC,	/* the benchmark's own figure of merit */
	M_CS,		/* context switches/s of the workload's tasks */
	M_MIGR,		/* migrations/s */
	M_WAKEUPS,	/* wakeups/s */
	M_SAME_CPU,	/* share of placed wakeups, waker CPU to target CPU, % */
	M_SMT,
	M_LLC,
	M_NODE,
	M_REMOTE,
	M_P99,		/* wake-to-run p99, microseconds */
	M_HITM,		/* HITM loads/s */
	M_ELAPSED,	/* the run's wall time, s */
	M_NR
};

/* Better when higher (+1), when lower (-1), or neither (0: informational). */
struct measure_info {
	const char *key;	/* JSON key */
	const char *label;	/* text column */
	int better;
};
const struct measure_info *measure_info(enum measure m);
/* The measure whose JSON key is key, or -1. */
int measure_by_key(const char *key);

struct sweep_run {
	char value[64];		/* the sweep value ("" without a sweep) */
	int rep;		/* 1-based */
	int exit_code;
	bool ok;		/* exited 0 and, when asked, the metric was found */
	double m[M_NR];
	bool have[M_NR];
};

/* One benchmark loop: where it ran, what it ran, every run. */
struct sweep_set {
	/* environment */
	char kernel[128], cpu_model[128], topology[160], cmdline[1024], version[32], time[40];
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
	struct sweep_run *runs;
	int nruns, cap;
};

void sweep_set_add(struct sweep_set *s, const struct sweep_run *run);
void sweep_set_release(struct sweep_set *s);
/* The direction of a measure in this set: the metric's own for M_METRIC. */
int sweep_better(const struct sweep_set *s, enum measure m);

/* Fill a run's locus measures from one run's scheduler results over elapsed_s. */
void sweep_measures(struct sweep_run *run, const struct sched_results *r, double elapsed_s);

/* Mean, sample stddev and 95% CI half-width of one measure over a value's good runs. */
struct measure_sum {
	int n;
	double mean, stddev, ci95;
};
/* Summarize measure m over runs[] whose value is value and that are ok. */
void sweep_summarize(const struct sweep_run *runs, int nruns, const char *value, enum measure m,
		     struct measure_sum *out);

/* One row of a comparison. */
struct diff_row {
	struct measure_sum base, cur;
	double ratio;		/* cur / base mean (0 when base is 0) */
	double change_pct;	/* (cur - base) / base * 100 */
	bool significant;	/* |cur - base| > ci95(base) + ci95(cur), both with n >= 2 */
	int verdict;		/* +1 better, -1 worse, 0 neither or not significant */
};
/*
 * Compare one measure of one value. better as in measure_info (for M_METRIC,
 * the metric's own direction).
 */
void sweep_compare(const struct measure_sum *base, const struct measure_sum *cur, int better,
		   struct diff_row *row);

#endif
