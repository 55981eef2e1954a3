/*
 * tidmap.h - thread id -> array index, for the per-event task lookups of the analyzers.
 * A tid below TIDMAP_DIRECT (the kernel's PID_MAX_LIMIT, 2^22) is an index into pages of
 * 1,024 entries made on first use and freed when their last entry goes: one memory access
 * where a hash map made three (its key, value and used arrays), and memory that follows
 * the tids in use. Any other tid (a hostile file's) goes to a hash map.
 */
#ifndef LOCUS_TIDMAP_H
#define LOCUS_TIDMAP_H

#include <stdint.h>

#include "u64map.h"

#define TIDMAP_DIRECT (1u << 22)
#define TIDMAP_SHIFT 10
#define TIDMAP_PAGE (1u << TIDMAP_SHIFT)

struct tidmap {
	int32_t **page;		/* TIDMAP_DIRECT / TIDMAP_PAGE pages, NULL until used;
				 * entries -1 when absent */
	uint16_t *fill;		/* per page: entries present */
	struct u64map far;	/* tids outside [0, TIDMAP_DIRECT) */
	size_t n;		/* entries */
};

void tidmap_init(struct tidmap *m);
void tidmap_release(struct tidmap *m);
/* tid's value, or -1. */
int32_t tidmap_far_get(const struct tidmap *m, int32_t tid);
static inline int32_t tidmap_get(const struct tidmap *m, int32_t tid)
{
	const int32_t *p;

	if ((uint32_t)tid >= TIDMAP_DIRECT)
		return tidmap_far_get(m, tid);
	p = m->page[(uint32_t)tid >> TIDMAP_SHIFT];
	return p ? p[(uint32_t)tid & (TIDMAP_PAGE - 1)] : -1;
}
/* Insert or overwrite (val >= 0). */
void tidmap_put(struct tidmap *m, int32_t tid, int32_t val);
/* Remove tid (nothing when absent). */
void tidmap_del(struct tidmap *m, int32_t tid);

#endif
