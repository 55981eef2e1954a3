/*
 * stand_in.h - what an aggregating source (the BPF programs) fills in the stead of the sinks
 * it stands in for (sink.h: sink_ops.stand_in, sinks_stand_in): the wakeup analyzer's
 * results, who delayed the wakee and the stacks, each held by its sink.
 */
#ifndef LOCUS_STAND_IN_H
#define LOCUS_STAND_IN_H

#include <stdbool.h>

#include "../analyzers/blame.h"
#include "../analyzers/blame_live.h"
#include "../analyzers/stacks.h"
#include "../collectors/symbols.h"
#include "../model/stack.h"
#include "sink.h"

/* The blame sink's: the split read once at the end, and as it stands at each snapshot. */
struct stand_in_blame {
	struct blame_results r;	/* its cpu and culprits allocated (freed by the sink) */
	bool on;		/* r holds the split */
	struct blame_live live;	/* at the last snapshot (after the end: r's) */
	bool live_on;
};

/* The stacks sink's: counted rows into its results, their callchains and names. */
struct stand_in_stacks {
	struct stacks *st;	/* the sink's results */
	struct stack_table tab;	/* the callchains of st's stack ids */
	struct symbols syms;	/* names for their frames: this machine's kallsyms, the mappings
				 * of the processes sampled */
	bool on;		/* st, tab and syms hold them */
};

struct sink_stand_in {
	struct sched_results *sched;	/* the wakeup sink's results */
	struct stand_in_blame *blame;	/* the blame sink's, or NULL: not asked for */
	struct stand_in_stacks *stacks;	/* the stacks sink's, or NULL: not asked for */
};

#endif
