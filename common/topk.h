/*
 * topk.h - the heaviest keys of a stream in bounded memory (Filtered Space-Saving: Metwally
 * et al. 2005, Homem and Carvalho 2010): cap slots; a new key takes a free slot; once
 * they are full it adds to a filter cell (by its hash) while that cell stays at or
 * below the smallest count, and then takes that count's slot, its cell's count as its
 * possible overcount (the evicted key's count goes into the evicted key's cell). Every
 * cell stays at or below the smallest count, so the slots' counts sum to at most N, the
 * sum of the increments. Guarantees: a slot's count is at least its key's true count and
 * at most its true count plus its slot's err; every err, and every true count of a key
 * without a slot, is at most topk_bound() <= N / cap; so every key whose true count
 * exceeds the bound holds a slot. While every key fitted, exact. Keys seen once among
 * many stay in the filter and cost no eviction.
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
	/* The filter (Filtered Space-Saving, Homem and Carvalho 2010), made when the slots
	 * fill: a key without a slot adds to its cell (by a hash) until the cell would reach
	 * the smallest count, and only then takes that count's slot; an evicted key's count
	 * goes into its cell. A key's true count is at most its cell's while it holds no slot,
	 * so keys seen once or twice among many stay out of the slots. */
	uint64_t *filt;
	int filt_bits;		/* log2 of its cells */
	uint64_t filt_max;	/* its largest cell: the bound */
	uint64_t filtered;	/* increments kept in the filter (no slot) */
};

void topk_init(struct topk *t, int cap);
void topk_release(struct topk *t);
/*
 * Add inc to key's count. Returns its slot, or -1 when the count stays in the filter;
 * *fresh says the slot was just given to key (new, or taken from an evicted key: the
 * caller resets what it keeps per slot).
 */
int topk_add(struct topk *t, uint64_t key, uint64_t inc, bool *fresh);
/* The same, where hint is the slot key likely holds (or -1): no hash lookup when it does. */
int topk_add_hint(struct topk *t, int hint, uint64_t key, uint64_t inc, bool *fresh);
/* Ask the CPU to fetch what adding to key will read first: its index slot, and its
 * filter cell once there is a filter (a hint: nothing changes). */
void topk_prefetch(const struct topk *t, uint64_t key);
/* key's slot, or -1. */
int topk_find(const struct topk *t, uint64_t key);
/* The largest possible overcount of any slot, and the largest true count of a key without
 * one: the filter's largest cell (0 while every key fitted: exact). */
uint64_t topk_bound(const struct topk *t);

#endif
