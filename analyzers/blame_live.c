/* blame_live.c - the blame analyzer's running totals copied, and two copies' difference
 * (blame_live.h). */
#include "blame_live.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static void reserve(struct blame_live *l, int n)
{
	if (n <= l->cap)
		return;
	l->cap = n > 2 * l->cap ? n : 2 * l->cap;
	l->culprits = xrealloc(l->culprits, (size_t)l->cap * sizeof(*l->culprits));
}

/* dst holds these totals and a copy of the n culprit rows. */
static void set_from(struct blame_live *dst, const struct blame_live *how,
		     const struct blame_split *all, const struct blame_culprit *c, int n)
{
	dst->irq_source = how->irq_source;
	dst->in_kernel = how->in_kernel;
	dst->sample_every = how->sample_every;
	dst->all = *all;
	reserve(dst, n);
	if (n)
		memcpy(dst->culprits, c, (size_t)n * sizeof(*c));
	dst->n = n;
}

void blame_live_from(struct blame_live *dst, const struct blame_results *r)
{
	const struct blame_live how = { .irq_source = r->irq_source, .in_kernel = r->in_kernel,
					.sample_every = r->sample_every };

	set_from(dst, &how, &r->all, r->culprits, r->nculprits);
}

void blame_live_copy(struct blame_live *dst, const struct blame *b)
{
	blame_live_from(dst, blame_results(b)); /* the stream's: not in the kernel, every one */
}

static int by_tid(const void *a, const void *b)
{
	const struct blame_culprit *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct blame_culprit *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return by_tid(a, b);
}

void blame_live_sort(struct blame_live *l)
{
	if (l->n > 1)
		qsort(l->culprits, (size_t)l->n, sizeof(*l->culprits), by_tid);
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void split_sub(struct blame_split *d, const struct blame_split *a,
		      const struct blame_split *b)
{
	d->wakeups = sub(a->wakeups, b->wakeups);
	d->wait_ns = 0;
	for (int c = 0; c < BC_NR; c++) {
		d->ns[c] = sub(a->ns[c], b->ns[c]);
		d->wait_ns += d->ns[c];
	}
	d->idle_passed = sub(a->idle_passed, b->idle_passed);
	d->idle_passed_ns = sub(a->idle_passed_ns, b->idle_passed_ns);
}

void blame_live_delta(struct blame_live *dst, const struct blame_live *cur,
		      const struct blame_live *prev)
{
	static const struct blame_live none;
	int j = 0;

	if (!prev)
		prev = &none;
	dst->irq_source = cur->irq_source;
	dst->in_kernel = cur->in_kernel;
	dst->sample_every = cur->sample_every;
	split_sub(&dst->all, &cur->all, &prev->all);
	reserve(dst, cur->n);
	dst->n = 0;
	for (int i = 0; i < cur->n; i++) { /* both by tid: one merge */
		const struct blame_culprit *c = &cur->culprits[i], *p = NULL;
		struct blame_culprit *d;

		while (j < prev->n && prev->culprits[j].tid < c->tid)
			j++;
		if (j < prev->n && prev->culprits[j].tid == c->tid)
			p = &prev->culprits[j];
		if (p && c->ns <= p->ns && c->wakeups <= p->wakeups)
			continue; /* nothing in the span */
		d = &dst->culprits[dst->n++];
		*d = *c;
		if (p) {
			d->ns = sub(c->ns, p->ns);
			d->running_ns = sub(c->running_ns, p->running_ns);
			d->ahead_ns = sub(c->ahead_ns, p->ahead_ns);
			d->wakeups = sub(c->wakeups, p->wakeups);
		}
		d->p99_ns = 0;
	}
	if (dst->n > 1)
		qsort(dst->culprits, (size_t)dst->n, sizeof(*dst->culprits), by_ns_desc);
}

void blame_live_assign(struct blame_live *dst, const struct blame_live *src)
{
	set_from(dst, src, &src->all, src->culprits, src->n);
}

void blame_live_release(struct blame_live *l)
{
	free(l->culprits);
	memset(l, 0, sizeof(*l));
}
