/*
 * diff_explain.c - the account locus diff gives after its table: for each
 * sweep value, the metric's significant change and, ranked by how much they
 * moved, the significant changes of the scheduler measures beside it
 * ("metric -29.8% (worse): same-CPU wakeups 81.0% -> 22.0%, p99 wake-to-run
 * x3.20"). Nothing is said where nothing is significant.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "diff_int.h"
#include "json.h"

#define MAX_BECAUSE 4

struct change {
	char value[64];
	int m;
	struct diff_row row;
	double score;		/* how much it moved: |new - base| / max(|new|, |base|), for a
				 * share at least 10 points, for a rate at least 1/s (0.0% ->
				 * 0.05% is not a 100% move beside 99.9% -> 0.0%; 2% -> 41%
				 * still is nearly one) */
};

struct changes {
	struct change *c;
	int n, cap;
};

static bool is_share(int m)
{
	return (m >= M_SAME_CPU && m <= M_REMOTE) || m == M_IDLE_PCT;
}

static void collect(void *arg, const char *value, int m, const struct diff_row *r)
{
	struct changes *cs = arg;
	double a = r->base.mean, b = r->cur.mean, big = fmax(fabs(a), fabs(b));

	if (!r->significant || r->incomparable || m == M_ELAPSED || big == 0)
		return;
	if (cs->n == cs->cap) {
		cs->cap = cs->cap ? cs->cap * 2 : 32;
		cs->c = xrealloc(cs->c, (size_t)cs->cap * sizeof(*cs->c));
	}
	snprintf(cs->c[cs->n].value, sizeof(cs->c[cs->n].value), "%s", value);
	cs->c[cs->n].m = m;
	cs->c[cs->n].row = *r;
	if (is_share(m) && big < 10)
		big = 10;
	else if (strstr(measure_info((enum measure)m)->key, "_per_s") && big < 1)
		big = 1; /* 0.3 migrations/s -> 0 is not a 100% move beside 99.9% -> 0.0% */
	cs->c[cs->n].score = fabs(b - a) / big;
	cs->n++;
}

/*
 * Largest move first. Moves equal to two decimals (every measure that fell to 0 scores
 * 1.00) put the shares first: a locality shift is what the account is for.
 */
static int by_score(const void *x, const void *y)
{
	const struct change *a = x, *b = y;
	long qa = lround(a->score * 100), qb = lround(b->score * 100);

	if (qa != qb)
		return (qa < qb) - (qa > qb);
	if (is_share(a->m) != is_share(b->m))
		return is_share(b->m) - is_share(a->m);
	return (a->score < b->score) - (a->score > b->score);
}

/* "same-CPU wakeups 81.0% -> 22.0%", "p99 wake-to-run x3.20", "switches/s -50.0%". */
static void change_text(const struct sweep_set *s, const struct change *c, char *buf, size_t len)
{
	const struct diff_row *r = &c->row;
	char x[24];

	char a[24], b[24];

	sweep_measure_text(s, c->m, r->base.mean, a, sizeof(a));
	sweep_measure_text(s, c->m, r->cur.mean, b, sizeof(b));
	if (is_share(c->m))
		snprintf(buf, len, "%s %.1f%% -> %.1f%%", sweep_measure_words(s, c->m), r->base.mean,
			 r->cur.mean);
	else if (r->base.mean != 0 && r->cur.mean != 0 && (r->ratio >= 2 || r->ratio <= 0.5))
		snprintf(buf, len, "%s %s -> %s (x%s)", sweep_measure_words(s, c->m), a, b,
			 fmt_ratio(r->ratio, x, sizeof(x)));
	else if (r->base.mean != 0 && r->cur.mean != 0)
		snprintf(buf, len, "%s %s -> %s (%+.1f%%)", sweep_measure_words(s, c->m), a, b,
			 r->change_pct);
	else /* to or from none: the two values say it */
		snprintf(buf, len, "%s %s -> %s", sweep_measure_words(s, c->m), a, b);
}

/*
 * The account of one value: the headline (its metric's change, or that it did
 * not change) into buf, and the changes beside it, largest first, as indexes
 * into cs (at most MAX_BECAUSE).
 */
static int account(const struct sweep_set *s, const struct changes *cs, const char *value,
		   char *buf, size_t len, int *cited)
{
	const struct change *metric = NULL;
	int n = 0;

	for (int i = 0; i < cs->n; i++) {
		if (strcmp(cs->c[i].value, value))
			continue;
		if (cs->c[i].m == M_METRIC)
			metric = &cs->c[i];
		else if (n < MAX_BECAUSE)
			cited[n++] = i;
	}
	if (metric)
		snprintf(buf, len, "%s %+.1f%% (%s)", sweep_measure_words(s, M_METRIC), metric->row.change_pct,
			 metric->row.verdict > 0 ? "better" : metric->row.verdict < 0 ? "worse" :
			 "changed");
	else
		snprintf(buf, len, "%s", s->have_metric ? "metric unchanged; beside it" :
			 "no metric; changed");
	return n;
}

static void gather(const struct diff_input *base, const struct diff_input *cur, struct changes *cs)
{
	memset(cs, 0, sizeof(*cs));
	diff_each_row(base, cur, collect, cs);
	if (cs->n) /* qsort of NULL is undefined even for 0 items */
		qsort(cs->c, (size_t)cs->n, sizeof(*cs->c), by_score);
}

/* Whether value has any significant change (the metric's or another's). */
static bool changed(const struct changes *cs, const char *value)
{
	for (int i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].value, value))
			return true;
	return false;
}

void diff_explain_text(FILE *f, const struct diff_input *base, const struct diff_input *cur)
{
	const struct sweep_set *a = base->set;
	struct changes cs;
	bool any = false;

	gather(base, cur, &cs);
	for (int v = 0; v < a->nvalues; v++) {
		char head[256], t[160];
		int cited[MAX_BECAUSE], n;

		if (!changed(&cs, a->values[v]))
			continue;
		if (!any) {
			char aff[600];

			fprintf(f, "\n What changed (significant; beside the metric, largest first):\n");
			/* a condition the runs did not share, first: it may be the whole story */
			if (prov_affinity_differs(&a->prov, &cur->set->prov, aff, sizeof(aff)))
				fprintf(f, "   (the workloads were allowed other CPUs: %s)\n", aff);
		}
		any = true;
		n = account(a, &cs, a->values[v], head, sizeof(head), cited);
		if (a->sweep_name[0])
			fprintf(f, "   %s=%s: %s%s\n", a->sweep_name, a->values[v], head, n ? "," : "");
		else
			fprintf(f, "   %s%s\n", head, n ? "," : "");
		for (int k = 0; k < n; k++) {
			change_text(a, &cs.c[cited[k]], t, sizeof(t));
			fprintf(f, "     %s%s\n", t, k + 1 < n ? "," : "");
		}
	}
	free(cs.c);
}

void diff_explain_json(struct json *j, const struct diff_input *base, const struct diff_input *cur)
{
	const struct sweep_set *a = base->set;
	struct changes cs;

	gather(base, cur, &cs);
	json_array(j, "explanation");
	for (int v = 0; v < a->nvalues; v++) {
		char head[256], line[1024], t[160];
		int cited[MAX_BECAUSE], n;
		size_t at;

		if (!changed(&cs, a->values[v]))
			continue;
		n = account(a, &cs, a->values[v], head, sizeof(head), cited);
		at = (size_t)snprintf(line, sizeof(line), "%s", head);
		for (int k = 0; k < n && at < sizeof(line); k++) { /* the same, on one line */
			change_text(a, &cs.c[cited[k]], t, sizeof(t));
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s", k ? "," : ":", t);
		}
		json_object(j, NULL);
		json_string(j, "value", a->values[v]);
		json_string(j, "text", line);
		json_array(j, "changes");
		for (int k = 0; k < n; k++) {
			const struct change *c = &cs.c[cited[k]];

			change_text(a, c, t, sizeof(t));
			json_object(j, NULL);
			json_string(j, "measure", measure_info((enum measure)c->m)->key);
			json_number(j, "base", c->row.base.mean);
			json_number(j, "new", c->row.cur.mean);
			json_string(j, "text", t);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	free(cs.c);
}
