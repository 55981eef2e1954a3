/* top.h - `locus top`'s state, shared by the command (top.c) and its sampling (top_sample.c). */
#ifndef LOCUS_CLI_TOP_H
#define LOCUS_CLI_TOP_H

#include "../collectors/counters.h"
#include "../report/dash.h"
#include "../report/tui.h"
#include "counting.h"
#include "traced.h"
#include "wl_output.h"

struct top {
	/* options */
	int interval_ms;
	long iterations;
	bool exit_on_end, text;
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
	/* snapshots: the latest, the one before, and the base after a reset */
	struct sched_results snap[2], base, interval, cumul;
	const struct sched_results *cumul_view;	/* cumul, or the latest snapshot without a base */
	int cur;			/* index of the latest in snap */
	bool have_prev, have_base;
	double interval_s, cumul_s;	/* what interval and cumul cover */
	struct cl_summary lines[16];
	int nlines;
	int counter_idx[2];		/* cache-misses and hitm in the counter set, or -1 */
	double counter_prev[2], counter_base[2];
	double proc_prev[2], proc_base[2];	/* untraced: the tree's switches from /proc */
	bool have_proc;
	uint64_t t0, t_prev, t_base, next;
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
