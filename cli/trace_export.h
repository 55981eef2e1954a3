/*
 * trace_export.h - a recording as a timeline trace (Chrome trace-event JSON,
 * report/trace_json.h): the file replayed in time order through the timeline
 * analyzer, within a window, up to a size.
 */
#ifndef LOCUS_TRACE_EXPORT_H
#define LOCUS_TRACE_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../pipeline/replay.h"

struct trace_export {
	uint64_t from_ns, to_ns;	/* the window, from the first event (to 0: the end) */
	uint64_t limit;			/* bytes (0: none) */
	/* what was written */
	uint64_t bytes, events, dropped, slices, flows, migrations, counters;
	uint64_t switches_in_window;
	char err[320];
};

/* Replay o's file and write its trace to f. 0, or -1 with why in x->err. */
int trace_export_write(const struct replay_opts *o, struct trace_export *x, FILE *f);

#endif
