/* heatmap.h - a CPU x CPU matrix folded to fit a width, rendered as numbers or a character ramp. */
#ifndef LOCUS_HEATMAP_H
#define LOCUS_HEATMAP_H

#include <stdint.h>
#include <stdio.h>

#include "../model/topology.h"

struct heatmap {
	int n;			/* rows = columns */
	uint64_t *cell;		/* n x n, row-major */
	uint64_t max, total;
	char unit[16];		/* "CPU", "core", "LLC", "node" */
	char (*label)[16];	/* per row/column: "3", "c3", "L32", "N1" */
	int *first;		/* per row/column: its first CPU (its node, its LLC) */
	enum locality level;	/* LOC_SAME_CPU (per CPU), LOC_SMT (core), LOC_LLC, LOC_NODE */
};

/*
 * Fold an ncpus x ncpus matrix into at most max_groups rows and columns: per
 * CPU if the online CPUs fit, else per core, per LLC, then per node.
 */
void heatmap_build(struct heatmap *h, const struct topology *t, const uint64_t *matrix,
		   int max_groups);
void heatmap_release(struct heatmap *h);

/*
 * Print the heatmap within width columns: numbers when up to 16 groups fit,
 * else a log-scaled ramp " .:-=+*#%@" with its legend. row_what and col_what
 * name the axes ("waker CPU", "target CPU").
 */
void heatmap_print(FILE *f, const struct heatmap *h, const char *row_what, const char *col_what,
		   int width);

/* The ten ramp characters, empty to full: " .:-=+*#%@". */
extern const char heatmap_ramp[];

/* The ramp character index (0-9) of a value on the log scale up to max. */
int heatmap_level(uint64_t v, uint64_t max);

#endif
