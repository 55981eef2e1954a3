/* u64map.c - linear-probing hash map used for task and task-pair tables. */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

uint32_t *u64map_get(const struct u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->used[i])
			return NULL;
		if (m->keys[i] == key)
			return &m->vals[i];
	}
}

static void grow(struct u64map *m)
{
	struct u64map old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	m->used = xcalloc(m->cap, 1);
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.used[i])
			u64map_put(m, old.keys[i], old.vals[i]);
	u64map_release(&old);
}

void u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

bool u64map_del(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, j;

	if (!m->cap)
		return false;
	for (i = slot_of(key, m->cap);; i = (i + 1) & mask) {
		if (!m->used[i])
			return false;
		if (m->keys[i] == key)
			break;
	}
	m->used[i] = 0;
	m->n--;
	/* pull back every later key of the run whose home is not between the hole and it */
	for (j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		size_t home = slot_of(m->keys[j], m->cap);
		bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);

		if (stays)
			continue;
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		m->used[i] = 1;
		m->used[j] = 0;
		i = j;
	}
	return true;
}

void u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
