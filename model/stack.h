/*
 * stack.h - callchains interned once: an event carries a stack's id (0: none), the table
 * keeps its entries (as the kernel wrote them, leaf first, PERF_CONTEXT_* markers
 * among them) and the process whose stack it is (user addresses are that process's).
 */
#ifndef LOCUS_STACK_H
#define LOCUS_STACK_H

#include <stdint.h>

#include "../common/u64map.h"

#define STACK_IDS_MAX (1u << 28)	/* ids fit 28 bits (an analyzer packs two in a key) */

struct stack_table {
	uint64_t *ips;		/* every stack's entries, one after another */
	uint64_t nips, capips;
	uint64_t *off;		/* stack id i (from 1) starts at ips[off[i]]: off[i + 1] - off[i]
				 * entries (off[0] unused) */
	int32_t *pid;		/* and is process pid[i]'s */
	uint32_t n;		/* ids given, 1 .. n */
	uint32_t cap;
	struct u64map by_hash;	/* a stack's hash (bumped past collisions) -> its id */
	uint64_t dropped;	/* stacks not interned: the table was full (id 0 given) */
};

void stack_table_init(struct stack_table *t);
/*
 * The id of the callchain of nr entries at ips (little-endian 8-byte words, any
 * alignment) in process pid: the same id for the same entries and pid. 0 when nr
 * is 0, or the table is full (counted in dropped).
 */
uint32_t stack_intern(struct stack_table *t, int32_t pid, const uint8_t *ips, uint32_t nr);
/* Stack id's entries (*nr of them, leaf first) and pid; NULL for 0 or an unknown id. */
const uint64_t *stack_get(const struct stack_table *t, uint32_t id, uint32_t *nr, int32_t *pid);
void stack_table_release(struct stack_table *t);

/*
 * Names for a stack's frames, as a report asks for them (collectors/symbols.c gives one
 * from kallsyms and the tasks' binaries): the function at addr in process pid (a
 * kernel address where kernel), into buf; NULL where nothing names it ("[unknown]").
 */
struct stack_namer {
	const char *(*name)(void *ctx, int32_t pid, uint64_t addr, int kernel, char *buf,
			    size_t len);
	void *ctx;
};

#endif
