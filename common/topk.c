/* topk.c - Space-Saving over a Stream-Summary: slots in buckets of equal count (topk.h). */
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
	t->key = xcalloc(n, sizeof(*t->key));
	t->count = xcalloc(n, sizeof(*t->count));
	t->err = xcalloc(n, sizeof(*t->err));
	t->bucket = xcalloc(n, sizeof(int));
	t->sprev = xcalloc(n, sizeof(int));
	t->snext = xcalloc(n, sizeof(int));
	/* at most one bucket per slot, and one more while a slot moves */
	t->bval = xcalloc(n + 1, sizeof(*t->bval));
	t->bhead = xcalloc(n + 1, sizeof(int));
	t->bprev = xcalloc(n + 1, sizeof(int));
	t->bnext = xcalloc(n + 1, sizeof(int));
	for (size_t b = 0; b <= n; b++)
		t->bnext[b] = b < n ? (int)b + 1 : -1;
	t->bfree = 0;
	t->bmin = -1;
	u64map_init(&t->idx);
}

void topk_release(struct topk *t)
{
	free(t->key);
	free(t->count);
	free(t->err);
	free(t->bucket);
	free(t->sprev);
	free(t->snext);
	free(t->bval);
	free(t->bhead);
	free(t->bprev);
	free(t->bnext);
	u64map_release(&t->idx);
	memset(t, 0, sizeof(*t));
}

/* A new bucket of count v between buckets a and b (either -1). */
static int bucket_new(struct topk *t, uint64_t v, int a, int b)
{
	int n = t->bfree;

	t->bfree = t->bnext[n];
	t->bval[n] = v;
	t->bhead[n] = -1;
	t->bprev[n] = a;
	t->bnext[n] = b;
	if (a >= 0)
		t->bnext[a] = n;
	else
		t->bmin = n;
	if (b >= 0)
		t->bprev[b] = n;
	return n;
}

static void bucket_free(struct topk *t, int b)
{
	if (t->bprev[b] >= 0)
		t->bnext[t->bprev[b]] = t->bnext[b];
	else
		t->bmin = t->bnext[b];
	if (t->bnext[b] >= 0)
		t->bprev[t->bnext[b]] = t->bprev[b];
	t->bnext[b] = t->bfree;
	t->bfree = b;
}

static void attach(struct topk *t, int s, int b)
{
	t->bucket[s] = b;
	t->sprev[s] = -1;
	t->snext[s] = t->bhead[b];
	if (t->bhead[b] >= 0)
		t->sprev[t->bhead[b]] = s;
	t->bhead[b] = s;
}

static void detach(struct topk *t, int s)
{
	int b = t->bucket[s];

	if (t->sprev[s] >= 0)
		t->snext[t->sprev[s]] = t->snext[s];
	else
		t->bhead[b] = t->snext[s];
	if (t->snext[s] >= 0)
		t->sprev[t->snext[s]] = t->sprev[s];
}

/* Slot s (in bucket from, or in none: -1) to the bucket of count v, found from from onwards. */
static void place(struct topk *t, int s, int from, uint64_t v)
{
	int a = from, b = from >= 0 ? t->bnext[from] : t->bmin, to;

	while (b >= 0 && t->bval[b] < v) { /* one step for an increment of one */
		a = b;
		b = t->bnext[b];
	}
	to = b >= 0 && t->bval[b] == v ? b : bucket_new(t, v, a, b);
	if (from >= 0) {
		detach(t, s);
		if (t->bhead[from] < 0)
			bucket_free(t, from);
	}
	attach(t, s, to);
	t->count[s] = v;
}

int topk_find(const struct topk *t, uint64_t key)
{
	uint32_t *s = u64map_get(&t->idx, key);

	return s ? (int)*s - 1 : -1;
}

int topk_add(struct topk *t, uint64_t key, uint64_t inc, bool *fresh)
{
	int s = topk_find(t, key);

	t->total += inc;
	*fresh = s < 0;
	if (s >= 0) {
		if (inc)
			place(t, s, t->bucket[s], t->count[s] + inc);
		return s;
	}
	if (t->n < t->cap) {
		s = t->n++;
		t->key[s] = key;
		t->err[s] = 0;
		place(t, s, -1, inc);
	} else {
		s = t->bhead[t->bmin]; /* a slot of the smallest count: its key goes, the newcomer
					* inherits the count */
		u64map_del(&t->idx, t->key[s]);
		t->evicted++;
		t->key[s] = key;
		t->err[s] = t->count[s];
		if (inc)
			place(t, s, t->bucket[s], t->count[s] + inc);
	}
	u64map_put(&t->idx, key, (uint32_t)s + 1);
	return s;
}

uint64_t topk_bound(const struct topk *t)
{
	return t->evicted && t->bmin >= 0 ? t->bval[t->bmin] : 0;
}
