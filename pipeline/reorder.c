/* reorder.c - bounded-window time ordering: per-CPU queues merged through a small heap. */
#include "reorder.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define MAX_QUEUES 8192
/* events held before a stream without rounds is released by its CPUs' progress */
#define MAX_HELD (1u << 21)

void reorder_init(struct reorder *r)
{
	memset(r, 0, sizeof(*r));
}

/* cap is a power of two: a ring index is a mask, not a division (per event, twice) */
static struct event *slot(struct reorder_queue *q, size_t i)
{
	return &q->ev[(q->head + i) & (q->cap - 1)];
}

/*
 * A full queue doubles in place: realloc keeps what it holds (a large block is moved by
 * its page tables, not copied or faulted in again), and the part that had wrapped to the
 * front, [0, head), goes after the old end, where the ring now continues.
 */
static void grow(struct reorder_queue *q)
{
	size_t old = q->cap, cap = old ? old * 2 : 1024;

	q->ev = xrealloc(q->ev, cap * sizeof(*q->ev));
	q->seq = xrealloc(q->seq, cap * sizeof(*q->seq));
	if (q->head) {
		memcpy(q->ev + old, q->ev, q->head * sizeof(*q->ev));
		memcpy(q->seq + old, q->seq, q->head * sizeof(*q->seq));
	}
	q->cap = cap;
}

static struct reorder_queue *queue_of(struct reorder *r, int32_t cpu)
{
	int idx = cpu >= 0 && cpu < MAX_QUEUES - 1 ? cpu : MAX_QUEUES - 1;

	if (idx >= r->nq) {
		int n = idx + 1;

		r->q = xrealloc(r->q, (size_t)n * sizeof(*r->q));
		memset(r->q + r->nq, 0, (size_t)(n - r->nq) * sizeof(*r->q));
		r->heap = xrealloc(r->heap, (size_t)n * sizeof(*r->heap));
		r->nq = n;
	}
	return &r->q[idx];
}

static void release(struct reorder *r, uint64_t limit, event_fn fn, void *ctx);

/*
 * A stream without rounds (some files have no FINISHED_ROUND) must not hold
 * everything: each CPU's events come in order, so nothing older than the
 * oldest of the CPUs' newest events can still arrive from a CPU seen so far.
 */
static void relieve(struct reorder *r, event_fn fn, void *ctx)
{
	uint64_t limit = UINT64_MAX;

	for (int i = 0; i < r->nq; i++) {
		const struct reorder_queue *q = &r->q[i];

		if (q->n && q->ev[(q->head + q->n - 1) & (q->cap - 1)].time_ns < limit)
			limit = q->ev[(q->head + q->n - 1) & (q->cap - 1)].time_ns;
	}
	if (limit != UINT64_MAX)
		release(r, limit, fn, ctx);
	r->relieved++;
}

void reorder_add(struct reorder *r, const struct event *e, event_fn fn, void *ctx)
{
	struct reorder_queue *q;
	size_t i;

	if (r->released_upto && e->time_ns < r->released_upto) {
		r->late++;
		fn(ctx, e);
		return;
	}
	q = queue_of(r, e->cpu);
	if (q->n == q->cap)
		grow(q);
	/* in order within its CPU, as ring buffers deliver; else insert in place */
	i = q->n;
	while (i > 0 && slot(q, i - 1)->time_ns > e->time_ns) {
		*slot(q, i) = *slot(q, i - 1);
		q->seq[(q->head + i) & (q->cap - 1)] = q->seq[(q->head + i - 1) & (q->cap - 1)];
		i--;
	}
	if (i != q->n)
		r->unordered++;
	*slot(q, i) = *e;
	q->seq[(q->head + i) & (q->cap - 1)] = r->next_seq++;
	q->n++;
	if (++r->held > r->peak)
		r->peak = r->held;
	if (e->time_ns > r->round_max)
		r->round_max = e->time_ns;
	if (r->held > MAX_HELD)
		relieve(r, fn, ctx);
}

/* Whether queue a's head goes before queue b's: the older, or of the same time the one
 * that arrived first. */
static bool head_before(const struct reorder *r, int a, int b)
{
	const struct reorder_queue *qa = &r->q[a], *qb = &r->q[b];
	uint64_t ta = qa->ev[qa->head].time_ns, tb = qb->ev[qb->head].time_ns;

	return ta < tb || (ta == tb && qa->seq[qa->head] < qb->seq[qb->head]);
}

static void sift_down(struct reorder *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;

		if (l < r->nheap && head_before(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && head_before(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		int t = r->heap[i];

		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

/* Release queued events with time <= limit, merging the CPUs in time order. */
static void release(struct reorder *r, uint64_t limit, event_fn fn, void *ctx)
{
	r->nheap = 0;
	for (int i = 0; i < r->nq; i++)
		if (r->q[i].n)
			r->heap[r->nheap++] = i;
	for (int i = r->nheap / 2 - 1; i >= 0; i--)
		sift_down(r, i);
	while (r->nheap) {
		struct reorder_queue *q = &r->q[r->heap[0]];
		struct event *e = &q->ev[q->head];

		if (e->time_ns > limit)
			break;
		fn(ctx, e);
		r->released_upto = e->time_ns;
		q->head = (q->head + 1) & (q->cap - 1);
		q->n--;
		r->held--;
		if (!q->n)
			r->heap[0] = r->heap[--r->nheap];
		sift_down(r, 0);
	}
}

void reorder_round(struct reorder *r, event_fn fn, void *ctx)
{
	release(r, r->prev_round_max, fn, ctx);
	r->prev_round_max = r->round_max;
}

void reorder_flush(struct reorder *r, event_fn fn, void *ctx)
{
	release(r, UINT64_MAX, fn, ctx);
}

void reorder_release(struct reorder *r)
{
	for (int i = 0; i < r->nq; i++) {
		free(r->q[i].ev);
		free(r->q[i].seq);
	}
	free(r->q);
	free(r->heap);
	memset(r, 0, sizeof(*r));
}
