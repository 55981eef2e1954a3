/*
 * sweep.h - the benchmark loop's analysis: each run's measures from its results, their
 * summaries, and the comparison of two sweeps (locus diff). The data: model/sweep.h.
 */
#ifndef LOCUS_SWEEP_H
#define LOCUS_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/sched_results.h"
#include "../model/sweep.h"

/* Fill a run's locus measures from one run's scheduler results over elapsed_s. */
void sweep_measures(struct sweep_run *run, const struct sched_results *r, double elapsed_s);

/* Mean, sample stddev and 95% CI half-width of one measure over a value's good runs. */
struct measure_sum {
	int n;
	double mean, stddev, ci95;
	double sample95;	/* a sampled measure: the 95% half-width of the mean from the
				 * runs' samples alone (Wilson); 0 when exact */
};
/* Summarize measure m over runs[] whose value is value and that are ok. */
void sweep_summarize(const struct sweep_run *runs, int nruns, const char *value, enum measure m,
		     struct measure_sum *out);

/* One row of a comparison. */
struct diff_row {
	struct measure_sum base, cur;
	double ratio;		/* cur / base mean (0 when base is 0) */
	double change_pct;	/* (cur - base) / base * 100 */
	double p;		/* Welch's two-sided p-value; -1 when untested (n < 2 a side) */
	bool significant;	/* |cur - base| > ci95(base) + ci95(cur), both with n >= 2, and
				 * > sample95(base) + sample95(cur) (a sampled measure), and,
				 * after sweep_correct, Holm-Bonferroni rejects the row's null */
	int verdict;		/* +1 better, -1 worse, 0 neither or not significant */
	bool incomparable;	/* the sides were measured in ways that change its meaning */
};
/*
 * Compare one measure of one value. better as in measure_info (for M_METRIC,
 * the metric's own direction).
 */
void sweep_compare(const struct measure_sum *base, const struct measure_sum *cur, int better,
		   struct diff_row *row);

/*
 * Correct rows[0..n) for the number of comparisons: a row stays significant only when
 * Holm-Bonferroni over the rows' p-values (incomparable rows left out) rejects its null
 * at family-wise level alpha too. Returns the family's size.
 */
int sweep_correct(struct diff_row *rows, int n, double alpha);

/*
 * Whether two loop files measure different things (another metric, direction, unit, sweep
 * or kind of file; with command, another command too): true with one line saying what
 * differs in why. Another command alone is another configuration a table may still show
 * (--pin 0,0 against --pin 0,1); a bisect step must not judge it.
 */
bool sweep_incompatible(const struct sweep_set *a, const struct sweep_set *b, bool command,
			char *why, size_t len);

#endif
