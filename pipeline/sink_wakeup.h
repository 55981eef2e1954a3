/* sink_wakeup.h - the wakeup analyzer as a sink (sink.h): the scheduler's results. */
#ifndef LOCUS_SINK_WAKEUP_H
#define LOCUS_SINK_WAKEUP_H

#include "../analyzers/wakeup.h"
#include "sink.h"

struct wakeup_sink {
	struct sink k;		/* first: the interface */
	struct wakeup_cfg cfg;	/* the analyzer's, completed at begin */
	int32_t *track;		/* tasks to follow, asked for before begin */
	int ntrack, cap_track;
	bool on;		/* an is initialized */
	struct wakeup an;	/* the results live in an.r */
	struct sink_buf batch;	/* k.buf unless one by one: events for wakeup_add_batch */
};

/* cfg's topology, waking_source and migrate_source come at begin. one_by_one: each event
 * in as it comes (a sink beside it asks what it tracks), not gathered for wakeup_add_batch. */
void wakeup_sink_init(struct wakeup_sink *w, const struct wakeup_cfg *cfg, bool one_by_one);
/* Follow tid (and its children from their fork). Before the first event, or between drains. */
void wakeup_sink_track(struct wakeup_sink *w, int32_t tid);
/* Whether tid's events count (wakeup_tracks); false before begin. */
bool wakeup_sink_tracks(struct wakeup_sink *w, int32_t tid);
/*
 * The results: the analyzer's, or, for a source that aggregates in the kernel, the ones
 * it fills in their stead (begun with b, never fed). Begins the sink if nothing did.
 */
struct sched_results *wakeup_sink_results(struct wakeup_sink *w, const struct sink_begin *b);

#endif
