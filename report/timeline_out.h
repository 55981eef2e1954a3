/*
 * timeline_out.h - a recording's timeline items, as a pass yields them, into a Chrome
 * trace-event JSON (trace_json.h, bounded in size) and/or an SVG of per-CPU lanes
 * (svg_timeline.h), each through the atomic writer and carrying the provenance of the
 * pass's results (known at its end: the items wait till then).
 */
#ifndef LOCUS_TIMELINE_OUT_H
#define LOCUS_TIMELINE_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../analyzers/timeline.h"
#include "../analyzers/tl_lanes.h"
#include "../common/u64map.h"
#include "../model/sched_results.h"
#include "../model/topology.h"
#include "svg_caption.h"
#include "trace_json.h"

#define TIMELINE_SVG_WIDTH 1000	/* pixel columns of time */
#define TIMELINE_SVG_ARROWS 400	/* wakeup arrows at most: more hide the lanes */

struct trace_export {
	const char *trace;		/* Chrome trace JSON to write, or NULL */
	const char *svg;		/* SVG timeline to write, or NULL */
	uint64_t from_ns, to_ns;	/* the window, from the first event (to 0: the end) */
	uint64_t limit;			/* trace bytes (0: none) */
	bool window;			/* --from or --to given */
	bool window_cuts_report;	/* the command's report honors the window too */
	bool quiet;
	/* the pass: how it was measured, and where the recording ends */
	const struct sched_results *r;
	uint64_t span_ns;		/* the recording's, first to last event, whatever the window */
	uint64_t events, bytes;
	/* what was written */
	uint64_t tbytes, dropped, slices, flows, migrations, counters;
	char err[320];
};

/* Who an item is about, as the lanes read it: its task, named as at that item. */
struct lane_who {
	int32_t tid, pid;
	char comm[TASK_COMM_LEN];
	bool workload;
};

/*
 * A running period or a wakeup flow as the lanes read it (tl_lanes_item), in half a cache
 * line: its task one of the pass's lane_who (the same task under the same name shares one).
 */
struct lane_item {
	uint64_t t0, t1;
	uint32_t who;		/* index into trace_pass.whos */
	int32_t cpu, from_cpu;
	uint8_t kind, cls;
};

#define TL_HELD_BLOCK 131072	/* items a block: 4 MiB */

/* The timeline's items, held until the pass ends: the results and the span are known then. */
struct tl_queue;

struct trace_pass {
	struct trace_export *x;
	struct tl_queue *q;	/* the items to a thread that writes and holds them (NULL:
				 * taken in the pass's thread) */
	FILE *body;		/* --trace: the items, before the head they follow */
	struct trace_json tj;
	/* --svg-timeline: the lanes' periods and flows, in blocks of TL_HELD_BLOCK, each only
	 * what the lanes read of it; their tasks (tid -> the latest one's index + 1 in whos);
	 * the migrations, which the lanes only count, and the last count of wakeups passing
	 * over an idle CPU, the one the lanes keep */
	struct lane_item **held;
	size_t nheld, nblocks;
	struct lane_who *whos;
	size_t nwhos, cap_whos;
	struct u64map who_idx;
	uint64_t migrations, wl_migrations;
	bool passed_seen;
	int64_t passed;
	bool started;		/* the timeline had its first event, at first_ns */
	uint64_t first_ns;
	struct tl_lanes lanes;
	bool svg;
	const char *path;	/* the recording */
	/* after the pass: its topology, its timeline's counts, the SVG's caption */
	const struct topology *topo;
	const struct timeline *tl;
	const struct svg_caption *cap;
};

/* The outputs x asks for, of the recording at path. NULL after saying why. */
struct trace_pass *trace_pass_open(struct trace_export *x, const char *path);
/* The timeline's callbacks (ctx: the trace_pass): an item, and its first event's time. */
void trace_pass_item(void *ctx, const struct tl_item *it);
void trace_pass_started(void *ctx, uint64_t first_ns);
/*
 * After the pass (x's counts and results filled): the files x asks for, of the
 * recording's topology and timeline (cap drawn in the SVG), and what they hold on
 * stderr. 0, or -1 after saying why.
 */
int trace_pass_emit(struct trace_pass *p, const struct topology *topo, const struct timeline *tl,
		    const struct svg_caption *cap);
void trace_pass_free(struct trace_pass *p);

#endif
