/*
 * sink_stacks.h - the stacks analyzer (analyzers/stacks.h) as a sink: wakers, blocked,
 * off-wake. Its results count by the source's stack ids; at the source's end it learns
 * their callchains and what names their frames (sink_end). An aggregating source (BPF)
 * stands in for it: the stacks sampled in the kernel, read at the end.
 */
#ifndef LOCUS_SINK_STACKS_H
#define LOCUS_SINK_STACKS_H

#include "../analyzers/stacks.h"
#include "../collectors/symbols.h"
#include "sink.h"
#include "sink_wakeup.h"
#include "stand_in.h"

struct stacks_sink {
	struct sink k;		/* first: the interface */
	struct stacks st;	/* the results, by the source's stack ids */
	const struct stack_table *tab;	/* their callchains (sink_end), or NULL */
	struct symbols *names;	/* what names their frames: the file's, or syms */
	bool syms_on;		/* syms holds this machine's kallsyms and the stream's maps */
	struct symbols syms;
	struct stand_in_stacks stand;	/* k.stood_in: what the aggregating source read */
};

/* Its topology comes with begin (the source's). */
void stacks_sink_init(struct stacks_sink *s);
/* Count only the tasks wk tracks (wk one by one, fed each event before this sink). */
void stacks_sink_scope(struct stacks_sink *s, struct wakeup_sink *wk);
/*
 * After finish: the stacks, their table in *tab and names for their frames in *nm; NULL
 * when the source had none to give (stood in: the kernel took none).
 */
const struct stacks *stacks_sink_results(struct stacks_sink *s,
				       const struct stack_table **tab, struct stack_namer *nm);

#endif
