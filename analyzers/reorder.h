/* reorder.h - put events from per-CPU buffers into time order within a bounded window. */
#ifndef LOCUS_REORDER_H
#define LOCUS_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "../common/event.h"

typedef void (*event_sink)(void *ctx, const struct event *e);

/*
 * Events are added in rounds (one pass over every ring buffer). After round
 * N, everything older than the newest event of round N-1 is released in time
 * order: a CPU cannot still hold an event that old (perf's FINISHED_ROUND
 * rule). An event older than what was already released is late: it is
 * counted and released at once.
 */
struct reorder_entry {
	struct event e;
	uint64_t seq;	/* arrival order: keeps equal times in buffer order */
};

struct reorder {
	struct reorder_entry *q;
	uint64_t seq;
	size_t n, cap;
	uint64_t prev_round_max;	/* newest time of the previous round */
	uint64_t round_max;		/* newest time of the current round */
	uint64_t released_upto;		/* time of the last released event */
	uint64_t late;			/* events that arrived after their window */
	size_t peak;			/* most events held at once */
};

void reorder_init(struct reorder *r);
void reorder_add(struct reorder *r, const struct event *e, event_sink sink, void *ctx);
/* End a round: release what is safe. */
void reorder_round(struct reorder *r, event_sink sink, void *ctx);
/* Release everything (end of collection). */
void reorder_flush(struct reorder *r, event_sink sink, void *ctx);
void reorder_release(struct reorder *r);

#endif
