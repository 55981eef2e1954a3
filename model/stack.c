/* stack.c - callchains interned by a hash of their entries and process (stack.h). */
#include "stack.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void stack_table_init(struct stack_table *t)
{
	memset(t, 0, sizeof(*t));
	u64map_init(&t->by_hash);
}

static uint64_t hash_of(int32_t pid, const uint8_t *ips, uint32_t nr)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)(uint32_t)pid ^ ((uint64_t)nr << 32);

	for (uint32_t i = 0; i < nr; i++) {
		uint64_t v;

		memcpy(&v, ips + (size_t)i * 8, 8);
		h = (h ^ v) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

static int same(const struct stack_table *t, uint32_t id, int32_t pid, const uint8_t *ips,
		uint32_t nr)
{
	return t->pid[id] == pid && t->off[id + 1] - t->off[id] == nr &&
	       !memcmp(t->ips + t->off[id], ips, (size_t)nr * 8);
}

uint32_t stack_intern(struct stack_table *t, int32_t pid, const uint8_t *ips, uint32_t nr)
{
	uint64_t h;
	uint32_t *v, id;

	if (!nr)
		return 0;
	/* a hash taken by another stack: the next value, until this one or a free key */
	for (h = hash_of(pid, ips, nr); (v = u64map_get(&t->by_hash, h)); h++)
		if (same(t, *v, pid, ips, nr))
			return *v;
	if (t->n + 1 >= STACK_IDS_MAX) {
		t->dropped++;
		return 0;
	}
	if (t->n + 2 >= t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->off = xrealloc(t->off, (size_t)t->cap * sizeof(*t->off));
		t->pid = xrealloc(t->pid, (size_t)t->cap * sizeof(*t->pid));
		if (!t->n)
			t->off[1] = 0;
	}
	while (t->nips + nr > t->capips) {
		t->capips = t->capips ? 2 * t->capips : 16384;
		t->ips = xrealloc(t->ips, (size_t)t->capips * sizeof(*t->ips));
	}
	id = ++t->n;
	memcpy(t->ips + t->nips, ips, (size_t)nr * 8);
	t->nips += nr;
	t->off[id + 1] = t->nips;
	t->pid[id] = pid;
	u64map_put(&t->by_hash, h, id);
	return id;
}

const uint64_t *stack_get(const struct stack_table *t, uint32_t id, uint32_t *nr, int32_t *pid)
{
	if (!id || id > t->n)
		return NULL;
	*nr = (uint32_t)(t->off[id + 1] - t->off[id]);
	if (pid)
		*pid = t->pid[id];
	return t->ips + t->off[id];
}

void stack_table_release(struct stack_table *t)
{
	free(t->ips);
	free(t->off);
	free(t->pid);
	u64map_release(&t->by_hash);
	memset(t, 0, sizeof(*t));
}
