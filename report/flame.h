/*
 * flame.h - flame graphs as SVG pictures, from folded stacks: one rectangle a frame,
 * width by value, root at the bottom; static in any renderer, click-to-zoom and search
 * (with the matched share) in a browser through an inline script. Differential graphs
 * (Brendan Gregg's): frames sized by the new values, coloured by the change in share.
 */
#ifndef LOCUS_FLAME_H
#define LOCUS_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "svg_caption.h"

/*
 * One stack: its frames root first, ';'-separated, as flamegraph.pl reads them
 * ("main;do_work;schedule_[k]"). A frame's kind, for its colour: a "_[k]" suffix
 * (stackcollapse-perf.pl --kernel's) is kernel, "[unknown]" unknown, any other user.
 */
struct flame_stack {
	const char *frames;
	uint64_t value;		/* what the stack counts (unit in flame_opts), the width */
	uint64_t base;		/* differential graphs: the base run's value; else unused */
};

/* How the picture is titled and captioned. Strings may be NULL. */
struct flame_opts {
	const char *title;	/* "Off-CPU time by blocked stack" */
	const char *unit;	/* what a value counts: "wakeups", "ns" */
	const struct svg_caption *caption; /* command, kernel, date: drawn in the image */
	const char *source;	/* provenance line: "perf script of perf.data (sched_switch)" */
	int width_px;		/* 0: 1200 */
	double min_width_px;	/* frames narrower are not drawn (stated); 0: 0.1 */
	int differential;	/* colour by the change of share from base to value */
};

/*
 * Write a flame graph of the n stacks to out. Stacks may repeat (their values add) and
 * come in any order; frames are named by any bytes (escaped, the kind's suffix not shown).
 * Returns 0, or -1 with errno on a write or memory error.
 */
int flame_svg_write(FILE *out, const struct flame_stack *s, size_t n, const struct flame_opts *o);

#endif
