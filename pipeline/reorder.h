/* reorder.h - a source's events from per-CPU buffers put into time order in a bounded window. */
#ifndef LOCUS_REORDER_H
#define LOCUS_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "../model/event.h"

/* The events of one CPU, in time order (a ring of slots). */
struct reorder_queue {
	struct event *ev;
	uint64_t *seq;			/* per slot: the order it arrived in (ties in time
					 * keep it, as perf does: its ordered events queue an
					 * event after those of the same time) */
	size_t head, n, cap;
};

/*
 * Events are added in rounds (one pass over every ring buffer). After round
 * N, everything older than the newest event of round N-1 is released in time
 * order: a CPU cannot still hold an event that old (perf's FINISHED_ROUND
 * rule). Each CPU's events arrive in order, so release is a merge of per-CPU
 * queues, not a sort. An event older than what was already released is late:
 * it is counted and released at once.
 */
struct reorder {
	struct reorder_queue *q;	/* per CPU; the last one takes CPU numbers out of range */
	int nq;
	int *heap;			/* queue indices by head time */
	int nheap;
	uint64_t next_seq;		/* events added so far */
	uint64_t prev_round_max;	/* newest time of the previous round */
	uint64_t round_max;		/* newest time of the current round */
	uint64_t released_upto;		/* time of the last released event */
	uint64_t late;			/* events that arrived after their window */
	uint64_t unordered;		/* events older than their CPU's previous one (re-sorted) */
	size_t held, peak;		/* events held now, and at most */
	uint64_t relieved;		/* releases forced by the held limit (no rounds) */
};

void reorder_init(struct reorder *r);
void reorder_add(struct reorder *r, const struct event *e, event_fn fn, void *ctx);
/* End a round: release what is safe. */
void reorder_round(struct reorder *r, event_fn fn, void *ctx);
/* Release everything (end of collection). */
void reorder_flush(struct reorder *r, event_fn fn, void *ctx);
void reorder_release(struct reorder *r);

#endif
