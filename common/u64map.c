/* u64map.c - linear-probing hash map used for task and task-pair tables. */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint32_t hash_of(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (uint32_t)key | 0x80000000u;
}

void u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

uint32_t *u64map_get(const struct u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = hash_of(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct u64map_entry *e = &m->e[i];

		if (!e->used)
			return NULL;
		if (e->key == key)
			return &e->val;
	}
}

static void grow(struct u64map *m)
{
	struct u64map old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->e = xcalloc(m->cap, sizeof(*m->e));
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].used)
			u64map_put(m, old.e[i].key, old.e[i].val);
	u64map_release(&old);
}

void u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	uint32_t h = hash_of(key);
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	for (i = h & (m->cap - 1); m->e[i].used; i = (i + 1) & (m->cap - 1)) {
		if (m->e[i].key == key) {
			m->e[i].val = val;
			return;
		}
	}
	m->e[i] = (struct u64map_entry){ key, val, h };
	m->n++;
}

bool u64map_del(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, j;

	if (!m->cap)
		return false;
	for (i = hash_of(key) & mask;; i = (i + 1) & mask) {
		if (!m->e[i].used)
			return false;
		if (m->e[i].key == key)
			break;
	}
	m->e[i].used = 0;
	m->n--;
	/* pull back every later key of the run whose home is not between the hole and it */
	for (j = (i + 1) & mask; m->e[j].used; j = (j + 1) & mask) {
		size_t home = m->e[j].used & mask;
		bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);

		if (stays)
			continue;
		m->e[i] = m->e[j];
		m->e[j].used = 0;
		i = j;
	}
	return true;
}

void u64map_release(struct u64map *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

void u64map_prefetch(const struct u64map *m, uint64_t key)
{
	if (m->cap)
		__builtin_prefetch(&m->e[hash_of(key) & (m->cap - 1)]);
}
