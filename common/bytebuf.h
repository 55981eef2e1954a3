/* bytebuf.h - a growing byte buffer for building binary sections (perf.data features). */
#ifndef LOCUS_BYTEBUF_H
#define LOCUS_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

struct bytebuf {
	uint8_t *p;
	size_t len, cap;
};

static inline void bytebuf_put(struct bytebuf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static inline void bytebuf_u32(struct bytebuf *b, uint32_t v)
{
	bytebuf_put(b, &v, 4);
}

static inline void bytebuf_u64(struct bytebuf *b, uint64_t v)
{
	bytebuf_put(b, &v, 8);
}

#endif
