/* stat_result.c - counter readings gathered run by run (stat_result.h). */
#include "stat_result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void stat_init(struct stat_result *r, int ncounters, const char *const *names,
	       const char *const *encodings, const bool *hardware, int ncpus, const int *cpu_ids)
{
	memset(r, 0, sizeof(*r));
	r->ncounters = ncounters;
	r->c = xcalloc((size_t)ncounters, sizeof(*r->c));
	r->ncpus = ncpus;
	if (ncpus) {
		r->cpu_ids = xcalloc((size_t)ncpus, sizeof(int));
		memcpy(r->cpu_ids, cpu_ids, (size_t)ncpus * sizeof(int));
	}
	for (int i = 0; i < ncounters; i++) {
		struct stat_counter *c = &r->c[i];

		snprintf(c->name, sizeof(c->name), "%s", names[i]);
		if (encodings && encodings[i])
			snprintf(c->encoding, sizeof(c->encoding), "%s", encodings[i]);
		c->hardware = hardware ? hardware[i] : false;
		c->supported = true;
		if (ncpus)
			c->cpu_mean = xcalloc((size_t)ncpus, sizeof(double));
	}
	r->split_supported = true;
}

static void grow(struct stat_result *r)
{
	if (r->runs < r->runs_cap)
		return;
	r->runs_cap = r->runs_cap ? r->runs_cap * 2 : 4;
	r->elapsed_ns = xrealloc(r->elapsed_ns, (size_t)r->runs_cap * sizeof(double));
	r->voluntary = xrealloc(r->voluntary, (size_t)r->runs_cap * sizeof(double));
	r->involuntary = xrealloc(r->involuntary, (size_t)r->runs_cap * sizeof(double));
	for (int i = 0; i < r->ncounters; i++)
		r->c[i].values = xrealloc(r->c[i].values, (size_t)r->runs_cap * sizeof(double));
}

void stat_add_run(struct stat_result *r, const struct stat_reading *readings, double elapsed_ns)
{
	grow(r);
	r->elapsed_ns[r->runs] = elapsed_ns;
	for (int i = 0; i < r->ncounters; i++) {
		struct stat_counter *c = &r->c[i];
		const struct stat_reading *rd = &readings[i];

		if (!rd->supported) {
			c->supported = false;
			continue;
		}
		if (!rd->counted)
			continue;
		if (rd->source)
			c->source = rd->source;
		c->values[c->counted_runs++] = rd->value;
		c->running_fraction += rd->enabled_ns ? (double)rd->running_ns / (double)rd->enabled_ns
						      : 1.0;
		if (c->cpu_mean && rd->cpu_value)
			for (int k = 0; k < r->ncpus; k++)
				c->cpu_mean[k] += rd->cpu_value[k];
	}
	r->runs++;
}

void stat_set_unsupported(struct stat_result *r, int i, const char *reason)
{
	struct stat_counter *c = &r->c[i];

	if (c->supported || !c->reason[0])
		snprintf(c->reason, sizeof(c->reason), "%s", reason);
	c->supported = false;
}

void stat_set_user_only(struct stat_result *r, int i)
{
	r->c[i].user_only = true;
}

void stat_add_split(struct stat_result *r, double voluntary, double involuntary,
		    enum stat_split_source src)
{
	if (r->runs == 0)
		return;
	r->split_source = src;
	r->voluntary[r->runs - 1] = voluntary;
	r->involuntary[r->runs - 1] = involuntary;
}

void stat_keep_rusage(struct stat_result *r, double voluntary, double involuntary)
{
	r->rusage_kept = true;
	r->rusage_voluntary = voluntary;
	r->rusage_involuntary = involuntary;
}

void stat_no_split(struct stat_result *r, const char *reason)
{
	r->split_supported = false;
	snprintf(r->split_reason, sizeof(r->split_reason), "%s", reason);
}

void stat_release(struct stat_result *r)
{
	for (int i = 0; i < r->ncounters; i++) {
		free(r->c[i].values);
		free(r->c[i].cpu_mean);
	}
	free(r->c);
	free(r->cpu_ids);
	free(r->elapsed_ns);
	free(r->voluntary);
	free(r->involuntary);
	memset(r, 0, sizeof(*r));
}

int stat_find(const struct stat_result *r, const char *name)
{
	for (int i = 0; i < r->ncounters; i++)
		if (!strcmp(r->c[i].name, name))
			return i;
	return -1;
}
