/*
 * stat_file.c - a `locus stat --json` file (also `stat -r N`) as a set locus diff compares:
 * one value, a run per repetition, the elapsed time as the metric (lower is better) and
 * each counter of locus stat's own as a count measure.
 */
#include "stat_file.h"

#include <stdio.h>
#include <string.h>

#include "../common/jsonread.h"
#include "../common/util.h"

static int bad(char *err, size_t len, const char *what)
{
	snprintf(err, len, "not a locus stat file: %s", what);
	return -1;
}

/* The numbers of arr (NULL: none) into the runs' measure m, times scale. */
static int put_runs(struct sweep_set *s, const struct jv *arr, int m, double scale, char *err,
		    size_t len)
{
	if (!arr)
		return 0;
	if (arr->type != JV_ARRAY || arr->n > (size_t)s->nruns)
		return bad(err, len, "a list of runs is longer than the runs");
	for (size_t i = 0; i < arr->n; i++) {
		if (arr->items[i].type == JV_NULL)
			continue; /* not a finite number: not measured */
		if (arr->items[i].type != JV_NUMBER)
			return bad(err, len, "a run's value is not a number");
		s->runs[i].m[m] = arr->items[i].num * scale;
		s->runs[i].have[m] = true;
	}
	return 0;
}

static int read_counters(struct sweep_set *s, const struct jv *cs, char *err, size_t len)
{
	if (!cs || cs->type != JV_ARRAY)
		return bad(err, len, "no counters");
	for (size_t i = 0; i < cs->n; i++) {
		const struct jv *c = &cs->items[i];
		const char *name = jv_str(c, "name", "");
		int m = measure_by_stat_name(name);

		if (c->type != JV_OBJECT)
			return bad(err, len, "a counter is not an object");
		if (m < 0)
			continue; /* an -e event: its name has no measure to pair it by */
		if (put_runs(s, jv_get(c, "runs"), m, m == M_ST_TASK_CLOCK ? 1e-6 : 1, err, len))
			return -1;
	}
	return 0;
}

int stat_file_parse(const struct jv *root, struct sweep_set *s, char *err, size_t errlen)
{
	const struct jv *el = jv_get(root, "elapsed_ns"), *split = jv_get(root, "context_switch_split");
	long runs, code;

	memset(s, 0, sizeof(*s));
	s->kind = SWEEP_STAT;
	s->made_by = jv_get(root, "sched") ? "locus run" : "locus stat";
	if (jv_long(root, "runs", 0, 100000, -1, &runs) < 0 || runs < 0)
		return bad(err, errlen, "runs is not a whole number");
	if (jv_long(root, "exit_status", -1024, 1024, 0, &code) < 0)
		return bad(err, errlen, "exit_status is not a whole number");
	snprintf(s->version, sizeof(s->version), "%s", jv_str(root, "locus_version", ""));
	snprintf(s->command, sizeof(s->command), "%s", jv_str(root, "command", ""));
	s->values = xcalloc(1, sizeof(*s->values));
	s->nvalues = 1;
	s->repeat = runs ? (int)runs : 1;
	s->have_metric = true;
	snprintf(s->metric_name, sizeof(s->metric_name), "elapsed time");
	snprintf(s->metric_unit, sizeof(s->metric_unit), "s");
	s->metric_higher = false;
	for (long i = 0; i < runs; i++) /* a stat run that ended counted, whatever its status */
		sweep_set_add(s, &(struct sweep_run){ .rep = (int)i + 1, .exit_code = (int)code,
						      .ok = true, .dropped = -1 });
	/* the elapsed time of each run (written since locus diff reads these files) */
	if (put_runs(s, el ? jv_get(el, "runs") : NULL, M_METRIC, 1e-9, err, errlen) ||
	    read_counters(s, jv_get(root, "counters"), err, errlen) ||
	    put_runs(s, jv_get(split, "voluntary_runs"), M_ST_VOL, 1, err, errlen) ||
	    put_runs(s, jv_get(split, "involuntary_runs"), M_ST_INVOL, 1, err, errlen)) {
		sweep_set_release(s);
		return -1;
	}
	return 0;
}
