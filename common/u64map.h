/* u64map.h - open-addressing hash map from a 64-bit key to a 32-bit value (an array index). */
#ifndef LOCUS_U64MAP_H
#define LOCUS_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One entry per slot: a probe reads one cache line, not a key, a value and a flag apart. */
struct u64map_entry {
	uint64_t key;
	uint32_t val;
	uint32_t used;	/* 0: free; else the key's hash, low 31 bits, with bit 31 set (its home
			 * slot without hashing again, for maps up to 2^31 slots) */
};

struct u64map {
	struct u64map_entry *e;
	size_t cap;	/* power of two */
	size_t n;
};

void u64map_init(struct u64map *m);
/* Pointer to the value of key, or NULL. */
uint32_t *u64map_get(const struct u64map *m, uint64_t key);
/* Insert or overwrite; grows at 50% load. */
void u64map_put(struct u64map *m, uint64_t key, uint32_t val);
/* Remove key (false when absent); the other keys stay findable (backward shift, no tombstones). */
bool u64map_del(struct u64map *m, uint64_t key);
void u64map_release(struct u64map *m);
/* Ask the CPU to fetch the slot where key's probe starts (a hint: nothing changes). */
void u64map_prefetch(const struct u64map *m, uint64_t key);

#endif
