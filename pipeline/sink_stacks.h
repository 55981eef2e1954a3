/* sink_stacks.h - the stacks analyzer (analyzers/stacks.h) as a sink: wakers, blocked, off-wake. */
#ifndef LOCUS_SINK_STACKS_H
#define LOCUS_SINK_STACKS_H

#include "../analyzers/stacks.h"
#include "sink.h"

struct stacks_sink {
	struct sink k;		/* first: the interface */
	struct stacks st;	/* the results, by the source's stack ids */
};

/* Its topology comes with begin (the source's). */
void stacks_sink_init(struct stacks_sink *s);

#endif
