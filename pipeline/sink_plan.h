/*
 * sink_plan.h - the one place where a session's sinks are built and wired, from what the
 * command asked: live (live_session.h: the perf stream, or the BPF programs standing in for
 * them) or over a file (file_session.h). It decides which sinks there are, the order they are
 * fed in (a sink that consults another comes before it and finishes after it), who tells
 * whom its idle-CPU verdicts, which tasks each follows, and which take their events one by
 * one. Adding a sink is an edit here (docs/layers.md: Adding a sink).
 */
#ifndef LOCUS_SINK_PLAN_H
#define LOCUS_SINK_PLAN_H

#include <stdbool.h>

#include "../model/caption.h"
#include "replay.h"
#include "sink.h"
#include "sink_blame.h"
#include "sink_cacheline.h"
#include "sink_stacks.h"
#include "sink_timeline.h"
#include "sink_wakeup.h"
#include "sink_writer.h"
#include "source.h"

/* What a report over a file asks for besides the wakeup and cacheline analyzers. */
struct file_session_asks {
	bool follow;		/* the file's workload, as locus run reports
				 * (file_session_follow_workload) */
	bool stacks;		/* the stacks sink */
	bool stacks_if_recorded; /* it too when the file has callchains */
	bool blame;		/* who delayed the wakee */
	bool whole_results;	/* the whole file's results beside the window's */
};

/* What a timeline fed in a session is written with, after the session: its items' analyzer,
 * and the figures its heads carry, pointing into the session. */
struct pass_timeline {
	const struct timeline *tl;	/* the timeline sink's analyzer */
	const struct topology *topo;
	const struct sched_results *r;	/* the results its heads carry (the whole recording's) */
	uint64_t span_ns;		/* first to last event, whatever the window */
	uint64_t events, bytes;		/* the events read, their bytes */
	struct svg_caption cap;		/* a file's: its header (else left for the caller) */
};

struct sink_plan {
	struct sinks list;		/* in the order they are fed */
	struct writer_sink wr;		/* recording: the perf.data file (whole records) */
	struct timeline_sink tl;	/* --trace, --svg-timeline: every event, first */
	struct blame_sink bl;		/* who delayed the wakee */
	struct wakeup_sink wk;		/* the scheduler's results (of the window) */
	struct wakeup_sink whole;	/* with a window: the whole file's results beside */
	struct cacheline_sink cl;	/* the memory samples' cachelines */
	struct stacks_sink stk;		/* waker, blocked and off-wake stacks */
	bool writing, timeline, blame, two, cachelines, stacks;
};

/*
 * Live: the sinks cfg asks for, fed by a source that streams events or, aggregated, filled
 * by one that stands in for them (the wakeup analyzer; blame and the stacks as cfg->bpf
 * asks); the cacheline sink where memory samples are asked for (not when recording: the
 * stream writes them to its file). The tasks cfg tracks, followed.
 */
void sink_plan_live(struct sink_plan *p, const struct source_cfg *cfg, bool aggregated);
/*
 * Over rp's file (opened): what a asks, the window and the tasks of rp's options, and a
 * timeline tl beside them (or NULL).
 */
void sink_plan_file(struct sink_plan *p, const struct replay *rp, const struct file_session_asks *a,
		    const struct timeline_sink_cfg *tl);
/* Follow tid (and its children from their fork) from now on. Before the first event, or
 * between drains. */
void sink_plan_track(struct sink_plan *p, int32_t tid);
/* The scheduler's results: of the window, or with a window and whole_results asked, of the
 * whole file. Begins the wakeup sink with b if nothing did. */
struct sched_results *sink_plan_results(struct sink_plan *p, const struct sink_begin *b);
/* Who delayed the wakee after the finish (or the totals at the last snapshot), or NULL. */
const struct blame_results *sink_plan_blame(const struct sink_plan *p);
const struct blame_live *sink_plan_blame_live(const struct sink_plan *p);
/* The stacks after the finish, their table and names (stacks_sink_results), or NULL. */
const struct stacks *sink_plan_stacks(struct sink_plan *p, const struct stack_table **tab,
				      struct stack_namer *nm);
/* The memory samples' cachelines, or NULL when not asked for. */
struct cacheline *sink_plan_cachelines(struct sink_plan *p);
/* The timeline sink, or NULL when none was asked for. */
struct timeline_sink *sink_plan_timeline(struct sink_plan *p);
/*
 * After the finish: the timeline's analyzer, the span of the events delivered and the
 * results into t (the rest is the caller's). 0, or -1 with why in err: no sched event
 * came, or the window (--from) begins past the last one.
 */
int sink_plan_pass_timeline(struct sink_plan *p, const struct sink_begin *b,
			    struct pass_timeline *t, char *err, size_t len);
/* The writer sink, or NULL when not recording. */
struct writer_sink *sink_plan_writer(struct sink_plan *p);
void sink_plan_release(struct sink_plan *p);

#endif
