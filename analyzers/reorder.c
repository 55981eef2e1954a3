/* reorder.c - bounded-window time ordering of events read from per-CPU ring buffers. */
#include "reorder.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void reorder_init(struct reorder *r)
{
	memset(r, 0, sizeof(*r));
}

void reorder_add(struct reorder *r, const struct event *e, event_sink sink, void *ctx)
{
	if (r->released_upto && e->time_ns < r->released_upto) {
		r->late++;
		sink(ctx, e);
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 4096;
		r->q = xrealloc(r->q, r->cap * sizeof(*r->q));
	}
	r->q[r->n].e = *e;
	r->q[r->n++].seq = r->seq++;
	if (r->n > r->peak)
		r->peak = r->n;
	if (e->time_ns > r->round_max)
		r->round_max = e->time_ns;
}

static int by_time(const void *a, const void *b)
{
	const struct reorder_entry *x = a, *y = b;

	if (x->e.time_ns != y->e.time_ns)
		return x->e.time_ns < y->e.time_ns ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Release queued events with time <= limit, in order. */
static void release(struct reorder *r, uint64_t limit, event_sink sink, void *ctx)
{
	size_t i = 0;

	if (r->n == 0)
		return;
	qsort(r->q, r->n, sizeof(*r->q), by_time);
	while (i < r->n && r->q[i].e.time_ns <= limit) {
		sink(ctx, &r->q[i].e);
		r->released_upto = r->q[i].e.time_ns;
		i++;
	}
	memmove(r->q, r->q + i, (r->n - i) * sizeof(*r->q));
	r->n -= i;
}

void reorder_round(struct reorder *r, event_sink sink, void *ctx)
{
	release(r, r->prev_round_max, sink, ctx);
	r->prev_round_max = r->round_max;
}

void reorder_flush(struct reorder *r, event_sink sink, void *ctx)
{
	release(r, UINT64_MAX, sink, ctx);
}

void reorder_release(struct reorder *r)
{
	free(r->q);
	memset(r, 0, sizeof(*r));
}
