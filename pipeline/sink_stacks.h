/* sink_stacks.h - the stacks analyzer (analyzers/stacks.h) as a sink: wakers, blocked, off-wake. */
#ifndef LOCUS_SINK_STACKS_H
#define LOCUS_SINK_STACKS_H

#include "../analyzers/stacks.h"
#include "sink.h"
#include "sink_wakeup.h"

struct stacks_sink {
	struct sink k;		/* first: the interface */
	struct stacks st;	/* the results, by the source's stack ids */
};

/* Its topology comes with begin (the source's). */
void stacks_sink_init(struct stacks_sink *s);
/* Count only the tasks wk tracks (wk one by one, fed each event before this sink). */
void stacks_sink_scope(struct stacks_sink *s, struct wakeup_sink *wk);

#endif
