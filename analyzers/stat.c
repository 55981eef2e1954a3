/* stat.c - the counting results' means, deviations and the rates reports print. */
#include "stat.h"

#include <string.h>

#include "stats.h"

void stat_finish(struct stat_result *r)
{
	r->elapsed_mean = stats_mean(r->elapsed_ns, (size_t)r->runs);
	r->elapsed_stddev = stats_stddev(r->elapsed_ns, (size_t)r->runs);
	if (r->split_supported && r->runs) {
		r->voluntary_mean = stats_mean(r->voluntary, (size_t)r->runs);
		r->involuntary_mean = stats_mean(r->involuntary, (size_t)r->runs);
	}
	for (int i = 0; i < r->ncounters; i++) {
		struct stat_counter *c = &r->c[i];
		size_t n = (size_t)c->counted_runs;

		c->mean = stats_mean(c->values, n);
		c->stddev = stats_stddev(c->values, n);
		if (n) {
			c->running_fraction /= (double)n;
			if (c->cpu_mean)
				for (int k = 0; k < r->ncpus; k++)
					c->cpu_mean[k] /= (double)n;
		}
	}
}

/* Mean of a counter that was counted, or -1 when it was not. */
static double mean_of(const struct stat_result *r, const char *name)
{
	int i = stat_find(r, name);

	if (i < 0 || !r->c[i].supported || r->c[i].counted_runs == 0)
		return -1;
	return r->c[i].mean;
}

struct stat_derived stat_derive(const struct stat_result *r, int i)
{
	const struct stat_counter *c = &r->c[i];
	struct stat_derived d = { 0 };
	double secs = r->elapsed_mean / 1e9, other;

	if (!c->supported || c->counted_runs == 0)
		return d;
	if (!strcmp(c->name, "task-clock") || !strcmp(c->name, "cpu-clock")) {
		if (r->elapsed_mean > 0) {
			d = (struct stat_derived){ true, c->mean / r->elapsed_mean, "CPUs utilized" };
		}
		return d;
	}
	if (!strcmp(c->name, "instructions") && (other = mean_of(r, "cycles")) > 0)
		return (struct stat_derived){ true, c->mean / other, "insn per cycle" };
	if (!strcmp(c->name, "cycles") && (other = mean_of(r, "task-clock")) > 0)
		return (struct stat_derived){ true, c->mean / other, "GHz" };
	if (!strcmp(c->name, "cache-misses") && (other = mean_of(r, "cache-references")) > 0)
		return (struct stat_derived){ true, 100.0 * c->mean / other, "% of all cache refs" };
	if ((!strcmp(c->name, "LLC-load-misses") || !strcmp(c->name, "hitm")) &&
	    (other = mean_of(r, "instructions")) > 0)
		return (struct stat_derived){ true, 1000.0 * c->mean / other, "per 1k instructions" };
	if (secs > 0)
		return (struct stat_derived){ true, c->mean / secs, "/sec" };
	return d;
}
