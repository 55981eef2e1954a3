/* bench_plan.h - what the benchmark loop runs: --sweep values, metric, environment. */
#ifndef LOCUS_BENCH_PLAN_H
#define LOCUS_BENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "../analyzers/metric.h"
#include "../model/sweep.h"
#include "../model/topology.h"

struct bench_plan {
	const char *sweep;	/* "NAME=v1,v2,..." or NULL */
	const char *metric;	/* preset or regex, or NULL */
	const char *direction;	/* "higher", "lower" or NULL */
	int repeat;
	int argc;		/* locus's own command line, for the record */
	char **argv;
};

/* Split "NAME=v1,v2" into s; returns 0 or -1 with why. */
int bench_parse_sweep(const char *spec, struct sweep_set *s, char *why, size_t len);
/*
 * Before anything runs: bp's --sweep (its values, and {NAME} in the command cmdv), and its
 * metric and direction (a direction needs a metric). 0, or -1 with why.
 */
int bench_plan_check(const struct bench_plan *bp, char **cmdv, char *why, size_t len);
/*
 * The loop's values (bp->sweep, checked by bench_parse_sweep; else one), repeat, the
 * environment (kernel, CPU model, topology, command lines, time) and the metric into s
 * (and m, when s->have_metric).
 */
void bench_loop_setup(struct sweep_set *s, struct metric *m, const struct bench_plan *bp,
		      const struct topology *topo, char **cmdv);

#endif
