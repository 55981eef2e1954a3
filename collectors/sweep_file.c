/* sweep_file.c - a locus run JSON file back into a sweep set, every field checked. */
#include "sweep_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/jsonread.h"
#include "../common/util.h"
#include "stat_file.h"

#define MAX_FILE (256u << 20)

static void copy_str(char *dst, size_t len, const struct jv *obj, const char *key)
{
	snprintf(dst, len, "%s", jv_str(obj, key, ""));
}

static int bad(char *err, size_t len, const char *what)
{
	snprintf(err, len, "not a locus run file: %s", what);
	return -1;
}

/* A whole number of obj in [lo, hi] (absent: dflt), or the file is refused. */
static int whole(const struct jv *obj, const char *key, long lo, long hi, long dflt, long *out,
		 char *err, size_t len)
{
	char what[96];

	if (jv_long(obj, key, lo, hi, dflt, out) == 0)
		return 0;
	snprintf(what, sizeof(what), "%s is not a whole number in [%ld, %ld]", key, lo, hi);
	return bad(err, len, what);
}

static int read_values(struct sweep_set *s, const struct jv *sweep, char *err, size_t len)
{
	const struct jv *vals = jv_get(sweep, "values");

	if (!vals || vals->type != JV_ARRAY || vals->n == 0 || vals->n > 100000)
		return bad(err, len, "sweep.values is not a list of values");
	s->values = xcalloc(vals->n, sizeof(*s->values));
	for (size_t i = 0; i < vals->n; i++) {
		if (vals->items[i].type != JV_STRING)
			return bad(err, len, "a sweep value is not a string");
		snprintf(s->values[i], sizeof(s->values[i]), "%s", vals->items[i].str);
	}
	s->nvalues = (int)vals->n;
	return 0;
}

static int read_run(struct sweep_set *s, const struct jv *r, char *err, size_t len)
{
	struct sweep_run run = { 0 };
	const struct jv *ok = jv_get(r, "ok"), *ms = jv_get(r, "measures"), *ci = jv_get(r, "ci95");
	long rep, code, dropped;

	if (r->type != JV_OBJECT || !jv_get(r, "value") || !ok || ok->type != JV_BOOL ||
	    !ms || ms->type != JV_OBJECT)
		return bad(err, len, "a run lacks value, ok or measures");
	copy_str(run.value, sizeof(run.value), r, "value");
	if (whole(r, "run", 0, 1000000, 0, &rep, err, len) < 0 ||
	    whole(r, "exit_code", -1024, 1024, 0, &code, err, len) < 0 ||
	    whole(r, "dropped", -1, 1L << 53, -1, &dropped, err, len) < 0)
		return -1;
	run.rep = (int)rep;
	run.exit_code = (int)code;
	run.ok = ok->b;
	{
		const struct jv *in = jv_get(r, "interrupted");

		if (in && in->type != JV_BOOL)
			return bad(err, len, "a run's interrupted is not true or false");
		run.interrupted = in && in->b;
	}
	run.dropped = dropped;
	for (size_t i = 0; i < ms->n; i++) {
		int m = measure_by_key(ms->keys[i]);

		if (m < 0)
			continue; /* a measure of a later locus */
		if (ms->items[i].type == JV_NULL)
			continue; /* not a finite number (the writer's null): not measured */
		if (ms->items[i].type != JV_NUMBER)
			return bad(err, len, "a measure is not a number");
		run.m[m] = ms->items[i].num;
		run.have[m] = true;
	}
	if (ci && ci->type == JV_OBJECT)
		for (size_t i = 0; i < ci->n; i++) {
			const struct jv *v = &ci->items[i];
			int m = measure_by_key(ci->keys[i]);

			if (m < 0)
				continue;
			if (v->type != JV_ARRAY || v->n != 2 || v->items[0].type != JV_NUMBER ||
			    v->items[1].type != JV_NUMBER || v->items[0].num > v->items[1].num)
				return bad(err, len, "a run's ci95 is not [low, high]");
			run.lo[m] = v->items[0].num;
			run.hi[m] = v->items[1].num;
			run.have_ci[m] = true;
		}
	sweep_set_add(s, &run);
	return 0;
}

/* How the runs were measured; absent in files of older locus (source none: unknown). */
static int read_prov(struct provenance *p, const struct jv *o, char *err, size_t len)
{
	int src, scope, delay;
	long ncpus, pid, rate, every;

	memset(p, 0, sizeof(*p));
	if (!o)
		return 0;
	if (o->type != JV_OBJECT)
		return bad(err, len, "provenance is not an object");
	src = prov_source_by_key(jv_str(o, "source", ""));
	scope = prov_scope_by_key(jv_str(o, "scope", ""));
	delay = prov_delay_by_key(jv_str(o, "delay_resolution", ""));
	if (src < 0 || scope < 0 || delay < 0)
		return bad(err, len, "provenance has an unknown source, scope or delay_resolution");
	p->source = (enum prov_source)src;
	p->scope = (enum prov_scope)scope;
	p->delay = (enum prov_delay)delay;
	copy_str(p->why, sizeof(p->why), o, "why");
	copy_str(p->cpus_asked, sizeof(p->cpus_asked), o, "cpus_asked");
	copy_str(p->cpus_honored, sizeof(p->cpus_honored), o, "cpus_honored");
	copy_str(p->affinity, sizeof(p->affinity), o, "workload_affinity"); /* null: "" */
	if (whole(o, "ncpus_honored", 0, 1 << 20, 0, &ncpus, err, len) < 0 ||
	    whole(o, "scope_pid", 0, 1 << 30, 0, &pid, err, len) < 0 ||
	    whole(o, "delay_rate", 0, 1000000000, 0, &rate, err, len) < 0 ||
	    whole(o, "sample_every", 0, 1000000000, 0, &every, err, len) < 0)
		return -1;
	p->ncpus_honored = (int)ncpus;
	p->scope_pid = (int32_t)pid;
	p->delay_rate = rate;
	p->sample_every = (unsigned)every;
	return 0;
}

/* The p99 wakeups' blame of a run's file, when it has one (names summed over tids). */
static void read_blame(struct sweep_blame *b, const struct jv *o)
{
	static const char *const keys[SWEEP_BLAME_CAUSES] = {
		"running_ns", "ahead_ns", "hardirq_ns", "softirq_ns", "elsewhere_ns",
		"cpu_idle_ns", "unattributed_ns",
	};
	const struct jv *p99 = jv_get(o, "p99"), *tasks = jv_get(o, "tasks"), *known;

	known = jv_get(p99, "known");
	if (!known || known->type != JV_BOOL || !known->b)
		return;
	b->present = true;
	b->p99_ns = jv_num(p99, "wait_ns", 0);
	b->p99_wakeups = jv_num(p99, "wakeups", 0);
	for (int c = 0; c < SWEEP_BLAME_CAUSES; c++)
		b->by[c] = jv_num(p99, keys[c], 0);
	for (size_t i = 0; tasks && tasks->type == JV_ARRAY && i < tasks->n; i++) {
		const char *comm = jv_str(&tasks->items[i], "comm", "?");
		int k;

		for (k = 0; k < b->ntasks; k++)
			if (!strncmp(b->task[k].comm, comm, sizeof(b->task[k].comm) - 1))
				break;
		if (k == b->ntasks) {
			if (k == SWEEP_BLAME_TASKS)
				continue; /* by time, most first: the rest moved the least */
			snprintf(b->task[b->ntasks++].comm, sizeof(b->task[0].comm), "%s", comm);
		}
		b->task[k].ns += jv_num(&tasks->items[i], "p99_ns", 0);
	}
}

int sweep_parse(const char *text, size_t len, struct sweep_set *s, char *err, size_t errlen)
{
	char why[200];
	struct jv *root = jv_parse(text, len, why, sizeof(why));
	const struct jv *env, *metric, *sweep, *runs;
	long repeat;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!root) {
		snprintf(err, errlen, "bad JSON: %s", why);
		return -1;
	}
	env = jv_get(root, "env");
	metric = jv_get(root, "metric");
	sweep = jv_get(root, "sweep");
	runs = jv_get(root, "runs");
	if (!jv_get(root, "format") && jv_get(root, "counters")) {
		rc = stat_file_parse(root, s, err, errlen); /* locus stat --json */
		if (rc == 0)
			read_blame(&s->blame, jv_get(root, "blame")); /* locus run --sections blame */
	} else if (strcmp(jv_str(root, "format", ""), "locus-sweep-1")) {
		snprintf(err, errlen, "not a benchmark-loop file (format '%s', not locus-sweep-1): "
			 "locus diff compares what locus run --json writes with -r, --sweep or "
			 "--metric, and what locus stat --json writes", jv_str(root, "format", "none"));
		rc = -1;
	} else if (!sweep || !runs || runs->type != JV_ARRAY) {
		rc = bad(err, errlen, "no sweep or runs");
	} else {
		copy_str(s->kernel, sizeof(s->kernel), env, "kernel");
		copy_str(s->cpu_model, sizeof(s->cpu_model), env, "cpu_model");
		copy_str(s->hostname, sizeof(s->hostname), env, "hostname");
		copy_str(s->topology, sizeof(s->topology), env, "topology");
		copy_str(s->cmdline, sizeof(s->cmdline), env, "command_line");
		copy_str(s->version, sizeof(s->version), env, "locus_version");
		copy_str(s->time, sizeof(s->time), env, "time");
		copy_str(s->command, sizeof(s->command), root, "command");
		copy_str(s->hitm_why, sizeof(s->hitm_why), root, "hitm_unsupported");
		if (metric) {
			const struct jv *p = jv_get(metric, "present"), *h;

			h = jv_get(metric, "higher_is_better");
			s->have_metric = p && p->type == JV_BOOL && p->b;
			s->metric_higher = !h || h->type != JV_BOOL || h->b;
			copy_str(s->metric_name, sizeof(s->metric_name), metric, "name");
			copy_str(s->metric_unit, sizeof(s->metric_unit), metric, "unit");
		}
		rc = read_prov(&s->prov, jv_get(root, "provenance"), err, errlen);
		copy_str(s->sweep_name, sizeof(s->sweep_name), sweep, "name");
		if (rc == 0 && (rc = whole(sweep, "repeat", 1, 1000000, 1, &repeat, err, errlen)) == 0)
			s->repeat = (int)repeat;
		if (rc == 0)
			rc = read_values(s, sweep, err, errlen);
		for (size_t i = 0; rc == 0 && i < runs->n; i++)
			rc = read_run(s, &runs->items[i], err, errlen);
	}
	jv_free(root);
	if (rc)
		sweep_set_release(s);
	return rc;
}

int sweep_load(const char *path, struct sweep_set *s, char *err, size_t errlen)
{
	char why[300];
	size_t len;
	char *buf = read_whole_file(path, MAX_FILE, &len);
	int rc;

	memset(s, 0, sizeof(*s));
	if (!buf) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 errno == EFBIG ? "larger than 256 MiB" : strerror(errno));
		return -1;
	}
	rc = sweep_parse(buf, len, s, why, sizeof(why));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, why);
	free(buf);
	return rc;
}
