/*
 * topk.h - the heaviest keys of a stream in bounded memory (Space-Saving, Metwally et
 * al. 2005): cap slots; a new key takes a free slot, else the slot of the smallest
 * count, inheriting that count as its possible overcount. Guarantees, for N the sum of
 * the increments: a key's count is at least its true count and at most its true count
 * plus its slot's err; every err is at most topk_bound() <= N / cap; every key whose
 * true count exceeds the bound holds a slot. While no key was evicted, exact.
 * Slots hang in buckets of equal count, kept in count order (the Stream-Summary of the
 * paper): a count going up by one moves its slot at most one bucket, and the smallest
 * count is the first bucket, so a new key costs O(1) however many slots there are.
 */
#ifndef LOCUS_TOPK_H
#define LOCUS_TOPK_H

#include <stdbool.h>
#include <stdint.h>

#include "u64map.h"

/* A slot: one cache line holds what an increment of it reads and writes. */
struct topk_slot {
	uint64_t key;
	uint64_t count;		/* an upper bound of the key's true count */
	uint64_t err;		/* count - err is a lower bound */
	int bucket;		/* its bucket */
	int prev, next;		/* its neighbours in the bucket (-1) */
};

struct topk_bucket {
	uint64_t val;		/* the count of its slots */
	int head;		/* its first slot */
	int prev, next;		/* the buckets of smaller, larger counts (-1) */
};

struct topk {
	int cap, n;		/* slots, and slots in use */
	struct topk_slot *slot;
	struct topk_bucket *b;	/* at most one per slot, and one more while a slot moves */
	int bmin;		/* the bucket of the smallest count, -1 when empty */
	int bfree;		/* unused buckets, chained through next */
	struct u64map idx;	/* key -> slot + 1 */
	uint64_t total;		/* N */
	uint64_t evicted;	/* keys that lost their slot */
};

void topk_init(struct topk *t, int cap);
void topk_release(struct topk *t);
/*
 * Add inc to key's count. Returns its slot; *fresh says the slot was just given to
 * key (new, or taken from an evicted key: the caller resets what it keeps per slot).
 */
int topk_add(struct topk *t, uint64_t key, uint64_t inc, bool *fresh);
/* The same, where hint is the slot key likely holds (or -1): no hash lookup when it does. */
int topk_add_hint(struct topk *t, int hint, uint64_t key, uint64_t inc, bool *fresh);
/* key's slot, or -1. */
int topk_find(const struct topk *t, uint64_t key);
/* The largest possible overcount of any slot: the smallest count once a key was evicted, else 0. */
uint64_t topk_bound(const struct topk *t);

#endif
