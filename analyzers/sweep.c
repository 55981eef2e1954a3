/* sweep.c - per-run measures, their summaries, and mmtests-style comparison of two sets. */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "stats.h"

void sweep_measures(struct sweep_run *run, const struct sched_results *r, double elapsed_s)
{
	uint64_t placed = 0;

	run->m[M_ELAPSED] = elapsed_s;
	run->have[M_ELAPSED] = true;
	if (!r || elapsed_s <= 0)
		return;
	run->m[M_CS] = (double)(r->voluntary + r->involuntary) / elapsed_s;
	run->have[M_CS] = true;
	for (int k = 0; k < SM_NR; k++) {
		if (!(sched_measures[k].flags & MF_LOOP) || !sched_measured(r, k))
			continue;
		run->m[M_S_FIRST + k] = (double)sched_measure_get(r, k) / elapsed_s;
		run->have[M_S_FIRST + k] = true;
	}
	for (int k = 0; k < LOC_NR; k++)
		placed += r->by_class[k];
	/* a share of nothing is not a measured 0: left out */
	for (int k = 0; placed && k < LOC_NR; k++) {
		if (k == LOC_LLC && r->topo && !r->topo->llc_known)
			continue;
		run->m[M_SAME_CPU + k] = 100.0 * (double)r->by_class[k] / (double)placed;
		run->have[M_SAME_CPU + k] = true;
	}
	if (r->delay.count) {
		run->m[M_P99] = (double)hist_percentile(&r->delay, 99) / 1e3;
		run->have[M_P99] = true;
	}
	if (r->delay.count && sched_measured(r, SM_idle_passed)) { /* the perf collector's */
		run->m[M_IDLE_PCT] = 100.0 * (double)r->idle_passed / (double)r->delay.count;
		run->have[M_IDLE_PCT] = true;
	}
}

void sweep_summarize(const struct sweep_run *runs, int nruns, const char *value, enum measure m,
		     struct measure_sum *out)
{
	double *v = xcalloc((size_t)nruns + 1, sizeof(double));
	int n = 0;

	for (int i = 0; i < nruns; i++)
		if (runs[i].ok && runs[i].have[m] && !strcmp(runs[i].value, value))
			v[n++] = runs[i].m[m];
	out->n = n;
	out->mean = n ? stats_mean(v, (size_t)n) : 0;
	out->stddev = stats_stddev(v, (size_t)n);
	out->ci95 = stats_ci95(v, (size_t)n);
	free(v);
}

void sweep_compare(const struct measure_sum *base, const struct measure_sum *cur, int better,
		   struct diff_row *row)
{
	double d = cur->mean - base->mean;

	memset(row, 0, sizeof(*row));
	row->base = *base;
	row->cur = *cur;
	if (base->mean != 0) {
		row->ratio = cur->mean / base->mean;
		row->change_pct = d / fabs(base->mean) * 100.0;
	}
	row->significant = base->n >= 2 && cur->n >= 2 && fabs(d) > base->ci95 + cur->ci95;
	if (row->significant && better)
		row->verdict = (d > 0) == (better > 0) ? 1 : -1;
}

