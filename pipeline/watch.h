/*
 * watch.h - a live session watched (locus top): a snapshot of the live session at each refresh,
 * the interval between the last two and the totals since a base (the start, or a reset),
 * and from them each shown measure's figures, or why there are none.
 */
#ifndef LOCUS_WATCH_H
#define LOCUS_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "../analyzers/blame_live.h"
#include "../collectors/counters.h"
#include "../collectors/events.h"
#include "../collectors/wl_output.h"
#include "../model/dash_view.h"
#include "../model/sched_results.h"
#include "count_plan.h"
#include "counting_run.h"
#include "live_session.h"

enum watch_state {
	WATCH_SKIP,	/* not shown (a measure without MF_DASH): left as it was */
	WATCH_SET,	/* interval and total */
	WATCH_SET_PROC,	/* interval and total from the tasks' own accounting in /proc */
	WATCH_NONE,	/* nothing: why says why (never a made-up 0) */
};

/* What one refresh has for a series. */
struct watch_figure {
	enum watch_state state;
	uint64_t interval, total;
	char why[160];
};

struct watch {
	/* set by the caller */
	struct live_session *live;
	const struct run_outcome *out;	/* why tracing did not start, if it did not */
	int interval_ms;		/* the refresh period */
	const struct topology *topo;	/* set by watch_start */
	/* set by watch_limits */
	int counter_idx[2];		/* cache-misses and hitm in the counter set, or -1 */
	char cannot[400];		/* what the dashboard cannot show here, or "" */
	/* the refreshes: the start, the next one due, how many so far */
	uint64_t t0, next;
	long refreshes;
	/* each counter row's rate, total since the base and sparkline */
	struct dash_series_state series[DS_NR];
	/* snapshots: the latest, the one before, and the base after a reset */
	struct sched_results snap[2], base, interval, cumul;
	const struct sched_results *cumul_view;	/* cumul, or the latest snapshot (no base) */
	int cur;			/* index of the latest in snap */
	bool have_prev, have_base;
	double interval_s, cumul_s;	/* what interval and cumul cover */
	struct cl_summary lines[16];
	int nlines;
	double counter_prev[2], counter_base[2];
	double proc_prev[2], proc_base[2];	/* untraced: the tree's switches from /proc */
	bool have_proc;
	uint64_t t_prev, t_base;
	/* the latest refresh's figures: each measure's (SM_*), each counter's */
	struct watch_figure m[SM_NR], counter[2];
	/* who delayed the wakee (live_session_blame_live): the same snapshots, interval, totals */
	bool bl_on;			/* the latest refresh has them (else bl_why says why) */
	struct blame_live bl_snap[2], bl_base, bl_interval, bl_cumul;	/* snap: as snap */
	bool bl_have_prev, bl_have_base;
	bool bl_cannot;			/* bl_why: what the source cannot (not a wait) */
	char bl_why[200];
	char cannot_view[620];		/* cannot, and the antagonists' when the pane cannot */
	/* the header (watch_describe, watch_end): what is watched, its state, no cachelines' why */
	char command[512];
	char state[96];
	char mem_why[320];
	/* the workload's output in a file while the dashboard has the screen (watch_output_open) */
	struct wl_output output;
};

/*
 * Before the session: which of the counters evs (nevs of them, as resolved) feed the
 * cache-miss and HITM rows, and what the dashboard cannot show here (w->cannot), the
 * topology's LLC sharing included.
 */
void watch_limits(struct watch *w, const struct event_desc *evs, int nevs,
		  const struct topology *topo);
/*
 * Before the session, after w->topo is set: what the header says is watched (the command
 * cmdv, else o's pids, else "system-wide"), "running", the limits of o's counters
 * (watch_limits), and why no cachelines will come ("" where memory sampling works).
 */
void watch_describe(struct watch *w, char **cmdv, const struct counting_opts *o);
/*
 * After the session: why there are no cachelines (the live session's reason; "" when it sampled
 * memory) and how it ended (watch_end_state) into w->state.
 */
void watch_end(struct watch *w, const struct run_outcome *out, bool system_wide);
/* The empty results the first interval fills, the clock started at now. */
void watch_start(struct watch *w, const struct topology *topo, uint64_t now);
/* Whether a refresh is due at now; paused, none is, and the next waits a full interval. */
bool watch_due(struct watch *w, uint64_t now, bool paused);
/* Milliseconds from now until the next refresh is due (0 when it is). */
int watch_wait_ms(const struct watch *w, uint64_t now);
/* Take a snapshot at now (and read cs, or NULL), work out the figures and the series. */
void watch_sample(struct watch *w, struct counter_set *cs, uint64_t now);
/* The totals start again from the latest snapshot. */
void watch_reset(struct watch *w);
void watch_release(struct watch *w);
/*
 * The workload's output into a file while the dashboard has the screen: named, else
 * $TMPDIR/locus-top.PID.out. Returns the fd for its stdout and stderr, or -1 after saying
 * why (wl_output_open). Its last whole lines (watch_output_tail); at the end (watch_output_close)
 * a file the user named, or ours with keep, stays and is said; ours is removed otherwise.
 */
int watch_output_open(struct watch *w, const char *named);
/* Where the output goes, or NULL (the terminal's). */
const char *watch_output_path(const struct watch *w);
const char *watch_output_tail(struct watch *w);
void watch_output_close(struct watch *w, bool quiet, bool keep);

/*
 * The view of the latest refresh at now: the interval, or the totals since the base when
 * cumulative; the antagonists' figures when blame_pane. Fills the results, spans, series,
 * cachelines, blame, what cannot be shown and why nothing is, the header (command, state,
 * mem_why); the caller fills the rest (output, ui). Pointers into w, valid until the next refresh.
 */
void watch_view(struct watch *w, bool cumulative, bool blame_pane, uint64_t now,
		struct dash_view *v);
/* How the session ended, in a few words: "exited 0", "killed by signal 9 (KILL)". */
void watch_end_state(char *buf, size_t len, const struct run_outcome *out,
		     bool system_wide);

#endif
