/*
 * sink_blame.h - who delayed the wakee (analyzers/blame.h) as a sink (sink.h): every sched
 * and irq event, beside a wakeup sink that says which tasks are the workload's and tells
 * it each wakeup's idle-CPU verdict (wakeup_cfg.verdict: blame_sink_verdict). Added before
 * that wakeup sink (it finishes after it: the last verdicts come at the wakeup sink's
 * finish), which then takes its events one by one. An aggregating source (BPF) stands in
 * for it: the kernel's split of the timed wakeups, read at each snapshot and at the end.
 */
#ifndef LOCUS_SINK_BLAME_H
#define LOCUS_SINK_BLAME_H

#include "../analyzers/blame.h"
#include "../analyzers/blame_live.h"
#include "sink.h"
#include "sink_wakeup.h"
#include "stand_in.h"

struct blame_sink {
	struct sink k;			/* first: the interface */
	struct wakeup_sink *judge;	/* the workload's tasks and the verdicts */
	/* set before the first event: each wakeup's split (a timeline's flows), or NULL */
	void (*told)(void *ctx, const struct blame_told *t);
	void *told_ctx;
	bool no_p99;			/* set before the first event: blame_cfg.no_p99 */
	bool on;			/* an is initialized */
	struct blame an;
	struct blame_live live;		/* the totals at the last snapshot (live_on) */
	bool live_on;
	struct stand_in_blame stand;	/* k.stood_in: what the aggregating source read */
};

void blame_sink_init(struct blame_sink *s, struct wakeup_sink *judge);
/* wakeup_cfg.verdict with the sink as its ctx. */
void blame_sink_verdict(void *ctx, const struct idle_told *v);
/* The results after finish, or NULL when no event came (stood in: when the source could
 * not read its split). */
const struct blame_results *blame_sink_results(const struct blame_sink *s);
/* The totals at the last snapshot (sinks_snapshot, then sinks_snapshot_tables: rows by
 * tid), valid until the next; NULL before the first snapshot after the first event. */
const struct blame_live *blame_sink_live(const struct blame_sink *s);

#endif
