/*
 * svg_timeline.h - a window of a recording drawn as lanes (analyzers/tl_lanes.h):
 * one per CPU, or per core, LLC or node when they do not fit; running periods
 * coloured by task (the workload's distinct, others grey), idle gaps left
 * empty, the workload's wakeups as arrows coloured by locality class, a time
 * axis with round ticks in seconds into the recording, a legend, how the
 * results were measured (the report's provenance lines) and a caption. The
 * workload's same-CPU wakeups are ticks per pixel column, not arrows.
 */
#ifndef LOCUS_SVG_TIMELINE_H
#define LOCUS_SVG_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "../analyzers/tl_lanes.h"
#include "../model/sched_results.h"
#include "svg_caption.h"

struct svg_timeline_info {
	const char *title;			/* the file */
	const struct sched_results *r;		/* its analysis: the provenance */
	uint64_t events, bytes;			/* what the source read */
	uint64_t missed;			/* switch-ins not recorded, in the window */
	const struct svg_caption *cap;		/* drawn at the bottom: command, kernel, ... */
};

void svg_timeline(FILE *f, const struct tl_lanes *l, const struct svg_timeline_info *in);

#endif
