/* topk.c - Filtered Space-Saving over a Stream-Summary: slots in buckets of equal count
 * (topk.h). */
#include "topk.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void topk_init(struct topk *t, int cap)
{
	size_t n;

	memset(t, 0, sizeof(*t));
	t->cap = cap > 0 ? cap : 1;
	n = (size_t)t->cap;
	t->slot = xcalloc(n, sizeof(*t->slot));
	t->b = xcalloc(n + 1, sizeof(*t->b));
	for (size_t b = 0; b <= n; b++)
		t->b[b].next = b < n ? (int)b + 1 : -1;
	t->bfree = 0;
	t->bmin = -1;
	u64map_init(&t->idx);
}

void topk_release(struct topk *t)
{
	free(t->slot);
	free(t->b);
	free(t->filt);
	u64map_release(&t->idx);
	memset(t, 0, sizeof(*t));
}

/* A new bucket of count v between buckets a and b (either -1). */
static int bucket_new(struct topk *t, uint64_t v, int a, int b)
{
	int n = t->bfree;
	struct topk_bucket *nb = &t->b[n];

	t->bfree = nb->next;
	nb->val = v;
	nb->head = -1;
	nb->prev = a;
	nb->next = b;
	if (a >= 0)
		t->b[a].next = n;
	else
		t->bmin = n;
	if (b >= 0)
		t->b[b].prev = n;
	return n;
}

static void bucket_free(struct topk *t, int b)
{
	struct topk_bucket *fb = &t->b[b];

	if (fb->prev >= 0)
		t->b[fb->prev].next = fb->next;
	else
		t->bmin = fb->next;
	if (fb->next >= 0)
		t->b[fb->next].prev = fb->prev;
	fb->next = t->bfree;
	t->bfree = b;
}

static void attach(struct topk *t, int s, int b)
{
	struct topk_slot *sl = &t->slot[s];

	sl->bucket = b;
	sl->prev = -1;
	sl->next = t->b[b].head;
	if (sl->next >= 0)
		t->slot[sl->next].prev = s;
	t->b[b].head = s;
}

static void detach(struct topk *t, int s)
{
	struct topk_slot *sl = &t->slot[s];

	if (sl->prev >= 0)
		t->slot[sl->prev].next = sl->next;
	else
		t->b[sl->bucket].head = sl->next;
	if (sl->next >= 0)
		t->slot[sl->next].prev = sl->prev;
}

/* Slot s (in bucket from, or in none: -1) to the bucket of count v, found from from onwards. */
static void place(struct topk *t, int s, int from, uint64_t v)
{
	int a = from, b = from >= 0 ? t->b[from].next : t->bmin, to;

	while (b >= 0 && t->b[b].val < v) { /* one step for an increment of one */
		a = b;
		b = t->b[b].next;
	}
	to = b >= 0 && t->b[b].val == v ? b : bucket_new(t, v, a, b);
	if (from >= 0) {
		detach(t, s);
		if (t->b[from].head < 0)
			bucket_free(t, from);
	}
	attach(t, s, to);
	t->slot[s].count = v;
}

int topk_find(const struct topk *t, uint64_t key)
{
	uint32_t *s = u64map_get(&t->idx, key);

	return s ? (int)*s - 1 : -1;
}

/* key's cell of the filter: a multiplicative hash, its top bits */
static uint64_t *cell(const struct topk *t, uint64_t key)
{
	return &t->filt[(key * 0x9e3779b97f4a7c15ull) >> (64 - t->filt_bits)];
}

/* The filter, when the slots are full: FILT_PER_SLOT cells a slot, a power of two. */
#define FILT_PER_SLOT 8
static void filter_make(struct topk *t)
{
	t->filt_bits = 1;
	while ((1ull << t->filt_bits) < (uint64_t)t->cap * FILT_PER_SLOT)
		t->filt_bits++;
	t->filt = xcalloc((size_t)1 << t->filt_bits, sizeof(*t->filt));
}

static void filter_raise(struct topk *t, uint64_t *c, uint64_t v)
{
	if (*c < v)
		*c = v;
	if (v > t->filt_max)
		t->filt_max = v;
}

void topk_prefetch(const struct topk *t, uint64_t key)
{
	u64map_prefetch(&t->idx, key);
	if (t->filt)
		__builtin_prefetch(cell(t, key), 1);
}

int topk_add_hint(struct topk *t, int hint, uint64_t key, uint64_t inc, bool *fresh)
{
	int s = hint >= 0 && hint < t->n && t->slot[hint].key == key ? hint : topk_find(t, key);
	struct topk_slot *sl;
	uint64_t *c;

	t->total += inc;
	*fresh = s < 0;
	if (s >= 0) {
		if (inc)
			place(t, s, t->slot[s].bucket, t->slot[s].count + inc);
		return s;
	}
	if (t->n < t->cap) {
		s = t->n++;
		t->slot[s].key = key;
		t->slot[s].err = 0;
		place(t, s, -1, inc);
		u64map_put(&t->idx, key, (uint32_t)s + 1);
		return s;
	}
	if (!t->filt)
		filter_make(t);
	c = cell(t, key);
	if (*c + inc <= t->b[t->bmin].val) { /* not above the smallest count: stays out */
		filter_raise(t, c, *c + inc);
		t->filtered += inc;
		*fresh = false;
		return -1;
	}
	s = t->b[t->bmin].head; /* a slot of the smallest count: its key goes (its count to its
				 * cell), the newcomer takes its cell's count */
	sl = &t->slot[s];
	u64map_del(&t->idx, sl->key);
	filter_raise(t, cell(t, sl->key), sl->count);
	t->evicted++;
	sl->key = key;
	sl->err = *c;
	place(t, s, sl->bucket, *c + inc); /* above the smallest count: out of its bucket */
	u64map_put(&t->idx, key, (uint32_t)s + 1);
	return s;
}

int topk_add(struct topk *t, uint64_t key, uint64_t inc, bool *fresh)
{
	return topk_add_hint(t, -1, key, inc, fresh);
}

uint64_t topk_bound(const struct topk *t)
{
	return t->filt_max;
}
