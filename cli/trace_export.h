/*
 * trace_export.h - a recording as timelines: the file replayed a second time in
 * time order through the timeline analyzer, within a window, into a Chrome
 * trace-event JSON (report/trace_json.h, bounded in size) and/or an SVG of
 * per-CPU lanes (report/svg_timeline.h), each through the atomic writer and
 * carrying the provenance of the first pass's results.
 */
#ifndef LOCUS_TRACE_EXPORT_H
#define LOCUS_TRACE_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../model/sched_results.h"
#include "../pipeline/replay.h"

#define TIMELINE_SVG_WIDTH 1000	/* pixel columns of time */
#define TIMELINE_SVG_ARROWS 400	/* wakeup arrows at most: more hide the lanes */

struct trace_export {
	const char *trace;		/* Chrome trace JSON to write, or NULL */
	const char *svg;		/* SVG timeline to write, or NULL */
	uint64_t from_ns, to_ns;	/* the window, from the first event (to 0: the end) */
	uint64_t limit;			/* trace bytes (0: none) */
	bool quiet;
	/* the first pass: how it was measured, and where the recording ends */
	const struct sched_results *r;
	uint64_t events, bytes;
	/* what was written */
	uint64_t tbytes, tevents, dropped, slices, flows, migrations, counters;
	uint64_t switches_in_window;
	char err[320];
};

/* Replay o's file into the timelines x asks for. 0, or -1 after saying why on stderr. */
int trace_export(const struct replay_opts *o, struct trace_export *x);

#endif
