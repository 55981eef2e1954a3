/* diff_report.c - locus diff: two benchmark loops side by side, ratios and significance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/outfile.h"
#include "../common/util.h"
#include "json.h"
#include "diff_int.h"
#include "sweep_report.h"

static bool has_value(const struct sweep_set *s, const char *v)
{
	for (int i = 0; i < s->nvalues; i++)
		if (!strcmp(s->values[i], v))
			return true;
	return false;
}

/* How the two sides were measured differently (enum prov_diff), why in one line. */
static unsigned measured_differently(const struct sweep_set *a, const struct sweep_set *b,
				     char *why, size_t len)
{
	if (a->prov.source == PROV_NONE || b->prov.source == PROV_NONE) {
		snprintf(why, len, "%s", a->prov.source == b->prov.source ? "" :
			 "how one side was measured is unknown (a file of an older locus)");
		return 0;
	}
	return prov_compare(&a->prov, &b->prov, why, len);
}

/* Whether a difference in how the sides were measured changes what measure m means. */
static bool incomparable(unsigned d, int m)
{
	if ((d & PDIFF_DELAYS) && m == M_P99)
		return true;
	return (d & PDIFF_COUNTS) && m != M_METRIC && m != M_ELAPSED;
}

struct row_at {
	const char *value;
	int m;
	struct diff_row row;
};

/* Every (value, measure) both sets measured, in table order; *n of them. */
static struct row_at *collect_rows(const struct sweep_set *a, const struct sweep_set *b, int *n)
{
	char why[600];
	unsigned d = measured_differently(a, b, why, sizeof(why));
	bool other = sweep_incompatible(a, b, false, why, sizeof(why));
	struct row_at *rows = xcalloc((size_t)a->nvalues * M_NR + 1, sizeof(*rows));

	*n = 0;
	for (int v = 0; v < a->nvalues; v++) {
		const char *val = a->values[v];

		if (!has_value(b, val))
			continue;
		for (int m = 0; m < M_NR; m++) {
			struct measure_sum sa, sb;
			struct row_at *r = &rows[*n];

			if (m == M_METRIC && (!a->have_metric || !b->have_metric))
				continue;
			sweep_summarize(a->runs, a->nruns, val, (enum measure)m, &sa);
			sweep_summarize(b->runs, b->nruns, val, (enum measure)m, &sb);
			if (!sa.n || !sb.n || (sa.mean == 0 && sb.mean == 0 && !sa.stddev &&
						    !sb.stddev))
				continue; /* none on either side: nothing to compare */
			sweep_compare(&sa, &sb, sweep_better(a, (enum measure)m), &r->row);
			if (other || incomparable(d, m)) { /* a change of method, not of the system */
				r->row.significant = false;
				r->row.verdict = 0;
				r->row.incomparable = true;
			}
			r->value = val;
			r->m = m;
			(*n)++;
		}
	}
	return rows;
}

int diff_each_row(const struct diff_input *base, const struct diff_input *cur,
		  void (*fn)(void *ctx, const char *value, int m, const struct diff_row *row),
		  void *ctx)
{
	int n, family;
	struct row_at *rows = collect_rows(base->set, cur->set, &n);
	struct diff_row *just = xcalloc((size_t)n + 1, sizeof(*just));

	for (int i = 0; i < n; i++)
		just[i] = rows[i].row;
	family = sweep_correct(just, n, DIFF_ALPHA);
	for (int i = 0; fn && i < n; i++)
		fn(ctx, rows[i].value, rows[i].m, &just[i]);
	free(just);
	free(rows);
	return family;
}

struct text_ctx {
	FILE *f;
	const struct sweep_set *set;
	int vw;
};

static void sd_pct(char *buf, size_t len, const struct measure_sum *s)
{
	if (s->n < 2 || s->mean == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", 100.0 * s->stddev / (s->mean < 0 ? -s->mean : s->mean));
}

/* Means keep four significant digits below 1000, trailing zeros too, so a column reads
 * alike: "0.1234", "45.10", "4.000", "13.4K"; the p99 in
 * a duration's units: "17.6 ms". */
static const char *mean_text(const struct sweep_set *s, int m, double v, char *buf, size_t len)
{
	if (m == M_P99)
		sweep_measure_text(s, m, v, buf, len);
	else if (v > -1000 && v < 1000)
		snprintf(buf, len, "%#.4g", v);
	else
		fmt_short(v, buf, len);
	return buf;
}

static void text_row(void *arg, const char *value, int m, const struct diff_row *r)
{
	struct text_ctx *t = arg;
	char a[24], b[24], sa[16], sb[16], ratio[24], change[24];

	sd_pct(sa, sizeof(sa), &r->base);
	sd_pct(sb, sizeof(sb), &r->cur);
	if (r->base.mean != 0) {
		fmt_ratio(r->ratio, ratio, sizeof(ratio));
		if (fabs(r->change_pct) < 1e5)
			snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
		else
			snprintf(change, sizeof(change), "%+.2e%%", r->change_pct);
	} else {
		snprintf(ratio, sizeof(ratio), "-");
		snprintf(change, sizeof(change), "-");
	}
	fprintf(t->f, "   %-*s %-7s %9s %6s %9s %6s %7s %8s%s\n", t->vw, value, sweep_measure_label(t->set, m),
		mean_text(t->set, m, r->base.mean, a, sizeof(a)), sa, mean_text(t->set, m, r->cur.mean, b, sizeof(b)), sb,
		ratio, change, r->incomparable ? "  ~ measured differently" : !r->significant ? "" :
		r->verdict > 0 ? "  * better" : r->verdict < 0 ? "  * worse" : "  *");
}

static void describe(FILE *f, const char *what, const struct diff_input *in)
{
	const struct sweep_set *s = in->set;

	if (s->kind == SWEEP_STAT) {
		fprintf(f, "   %-5s %s: %s of '%s', %d run%s\n", what, in->name,
			s->made_by ? s->made_by : "locus stat", s->command, s->nruns,
			s->nruns == 1 ? "" : "s");
		return;
	}
	char lead[16], text[800];

	snprintf(lead, sizeof(lead), "   %-5s ", what);
	snprintf(text, sizeof(text), "%s: %s, %s; %s; %d run%s per value%s%s, %s", in->name,
		 s->kernel[0] ? s->kernel : "kernel unknown", s->cpu_model[0] ? s->cpu_model : "?",
		 s->topology, s->repeat, s->repeat == 1 ? "" : "s",
		 s->prov.affinity[0] ? ", the workload's affinity " : "", s->prov.affinity, s->time);
	fprint_folded(f, lead, text, 9, 80);
}

/* The measures the table has, in its order (the legend's columns). */
struct seen {
	int cols[M_NR], n;
};

static void seen_row(void *arg, const char *value, int m, const struct diff_row *r)
{
	struct seen *s = arg;

	(void)value;
	(void)r;
	for (int i = 0; i < s->n; i++)
		if (s->cols[i] == m)
			return;
	if (s->n < M_NR)
		s->cols[s->n++] = m;
}

static void count_row(void *arg, const char *value, int m, const struct diff_row *r)
{
	(void)value;
	(void)m;
	*(int *)arg += r->significant;
}

int diff_significant(const struct diff_input *base, const struct diff_input *cur)
{
	int n = 0;

	diff_each_row(base, cur, count_row, &n);
	return n;
}

static void worse_row(void *arg, const char *value, int m, const struct diff_row *r)
{
	(void)value;
	*(int *)arg += m == M_METRIC && r->significant && r->verdict < 0;
}

int diff_metric_worse(const struct diff_input *base, const struct diff_input *cur)
{
	int n = 0;

	diff_each_row(base, cur, worse_row, &n);
	return n;
}

bool sweep_metric_measured(const struct sweep_set *s)
{
	if (!s->have_metric)
		return false;
	for (int i = 0; i < s->nruns; i++)
		if (s->runs[i].ok && s->runs[i].have[M_METRIC])
			return true;
	return false;
}

void diff_report_text(FILE *f, const struct diff_input *base, const struct diff_input *cur)
{
	struct text_ctx t = { f, base->set, 5 };
	const struct sweep_set *a = base->set, *b = cur->set;

	fprintf(f, "\n locus diff: %s -> %s\n", base->name, cur->name);
	describe(f, "base", base);
	describe(f, "new", cur);
	if (strcmp(a->command, b->command))
		fprintf(f, "   commands differ: '%s' vs '%s'\n", a->command, b->command);
	if (a->have_metric)
		fprintf(f, "   metric: %s (%s is better)%s\n", a->metric_name,
			a->metric_higher ? "higher" : "lower",
			b->have_metric && strcmp(a->metric_name, b->metric_name) ?
			"; the new file's metric differs" : "");
	{
		char why[600];
		unsigned d = measured_differently(a, b, why, sizeof(why));

		if (why[0])
			fprintf(f, "   %s%s\n", why, d & (PDIFF_DELAYS | PDIFF_COUNTS) ?
				"; '~' rows are not compared" : "");
		if (prov_affinity_differs(&a->prov, &b->prov, why, sizeof(why)))
			fprintf(f, "   the workloads were allowed other CPUs: %s\n", why);
	}
	{
		char why[600];
		int family = diff_each_row(base, cur, NULL, NULL);

		if (sweep_incompatible(a, b, false, why, sizeof(why)))
			fprintf(f, "   not comparable: %s; no row is marked\n", why);
		snprintf(why, sizeof(why), "ratio = new/base; '*' marks a difference larger than "
			 "both 95%% confidence intervals together and significant after "
			 "Holm-Bonferroni over the %d comparison%s (Welch's t test, 5%% "
			 "family-wise)", family, family == 1 ? "" : "s");
		fprint_folded(f, "   ", why, 3, 80);
	}
	for (int v = 0; v < a->nvalues; v++)
		if ((int)strlen(a->values[v]) > t.vw)
			t.vw = (int)strlen(a->values[v]);
	{
		struct seen seen = { .n = 0 };

		diff_each_row(base, cur, seen_row, &seen);
		sweep_legend(f, a, seen.cols, seen.n);
		if (seen.n)
			fputc('\n', f);
	}
	fprintf(f, "   %-*s %-7s %9s %6s %9s %6s %7s %8s\n", t.vw,
		a->sweep_name[0] ? a->sweep_name : "", "measure", "base", "±sd%", "new", "±sd%",
		"ratio", "change");
	diff_each_row(base, cur, text_row, &t);
	for (int v = 0; v < a->nvalues; v++)
		if (!has_value(b, a->values[v]))
			fprintf(f, "   %s=%s: only in %s\n", a->sweep_name, a->values[v], base->name);
	for (int v = 0; v < b->nvalues; v++)
		if (!has_value(a, b->values[v]))
			fprintf(f, "   %s=%s: only in %s\n", b->sweep_name, b->values[v], cur->name);
	diff_explain_text(f, base, cur);
}

static void sum_json(struct json *j, const char *key, const struct measure_sum *s)
{
	json_object(j, key);
	json_int(j, "n", s->n);
	json_number(j, "mean", s->mean);
	json_number(j, "stddev", s->stddev);
	json_number(j, "ci95", s->ci95);
	if (s->sample95 > 0) /* a sampled measure: the half-width the samples alone give */
		json_number(j, "sample_ci95", s->sample95);
	json_object_end(j);
}

static void json_row(void *arg, const char *value, int m, const struct diff_row *r)
{
	struct json *j = arg;

	json_object(j, NULL);
	json_string(j, "value", value);
	json_string(j, "measure", measure_info((enum measure)m)->key);
	sum_json(j, "base", &r->base);
	sum_json(j, "new", &r->cur);
	if (r->base.mean != 0) {
		json_number(j, "ratio", r->ratio);
		json_number(j, "change_pct", r->change_pct);
	} else {
		json_null(j, "ratio");
		json_null(j, "change_pct");
	}
	if (r->p >= 0)
		json_number(j, "p_value", r->p);
	else
		json_null(j, "p_value");
	json_bool(j, "significant", r->significant);
	json_bool(j, "comparable", !r->incomparable);
	json_string(j, "verdict", r->verdict > 0 ? "better" : r->verdict < 0 ? "worse" : "none");
	json_object_end(j);
}

void diff_report_json(FILE *f, const struct diff_input *base, const struct diff_input *cur)
{
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "base", base->name);
	json_string(&j, "new", cur->name);
	json_string(&j, "sweep", base->set->sweep_name);
	{
		char why[600];
		unsigned d = measured_differently(base->set, cur->set, why, sizeof(why));

		json_bool(&j, "measured_differently", d != 0);
		json_string(&j, "how", why);
		json_bool(&j, "delays_comparable", !(d & PDIFF_DELAYS));
		json_bool(&j, "counts_comparable", !(d & PDIFF_COUNTS));
		json_object(&j, "workload_affinity"); /* the CPUs each workload was allowed */
		if (base->set->prov.affinity[0])
			json_string(&j, "base", base->set->prov.affinity);
		else
			json_null(&j, "base");
		if (cur->set->prov.affinity[0])
			json_string(&j, "new", cur->set->prov.affinity);
		else
			json_null(&j, "new");
		json_bool(&j, "differs", prov_affinity_differs(&base->set->prov, &cur->set->prov, why,
							       sizeof(why)));
		json_object_end(&j);
	}
	{
		char why[600];
		bool other = sweep_incompatible(base->set, cur->set, false, why, sizeof(why));

		json_bool(&j, "comparable", !other);
		json_string(&j, "not_comparable_because", why);
	}
	json_object(&j, "significance");
	json_string(&j, "rule", "difference larger than both 95% confidence intervals together, "
				"and Welch's t test rejected by Holm-Bonferroni");
	json_string(&j, "correction", "holm-bonferroni");
	json_number(&j, "family_wise_alpha", DIFF_ALPHA);
	json_int(&j, "comparisons", diff_each_row(base, cur, NULL, NULL));
	json_object_end(&j);
	json_array(&j, "rows");
	diff_each_row(base, cur, json_row, &j);
	json_array_end(&j);
	diff_explain_json(&j, base, cur);
	json_object_end(&j);
	json_end(&j);
}

struct diff_job {
	const struct diff_input *base, *cur;
	int n;
};

static void text_doc(FILE *f, void *ctx)
{
	struct diff_job *d = ctx;

	for (int i = 0; i < d->n; i++) {
		diff_report_text(f, d->base, &d->cur[i]);
		diff_blame_text(f, d->base->set, d->cur[i].set);
	}
}

static void json_doc(FILE *f, void *ctx)
{
	struct diff_job *d = ctx;

	if (d->n == 1) {
		diff_report_json(f, d->base, &d->cur[0]);
		return;
	}
	fputs("[\n", f);
	for (int i = 0; i < d->n; i++) {
		diff_report_json(f, d->base, &d->cur[i]);
		if (i + 1 < d->n)
			fputs(",\n", f);
	}
	fputs("]\n", f);
}

static void svg_doc(FILE *f, void *ctx)
{
	struct diff_job *d = ctx;

	diff_report_svg(f, d->base, &d->cur[0]);
}

int diff_report_write(const struct diff_input *base, const struct diff_input *cur, int n,
		      const char *out, const char *json, const char *svg)
{
	struct diff_job job = { base, cur, n };
	int rc = 0;

	if (out) {
		if (write_file_atomically(out, text_doc, &job) < 0)
			rc = -1;
	} else if (!(json && !strcmp(json, "-"))) {
		text_doc(stdout, &job);
	}
	if (json && write_file_atomically(json, json_doc, &job) < 0)
		rc = -1;
	if (svg && write_file_atomically(svg, svg_doc, &job) < 0)
		rc = -1;
	return rc;
}
