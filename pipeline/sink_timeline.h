/*
 * sink_timeline.h - the timeline analyzer as a sink (sink.h): every event of a file,
 * whatever the window (it keeps the window itself), beside a wakeup sink that tells it
 * what the workload's tasks are and its idle-CPU verdicts (wakeup_cfg.verdict). Needs
 * every event: an aggregating source (BPF) is refused.
 */
#ifndef LOCUS_SINK_TIMELINE_H
#define LOCUS_SINK_TIMELINE_H

#include "../analyzers/timeline.h"
#include "sink.h"
#include "sink_wakeup.h"

struct timeline_sink_cfg {
	uint64_t from_ns, to_ns;	/* the window, from the first event (to 0: the end) */
	void (*emit)(void *ctx, const struct tl_item *it);
	void (*started)(void *ctx, uint64_t first_ns); /* once, at the first event (or NULL) */
	void *ctx;
	struct wakeup_sink *judge;	/* after it in the list, one by one, its verdict
					 * callback timeline_sink_verdict */
};

struct timeline_sink {
	struct sink k;		/* first: the interface */
	struct timeline_sink_cfg cfg;
	bool on;		/* tl is initialized (the first event came) */
	bool told;		/* cfg.started was called */
	struct timeline tl;
};

void timeline_sink_init(struct timeline_sink *t, const struct timeline_sink_cfg *cfg);
/* wakeup_cfg.verdict with the sink as its ctx: the analyzer's verdicts on the flows. */
void timeline_sink_verdict(void *ctx, const struct idle_told *v);
/* blame_cfg.told with the sink as its ctx: each wakeup's split on its flow. */
void timeline_sink_blame(void *ctx, const struct blame_told *b);
/* The stream stopped on an error: the flows held for verdicts go out, not judged. */
void timeline_sink_flush_held(struct timeline_sink *t);

#endif
