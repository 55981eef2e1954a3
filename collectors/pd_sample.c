/* pd_sample.c - PERF_RECORD_SAMPLE in the kernel's field order, every field bounds-checked. */
#include <string.h>

#include "perfdata.h"

struct cur {
	const uint8_t *p, *end;
};

static int u64(struct cur *c, uint64_t *v)
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

/* The attribute a sample belongs to. */
static const struct pd_attr *attr_of(struct pd_file *f, const struct pd_record *rec)
{
	const struct pd_attr *first = &f->attrs[0];
	uint64_t st = first->attr.sample_type, id;
	struct cur c = { rec->data + 8, rec->data + rec->size };
	uint32_t *idx;

	if (f->nattrs == 1)
		return first;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		if (u64(&c, &id) < 0)
			return NULL;
	} else if (st & PERF_SAMPLE_ID) {
		/* without IDENTIFIER, perf requires the same layout up to ID */
		if (((st & PERF_SAMPLE_IP) && u64(&c, NULL)) || ((st & PERF_SAMPLE_TID) && u64(&c, NULL)) ||
		    ((st & PERF_SAMPLE_TIME) && u64(&c, NULL)) ||
		    ((st & PERF_SAMPLE_ADDR) && u64(&c, NULL)) || u64(&c, &id))
			return NULL;
	} else {
		return first;
	}
	idx = u64map_get(&f->ids, id);
	return idx ? &f->attrs[*idx] : NULL;
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

int pd_parse_sample(struct pd_file *f, const struct pd_record *rec, struct pd_sample *s)
{
	struct cur c = { rec->data + 8, rec->data + rec->size };
	const struct pd_attr *a;
	uint64_t st, v;

	memset(s, 0, sizeof(*s));
	if (f->nattrs == 0) {
		snprintf(f->err, sizeof(f->err), "sample before any event attribute at offset %llu",
			 (unsigned long long)rec->offset);
		return -1;
	}
	a = attr_of(f, rec);
	if (!a) {
		snprintf(f->err, sizeof(f->err), "sample with an unknown event id at offset %llu",
			 (unsigned long long)rec->offset);
		return -1;
	}
	s->attr = a;
	st = s->sample_type = a->attr.sample_type;
	if ((st & PERF_SAMPLE_IDENTIFIER) && u64(&c, &s->id))
		goto short_record;
	if ((st & PERF_SAMPLE_IP) && u64(&c, &s->ip))
		goto short_record;
	if (st & PERF_SAMPLE_TID) {
		if (u64(&c, &v))
			goto short_record;
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if ((st & PERF_SAMPLE_TIME) && u64(&c, &s->time))
		goto short_record;
	if ((st & PERF_SAMPLE_ADDR) && u64(&c, &s->addr))
		goto short_record;
	if ((st & PERF_SAMPLE_ID) && u64(&c, &s->id))
		goto short_record;
	if ((st & PERF_SAMPLE_STREAM_ID) && u64(&c, NULL))
		goto short_record;
	if (st & PERF_SAMPLE_CPU) {
		if (u64(&c, &v))
			goto short_record;
		s->cpu = (uint32_t)v;
	}
	if ((st & PERF_SAMPLE_PERIOD) && u64(&c, &s->period))
		goto short_record;
	if ((st & PERF_SAMPLE_READ) && read_format(&c, a->attr.read_format))
		goto short_record;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (u64(&c, &v) || v > 65536 || skip(&c, v * 8))
			goto short_record;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n;

		if (c.end - c.p < 4)
			goto short_record;
		memcpy(&n, c.p, 4);
		c.p += 4;
		if ((uint64_t)(c.end - c.p) < n)
			goto short_record;
		s->raw = c.p;
		s->raw_size = n;
		c.p += n;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (u64(&c, &v) || v > 65536)
			goto short_record;
		if ((a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && u64(&c, NULL))
			goto short_record;
		if (skip(&c, v * 24))
			goto short_record;
	}
	if ((st & PERF_SAMPLE_REGS_USER) && regs(&c, a->attr.sample_regs_user))
		goto short_record;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (u64(&c, &v) || skip(&c, v) || (v && u64(&c, NULL)))
			goto short_record;
	}
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && u64(&c, &s->weight))
		goto short_record;
	if ((st & PERF_SAMPLE_DATA_SRC) && u64(&c, &s->data_src))
		goto short_record;
	if ((st & PERF_SAMPLE_TRANSACTION) && u64(&c, &s->transaction))
		goto short_record;
	if ((st & PERF_SAMPLE_REGS_INTR) && regs(&c, a->attr.sample_regs_intr))
		goto short_record;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && u64(&c, &s->phys_addr))
		goto short_record;
	s->present = st;
	return 0;
short_record:
	snprintf(f->err, sizeof(f->err), "sample record too short for its fields at offset %llu",
		 (unsigned long long)rec->offset);
	return -1;
}
