/* diff_report.c - locus diff: two benchmark loops side by side, ratios and significance. */
#include <string.h>

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

/* Calls fn for each (value, measure) both sets measured. */
void diff_each_row(const struct diff_input *base, const struct diff_input *cur,
		     void (*fn)(void *ctx, const char *value, int m, const struct diff_row *row),
		     void *ctx)
{
	const struct sweep_set *a = base->set, *b = cur->set;
	char why[600];
	unsigned d = measured_differently(a, b, why, sizeof(why));

	for (int v = 0; v < a->nvalues; v++) {
		const char *val = a->values[v];

		if (!has_value(b, val))
			continue;
		for (int m = 0; m < M_NR; m++) {
			struct measure_sum sa, sb;
			struct diff_row row;

			if (m == M_METRIC && (!a->have_metric || !b->have_metric))
				continue;
			sweep_summarize(a->runs, a->nruns, val, (enum measure)m, &sa);
			sweep_summarize(b->runs, b->nruns, val, (enum measure)m, &sb);
			if (!sa.n || !sb.n || (sa.mean == 0 && sb.mean == 0 && !sa.stddev &&
						    !sb.stddev))
				continue; /* none on either side: nothing to compare */
			sweep_compare(&sa, &sb, sweep_better(a, (enum measure)m), &row);
			if (incomparable(d, m)) { /* a change of method, not of the system */
				row.significant = false;
				row.verdict = 0;
				row.incomparable = true;
			}
			fn(ctx, val, m, &row);
		}
	}
}

struct text_ctx {
	FILE *f;
	const struct sweep_set *set;
	int vw;
};

static const char *label(const struct sweep_set *s, int m)
{
	if (m == M_METRIC)
		return s->metric_unit[0] ? s->metric_unit : "metric";
	return measure_info((enum measure)m)->label;
}

static void sd_pct(char *buf, size_t len, const struct measure_sum *s)
{
	if (s->n < 2 || s->mean == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", 100.0 * s->stddev / (s->mean < 0 ? -s->mean : s->mean));
}

/* Means keep four significant digits below 1000: "0.1234", "45.1", "13.4K". */
static const char *mean_text(double v, char *buf, size_t len)
{
	if (v > -1000 && v < 1000)
		snprintf(buf, len, "%.4g", v);
	else
		fmt_short(v, buf, len);
	return buf;
}

static void text_row(void *arg, const char *value, int m, const struct diff_row *r)
{
	struct text_ctx *t = arg;
	char a[24], b[24], sa[16], sb[16], ratio[16], change[16];

	sd_pct(sa, sizeof(sa), &r->base);
	sd_pct(sb, sizeof(sb), &r->cur);
	if (r->base.mean != 0) {
		snprintf(ratio, sizeof(ratio), "%.3f", r->ratio);
		snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
	} else {
		snprintf(ratio, sizeof(ratio), "-");
		snprintf(change, sizeof(change), "-");
	}
	fprintf(t->f, "   %-*s %-7s %9s %6s %9s %6s %7s %8s%s\n", t->vw, value, label(t->set, m),
		mean_text(r->base.mean, a, sizeof(a)), sa, mean_text(r->cur.mean, b, sizeof(b)), sb,
		ratio, change, r->incomparable ? "  ~ measured differently" : !r->significant ? "" :
		r->verdict > 0 ? "  * better" : r->verdict < 0 ? "  * worse" : "  *");
}

static void describe(FILE *f, const char *what, const struct diff_input *in)
{
	const struct sweep_set *s = in->set;

	fprintf(f, "   %-5s %s: %s, %s; %s; %d run%s per value, %s\n", what, in->name,
		s->kernel[0] ? s->kernel : "kernel unknown", s->cpu_model[0] ? s->cpu_model : "?",
		s->topology, s->repeat, s->repeat == 1 ? "" : "s", s->time);
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
	}
	fprintf(f, "   ratio = new/base; '*' marks a difference larger than both 95%% confidence "
		   "intervals together\n\n");
	for (int v = 0; v < a->nvalues; v++)
		if ((int)strlen(a->values[v]) > t.vw)
			t.vw = (int)strlen(a->values[v]);
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
	}
	json_array(&j, "rows");
	diff_each_row(base, cur, json_row, &j);
	json_array_end(&j);
	diff_explain_json(&j, base, cur);
	json_object_end(&j);
	json_end(&j);
}
