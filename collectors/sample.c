/* sample.c - PERF_RECORD_SAMPLE in the kernel's field order, every field bounds-checked. */
#include "sample.h"

#include <string.h>

struct cur {
	const uint8_t *p, *end;
};

static inline int u64(struct cur *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return -1;
	if (v)
		memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

static int skip(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n)
		return -1;
	c->p += n;
	return 0;
}

/* The fixed words in the kernel's order (perf_output_sample); ID and IDENTIFIER are one. */
static const struct {
	uint64_t bit;
	enum sample_word w;
} fixed[] = {
	{ PERF_SAMPLE_IDENTIFIER, SW_ID }, { PERF_SAMPLE_IP, SW_IP },	  { PERF_SAMPLE_TID, SW_TID },
	{ PERF_SAMPLE_TIME, SW_TIME },	   { PERF_SAMPLE_ADDR, SW_ADDR }, { PERF_SAMPLE_ID, SW_ID },
	{ PERF_SAMPLE_STREAM_ID, SW_NR },  { PERF_SAMPLE_CPU, SW_CPU },	  { PERF_SAMPLE_PERIOD, SW_PERIOD },
};

void sample_layout_of(struct sample_layout *l, const struct perf_event_attr *a)
{
	memset(l, 0, sizeof(*l));
	l->sample_type = a->sample_type;
	l->read_format = a->read_format;
	l->branch_sample_type = a->branch_sample_type;
	l->regs_user = a->sample_regs_user;
	l->regs_intr = a->sample_regs_intr;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (!(a->sample_type & fixed[i].bit))
			continue;
		if (fixed[i].w < SW_NR) { /* ID after IDENTIFIER: the same id */
			l->off[fixed[i].w] = l->head;
			l->mask[fixed[i].w] = ~0ULL;
		}
		l->head += 8;
	}
}

int sample_id(uint64_t st, const void *body, size_t len, uint64_t *id)
{
	struct cur c = { body, (const uint8_t *)body + len };

	if (st & PERF_SAMPLE_IDENTIFIER)
		return u64(&c, id) ? -1 : 1;
	if (!(st & PERF_SAMPLE_ID))
		return 0;
	/* without IDENTIFIER, perf requires the same layout up to ID */
	if (((st & PERF_SAMPLE_IP) && u64(&c, NULL)) || ((st & PERF_SAMPLE_TID) && u64(&c, NULL)) ||
	    ((st & PERF_SAMPLE_TIME) && u64(&c, NULL)) || ((st & PERF_SAMPLE_ADDR) && u64(&c, NULL)) ||
	    u64(&c, id))
		return -1;
	return 1;
}

int sample_record_id(uint32_t type, const void *body, size_t len, uint64_t *id)
{
	if (len < 8)
		return -1;
	memcpy(id, type == PERF_RECORD_SAMPLE ? body : (const uint8_t *)body + len - 8, 8);
	return 0;
}

int sample_record_set_id(uint32_t type, void *body, size_t len, uint64_t id)
{
	if (len < 8)
		return -1;
	memcpy(type == PERF_RECORD_SAMPLE ? body : (uint8_t *)body + len - 8, &id, 8);
	return 0;
}

static int read_format(struct cur *c, uint64_t rf)
{
	uint64_t nr = 1, per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		if (u64(c, &nr) < 0 || nr > 4096)
			return -1;
		if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) && u64(c, NULL))
			return -1;
		if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) && u64(c, NULL))
			return -1;
		return skip(c, nr * per * 8);
	}
	return skip(c, (per + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			!!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)) * 8);
}

static int regs(struct cur *c, uint64_t mask)
{
	uint64_t abi;

	if (u64(c, &abi) < 0)
		return -1;
	return abi ? skip(c, (uint64_t)__builtin_popcountll(mask) * 8) : 0;
}

/* From BRANCH_STACK to PHYS_ADDR. */
static int tail(struct cur *c, const struct sample_layout *l, struct pd_sample *s)
{
	uint64_t st = l->sample_type, v;

	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (u64(c, &v) || v > 65536)
			return -1;
		if ((l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && u64(c, NULL))
			return -1;
		if (skip(c, v * 24))
			return -1;
	}
	if ((st & PERF_SAMPLE_REGS_USER) && regs(c, l->regs_user))
		return -1;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (u64(c, &v) || skip(c, v) || (v && u64(c, NULL)))
			return -1;
	}
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && u64(c, &s->weight))
		return -1;
	if ((st & PERF_SAMPLE_DATA_SRC) && u64(c, &s->data_src))
		return -1;
	if ((st & PERF_SAMPLE_TRANSACTION) && u64(c, &s->transaction))
		return -1;
	if ((st & PERF_SAMPLE_REGS_INTR) && regs(c, l->regs_intr))
		return -1;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && u64(c, &s->phys_addr))
		return -1;
	return 0;
}

int sample_decode_tail(const struct sample_layout *l, const uint8_t *p, const uint8_t *end,
		       struct pd_sample *s)
{
	struct cur c = { p, end };

	return tail(&c, l, s);
}

/* From READ on, where a field of variable size comes before RAW (sample_decode's slow path). */
int sample_decode_rest(const struct sample_layout *l, const uint8_t *p, const uint8_t *end,
		       struct pd_sample *s)
{
	struct cur c = { p, end };
	uint64_t st = l->sample_type, v;

	s->raw = NULL;
	s->raw_size = 0;
	s->callchain = NULL;
	s->callchain_nr = 0;
	s->weight = s->data_src = s->transaction = s->phys_addr = 0;
	if ((st & PERF_SAMPLE_READ) && read_format(&c, l->read_format))
		return -1;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		/* nr, then nr entries: a hostile nr fails the bound or the bytes left */
		if (u64(&c, &v) || v > SAMPLE_CALLCHAIN_MAX)
			return -1;
		s->callchain = c.p;
		if (skip(&c, v * 8))
			return -1;
		s->callchain_nr = (uint32_t)v;
	}
	if ((st & PERF_SAMPLE_RAW) && !(c.p = sample_raw(c.p, c.end, s)))
		return -1;
	if ((st & SAMPLE_TAIL) && tail(&c, l, s))
		return -1;
	return 0;
}
