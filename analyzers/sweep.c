/* sweep.c - per-run measures, their summaries, and mmtests-style comparison of two sets. */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
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
	if (r->delay.count && sched_measured(r, SM_idle_passed)) {
		struct sched_sample smp;

		run->m[M_IDLE_PCT] = 100.0 * (double)r->idle_passed / (double)r->delay.count;
		run->have[M_IDLE_PCT] = true;
		sched_sample_of(r, &smp);
		if (smp.sampled) { /* a share of the timed wakeups: its sampling interval */
			stats_wilson95((double)r->idle_passed, (double)r->delay.count,
				       &run->lo[M_IDLE_PCT], &run->hi[M_IDLE_PCT]);
			run->lo[M_IDLE_PCT] *= 100.0;
			run->hi[M_IDLE_PCT] *= 100.0;
			run->have_ci[M_IDLE_PCT] = true;
		}
	}
}

void sweep_summarize(const struct sweep_run *runs, int nruns, const char *value, enum measure m,
		     struct measure_sum *out)
{
	double *v = xcalloc((size_t)nruns + 1, sizeof(double)), h2 = 0;
	int n = 0;

	for (int i = 0; i < nruns; i++)
		if (runs[i].ok && runs[i].have[m] && !strcmp(runs[i].value, value)) {
			v[n++] = runs[i].m[m];
			if (runs[i].have_ci[m]) {
				double h = (runs[i].hi[m] - runs[i].lo[m]) / 2;

				h2 += h * h;
			}
		}
	out->n = n;
	/* the mean of n sampled shares: its interval from the samples alone */
	out->sample95 = n ? sqrt(h2) / n : 0;
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
	row->p = -1;
	if (base->n >= 2 && cur->n >= 2) {
		double sa = base->stddev * base->stddev / base->n,
		       sb = cur->stddev * cur->stddev / cur->n, se2 = sa + sb, df;

		if (se2 > 0) {
			df = se2 * se2 / (sa * sa / (base->n - 1) + sb * sb / (cur->n - 1));
			row->p = stats_t_p2(d / sqrt(se2), df);
		} else {
			row->p = d == 0 ? 1 : 0; /* no spread on either side */
		}
	}
	/* beyond both sides' run-to-run intervals and, for a sampled measure, beyond what the
	 * samples alone could make of one value */
	row->significant = base->n >= 2 && cur->n >= 2 && fabs(d) > base->ci95 + cur->ci95 &&
			   fabs(d) > base->sample95 + cur->sample95;
	if (row->significant && better)
		row->verdict = (d > 0) == (better > 0) ? 1 : -1;
}


int sweep_correct(struct diff_row *rows, int n, double alpha)
{
	double *p = xcalloc((size_t)n + 1, sizeof(*p));
	bool *reject = xcalloc((size_t)n + 1, sizeof(*reject));
	int family;

	for (int i = 0; i < n; i++)
		p[i] = rows[i].incomparable ? -1 : rows[i].p;
	family = stats_holm(p, n, alpha, reject);
	for (int i = 0; i < n; i++) {
		if (!reject[i]) {
			rows[i].significant = false;
			rows[i].verdict = 0;
		}
	}
	free(p);
	free(reject);
	return family;
}

static bool differ(char *why, size_t len, const char *what, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return false;
	snprintf(why, len, "%s differ%s ('%s' against '%s')", what,
		 what[strlen(what) - 1] == 's' ? "" : "s", a[0] ? a : "none", b[0] ? b : "none");
	return true;
}

bool sweep_incompatible(const struct sweep_set *a, const struct sweep_set *b, bool command,
			char *why, size_t len)
{
	why[0] = 0;
	if (a->kind != b->kind) {
		snprintf(why, len, "one is a benchmark loop (locus run -r), the other counts "
			 "(locus stat --json)");
		return true;
	}
	if ((command && differ(why, len, "commands", a->command, b->command)) ||
	    differ(why, len, "sweeps", a->sweep_name, b->sweep_name))
		return true;
	if (a->have_metric != b->have_metric) {
		snprintf(why, len, "only %s has a metric", a->have_metric ? "the base" : "the new file");
		return true;
	}
	if (!a->have_metric)
		return false;
	if (differ(why, len, "metrics", a->metric_name, b->metric_name) ||
	    differ(why, len, "metric units", a->metric_unit, b->metric_unit))
		return true;
	if (a->metric_higher != b->metric_higher) {
		snprintf(why, len, "the metric's direction differs (%s is better against %s)",
			 a->metric_higher ? "higher" : "lower", b->metric_higher ? "higher" : "lower");
		return true;
	}
	return false;
}
