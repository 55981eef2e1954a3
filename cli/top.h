/* top.h - `locus top`'s state, shared by the command (top.c) and its sampling (top_sample.c). */
#ifndef LOCUS_CLI_TOP_H
#define LOCUS_CLI_TOP_H

#include "../collectors/counters.h"
#include "../pipeline/watch.h"
#include "../report/dash.h"
#include "../report/tui.h"
#include "counting.h"
#include "traced.h"
#include "../collectors/wl_output.h"

struct top {
	/* options */
	int interval_ms;
	long iterations;
	bool exit_on_end, text;
	bool no_antagonists;		/* --no-antagonists: no pane, no blame collected */
	const char *output_path;	/* --workload-output */
	struct collector_opts col;
	/* the session */
	struct tracer *tracer;
	const struct topology *topo;
	char command[512];
	char cannot[400];
	char mem_why[320];
	/* screen */
	struct tui *tui;
	struct dash_ui ui;
	struct dash_series_state series[DS_NR];
	bool redraw;
	/* the snapshots, intervals and totals since a reset (tracer and out: the same) */
	struct watch w;
	uint64_t t0, next;
	long refreshes;
	char state[96];
	uint64_t draw_cpu_ns;		/* the dashboard's own CPU time (main thread) */
	const struct session_outcome *out;	/* why tracing did not start, if it did not */
	struct wl_output output;	/* the workload's output, when the dashboard has the screen */
};

/* Take a snapshot and work out the interval and the totals since the base. */
void top_sample(struct top *tp, struct counter_set *cs);
/* Key r: the totals start again from the latest snapshot. */
void top_reset(struct top *tp);

#endif
