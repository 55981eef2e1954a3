/* sink_cacheline.h - the cacheline analyzer as a sink (sink.h): memory samples' results. */
#ifndef LOCUS_SINK_CACHELINE_H
#define LOCUS_SINK_CACHELINE_H

#include "../analyzers/cacheline.h"
#include "sink.h"

struct cacheline_sink {
	struct sink k;		/* first: the interface */
	struct cacheline cl;	/* the results */
};

void cacheline_sink_init(struct cacheline_sink *c, const struct cacheline_cfg *cfg);

#endif
