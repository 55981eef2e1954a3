/* cacheline.c - the cacheline analyzer: per line and offset, who loaded and stored, HITM. */
#define _GNU_SOURCE
#include "cacheline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define MAX_OFFSETS 128	/* a 128-byte line has at most 128 byte offsets */

void cacheline_init(struct cacheline *c, const struct cacheline_cfg *cfg)
{
	memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	if (c->cfg.line_size != 128)
		c->cfg.line_size = 64;
	u64map_init(&c->idx);
}

static void set_add(struct cl_set *s, uint64_t v)
{
	for (int i = 0; i < s->len; i++)
		if (s->v[i] == v) {
			s->n[i]++;
			return;
		}
	if (s->len < CL_SET_MAX) {
		s->v[s->len] = v;
		s->n[s->len++] = 1;
	} else {
		s->more++;
	}
}

static struct cl_offset *offset_of(struct cl_line *l, uint32_t off)
{
	for (int i = 0; i < l->noff; i++)
		if (l->off[i].offset == off)
			return &l->off[i];
	if (l->noff == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1; /* most lines are touched at one offset */
		l->off = xrealloc(l->off, (size_t)l->cap * sizeof(*l->off));
	}
	memset(&l->off[l->noff], 0, sizeof(l->off[0]));
	l->off[l->noff].offset = off;
	return &l->off[l->noff++];
}

static int node_of(const struct cacheline *c, int32_t cpu)
{
	const struct topology *t = c->cfg.topo;

	if (!t || cpu < 0 || cpu >= t->ncpus)
		return -1;
	return t->cpu[cpu].node;
}

/* One placed sample into its line and offset. */
static void add_to_line(struct cacheline *c, struct cl_line *l, const struct cl_single *x,
			const struct mem_stats *one)
{
	struct cl_offset *o;
	int node;

	mem_stats_merge(&l->st, one);
	o = offset_of(l, x->offset);
	mem_stats_merge(&o->st, one);
	set_add(&o->tids, (uint64_t)(uint32_t)x->tid);
	set_add(&o->cpus, (uint64_t)(uint32_t)x->cpu);
	set_add(&o->ips, x->ip);
	if (one->stores)
		set_add(&o->writers, (uint64_t)(uint32_t)x->tid);
	if (one->loads && x->weight) {
		o->lat_sum += x->weight;
		o->lat_n++;
	}
	node = node_of(c, x->cpu);
	if (node >= 0 && node < 64) {
		o->nodes |= 1ull << node;
		l->nodes |= 1ull << node;
	}
}

static void single_stats(const struct cl_single *x, struct mem_stats *one)
{
	memset(one, 0, sizeof(*one));
	mem_stats_add(one, x->data_src, x->addr + x->offset);
}

#define SINGLE 0x80000000u	/* in the index: a single, not a line */

/* A detailed line from a single (appended; the index is the caller's). */
static struct cl_line *detail(struct cacheline *c, const struct cl_single *x)
{
	struct mem_stats one;
	struct cl_line *l;

	if (c->nlines == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->lines = xrealloc(c->lines, (size_t)c->cap * sizeof(*c->lines));
	}
	l = &c->lines[c->nlines++];
	memset(l, 0, sizeof(*l));
	l->addr = x->addr;
	single_stats(x, &one);
	add_to_line(c, l, x, &one);
	return l;
}

void cacheline_add(struct cacheline *c, const struct event *e)
{
	struct mem_stats one = { 0 };
	struct cl_single x;
	struct cl_line *l;
	uint32_t *i;

	if (e->type != EV_MEM)
		return;
	if (mem_stats_add(&one, e->mem.data_src, e->mem.addr) < 0) {
		mem_stats_merge(&c->total, &one); /* counted as unplaceable, never guessed */
		return;
	}
	mem_stats_merge(&c->total, &one);
	c->placed++;
	x.addr = e->mem.addr & ~(uint64_t)(c->cfg.line_size - 1);
	x.data_src = e->mem.data_src;
	x.ip = e->mem.ip;
	x.weight = e->mem.weight;
	x.offset = (uint32_t)(e->mem.addr - x.addr);
	x.tid = e->tid;
	x.cpu = e->cpu;
	x.flags = (one.lcl_hitm ? CL_S_LCL_HITM : 0) | (one.rmt_hitm ? CL_S_RMT_HITM : 0) |
		  (one.stores ? CL_S_STORE : 0);
	i = u64map_get(&c->idx, x.addr);
	if (!i) { /* first seen: kept as the sample itself */
		if (c->nsingles == c->cap_singles) {
			c->cap_singles = c->cap_singles ? c->cap_singles * 2 : 256;
			c->singles = xrealloc(c->singles, (size_t)c->cap_singles * sizeof(*c->singles));
		}
		c->singles[c->nsingles] = x;
		u64map_put(&c->idx, x.addr, (uint32_t)c->nsingles++ | SINGLE);
		return;
	}
	if (*i & SINGLE) { /* a second sample: the line gets its details */
		uint32_t k = *i & ~SINGLE;

		l = detail(c, &c->singles[k]);
		u64map_put(&c->idx, x.addr, (uint32_t)(c->nlines - 1));
		c->singles[k] = c->singles[--c->nsingles];
		if (k < (uint32_t)c->nsingles)
			u64map_put(&c->idx, c->singles[k].addr, k | SINGLE);
	} else {
		l = &c->lines[*i];
	}
	add_to_line(c, l, &x, &one);
}

int cacheline_count(const struct cacheline *c)
{
	return c->nlines + c->nsingles;
}

uint64_t cl_line_hitm(const struct cacheline *c, const struct cl_line *l)
{
	switch (c->cfg.sort) {
	case CL_SORT_LOCAL:
		return l->st.lcl_hitm;
	case CL_SORT_REMOTE:
		return l->st.rmt_hitm;
	default:
		return mem_stats_hitm(&l->st);
	}
}

static enum cl_verdict decide(const struct cacheline *c, const struct cl_line *l)
{
	bool true_sharing = false, false_sharing = false;

	if (l->st.loads + l->st.stores < c->cfg.min_samples)
		return CL_TOO_FEW;
	for (int i = 0; i < l->noff; i++) {
		const struct cl_set *w = &l->off[i].writers;

		if (w->len > 1)
			true_sharing = true;
		for (int j = 0; j < l->noff && !false_sharing; j++) {
			const struct cl_set *x = &l->off[j].writers;

			if (i == j || !w->len || !x->len)
				continue;
			/* two offsets, each written, not by one and the same single thread */
			if (w->len > 1 || x->len > 1 || w->v[0] != x->v[0])
				false_sharing = true;
		}
	}
	if (false_sharing && true_sharing)
		return CL_BOTH;
	if (false_sharing)
		return CL_FALSE_SHARING;
	if (true_sharing)
		return CL_TRUE_SHARING;
	if (l->st.stores * 20 <= l->st.loads)
		return CL_READ_MOSTLY;
	return CL_PRIVATE;
}

static int by_hitm(const void *a, const void *b, void *arg)
{
	const struct cacheline *c = arg;
	const struct cl_line *x = a, *y = b;
	uint64_t hx = cl_line_hitm(c, x), hy = cl_line_hitm(c, y);

	if (hx != hy)
		return hx < hy ? 1 : -1;
	if (x->st.samples != y->st.samples)
		return x->st.samples < y->st.samples ? 1 : -1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int by_offset(const void *a, const void *b)
{
	const struct cl_offset *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* A single's HITM by the ranking's measure, from the flags (no decoding again). */
static uint64_t single_hitm(const struct cacheline *c, const struct cl_single *x)
{
	unsigned want = c->cfg.sort == CL_SORT_LOCAL ? CL_S_LCL_HITM :
			c->cfg.sort == CL_SORT_REMOTE ? CL_S_RMT_HITM : CL_S_LCL_HITM | CL_S_RMT_HITM;

	return (x->flags & want) != 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct cl_single *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

void cacheline_finish(struct cacheline *c)
{
	int k = 0, want;

	/* a single with a HITM ranks by it: detailed, as every line that can outrank another */
	for (int i = 0; i < c->nsingles; i++) {
		if (single_hitm(c, &c->singles[i]))
			detail(c, &c->singles[i]);
		else
			c->singles[k++] = c->singles[i];
	}
	c->nsingles = k;
	/* the rest rank last (no HITM, one sample), by address: the first of them detailed
	 * up to CL_DETAILED lines, so that every report's head has its details */
	if (c->nsingles)
		qsort(c->singles, (size_t)c->nsingles, sizeof(*c->singles), by_addr);
	for (int i = 0; i < c->nlines; i++) {
		struct cl_line *l = &c->lines[i];

		if (l->noff)
			qsort(l->off, (size_t)l->noff, sizeof(*l->off), by_offset);
		l->verdict = decide(c, l);
	}
	if (c->nlines)
		qsort_r(c->lines, (size_t)c->nlines, sizeof(*c->lines), by_hitm, c);
	want = CL_DETAILED - c->nlines;
	want = want < 0 ? 0 : want > c->nsingles ? c->nsingles : want;
	for (int i = 0; i < want; i++) {
		struct cl_line *l = detail(c, &c->singles[i]);

		qsort(l->off, (size_t)l->noff, sizeof(*l->off), by_offset);
		l->verdict = decide(c, l);
	}
	if (want)
		memmove(c->singles, c->singles + want,
			(size_t)(c->nsingles - want) * sizeof(*c->singles));
	c->nsingles -= want;
	/* the index no longer matches the order */
	u64map_release(&c->idx);
	u64map_init(&c->idx);
}

void cacheline_release(struct cacheline *c)
{
	for (int i = 0; i < c->nlines; i++)
		free(c->lines[i].off);
	free(c->lines);
	free(c->singles);
	u64map_release(&c->idx);
	memset(c, 0, sizeof(*c));
}

const char *cl_verdict_name(enum cl_verdict v)
{
	static const char *const n[CL_VERDICT_NR] = { "false_sharing", "true_sharing",
						      "false_and_true_sharing", "read_mostly",
						      "private", "too_few_samples" };

	return v < CL_VERDICT_NR ? n[v] : "?";
}

/* "tid 2101 on node 0" for the main writer of an offset. */
static void who(const struct cacheline *c, const struct cl_offset *o, char *buf, size_t len)
{
	int best = 0;
	int node;

	for (int i = 1; i < o->writers.len; i++)
		if (o->writers.n[i] > o->writers.n[best])
			best = i;
	node = o->cpus.len ? node_of(c, (int32_t)o->cpus.v[0]) : -1;
	if (o->writers.len > 1)
		snprintf(buf, len, "%d threads", o->writers.len + (o->writers.more ? 1 : 0));
	else if (node >= 0)
		snprintf(buf, len, "tid %d on node %d", (int)o->writers.v[best], node);
	else
		snprintf(buf, len, "tid %d", (int)o->writers.v[best]);
}

void cl_verdict_text(const struct cacheline *c, const struct cl_line *l, char *buf, size_t len)
{
	size_t o = 0;
	int shown = 0;
	char w[64];

	switch (l->verdict) {
	case CL_FALSE_SHARING:
	case CL_BOTH:
		o += (size_t)snprintf(buf, len, "%s: ",
				      l->verdict == CL_BOTH ? "false and true sharing" : "false sharing");
		for (int i = 0; i < l->noff && o < len; i++) {
			if (!l->off[i].writers.len)
				continue;
			who(c, &l->off[i], w, sizeof(w));
			o += (size_t)snprintf(buf + o, len - o, "%s+0x%x written by %s",
					      shown ? (shown + 1 == l->noff ? " and " : ", ") : "",
					      l->off[i].offset, w);
			shown++;
		}
		return;
	case CL_TRUE_SHARING:
		for (int i = 0; i < l->noff; i++)
			if (l->off[i].writers.len > 1) {
				who(c, &l->off[i], w, sizeof(w));
				snprintf(buf, len, "true sharing: +0x%x written by %s",
					 l->off[i].offset, w);
				return;
			}
		break;
	case CL_READ_MOSTLY:
		snprintf(buf, len, "read-mostly: %llu loads, %llu stores",
			 (unsigned long long)l->st.loads, (unsigned long long)l->st.stores);
		return;
	case CL_TOO_FEW:
		snprintf(buf, len, "no verdict: %llu samples, fewer than the %u a verdict needs",
			 (unsigned long long)(l->st.loads + l->st.stores), c->cfg.min_samples);
		return;
	default:
		break;
	}
	snprintf(buf, len, "private: written by one thread");
}

static bool summary_before(const struct cl_summary *a, const struct cl_summary *b)
{
	return a->hitm != b->hitm ? a->hitm > b->hitm : a->stores > b->stores;
}

/* s into the top max of out (n so far), in summary_before order. */
static int top_insert(struct cl_summary *out, int n, int max, const struct cl_summary *s)
{
	int at;

	if (n == max && !summary_before(s, &out[max - 1]))
		return n;
	at = n < max ? n : max - 1;
	while (at > 0 && summary_before(s, &out[at - 1])) {
		out[at] = out[at - 1];
		at--;
	}
	out[at] = *s;
	return n < max ? n + 1 : n;
}

int cacheline_top(const struct cacheline *c, struct cl_summary *out, int max)
{
	int n = 0;

	for (int i = 0; i < c->nlines && max > 0; i++) {
		const struct cl_line *l = &c->lines[i];
		struct cl_summary s = { l->addr, cl_line_hitm(c, l), l->st.lcl_hitm, l->st.rmt_hitm,
					l->st.loads, l->st.stores, l->noff, 0 };

		if (!s.hitm && !s.stores)
			continue;
		for (int k = 0; k < l->noff; k++)
			s.writers += (uint64_t)l->off[k].writers.len;
		n = top_insert(out, n, max, &s);
	}
	for (int i = 0; i < c->nsingles && max > 0; i++) { /* lines sampled once */
		const struct cl_single *x = &c->singles[i];
		struct cl_line l;
		struct cl_summary s;

		if (!x->flags)
			continue; /* neither a HITM nor a store: never shown (most of them) */
		memset(&l, 0, sizeof(l));
		single_stats(x, &l.st);
		s = (struct cl_summary){ x->addr, cl_line_hitm(c, &l), l.st.lcl_hitm, l.st.rmt_hitm,
					 l.st.loads, l.st.stores, 1, l.st.stores ? 1 : 0 };
		if (!s.hitm && !s.stores)
			continue;
		n = top_insert(out, n, max, &s);
	}
	return n;
}
