/* pd_sample.c - a perf.data file's sample records: find the attribute, decode through sample.c. */
#include <string.h>

#include "perfdata.h"

static size_t body_len(const struct pd_record *rec)
{
	return rec->size > 8 ? (size_t)rec->size - 8 : 0;
}

/* The attribute a sample belongs to. */
static const struct pd_attr *attr_of(struct pd_file *f, const struct pd_record *rec)
{
	const struct pd_attr *first = &f->attrs[0];
	uint64_t id;
	uint32_t *idx;
	int r;

	if (f->nattrs == 1)
		return first;
	r = sample_id(first->attr.sample_type, rec->data + 8, body_len(rec), &id);
	if (r < 0)
		return NULL;
	if (r == 0)
		return first;
	idx = u64map_get(&f->ids, id);
	return idx ? &f->attrs[*idx] : NULL;
}

int pd_parse_sample(struct pd_file *f, const struct pd_record *rec, struct pd_sample *s)
{
	const struct pd_attr *a;

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
	if (sample_decode(&a->layout, rec->data + 8, body_len(rec), s) < 0) {
		snprintf(f->err, sizeof(f->err),
			 "sample record too short for its fields at offset %llu",
			 (unsigned long long)rec->offset);
		return -1;
	}
	s->attr = a;
	return 0;
}
