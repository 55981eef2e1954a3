/* blame_tables.c - the blame analyzer's tables: the p99 wakeups' share, the worst chains,
 * the culprits and handlers sorted (blame.h). */
#include "blame.h"
#include "blame_int.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void bl_p99_add(struct blame *b, const uint64_t ns[BC_NR], uint64_t wait,
		const struct bl_mine *mine, int n)
{
	struct bl_p99 *p = b->p99;
	struct bl_wk *w;

	if (p->over)
		return;
	if (p->nwk == BLAME_P99_MAX) { /* the memory bound: said, not sampled */
		p->over = true;
		free(p->wk);
		free(p->ran);
		p->wk = NULL;
		p->ran = NULL;
		return;
	}
	if (p->nwk == p->cap_wk) {
		p->cap_wk = p->cap_wk ? 2 * p->cap_wk : 1024;
		p->wk = xrealloc(p->wk, p->cap_wk * sizeof(*p->wk));
	}
	if (p->nran + (size_t)n > p->cap_ran) {
		while (p->nran + (size_t)n > p->cap_ran)
			p->cap_ran = p->cap_ran ? 2 * p->cap_ran : 1024;
		p->ran = xrealloc(p->ran, p->cap_ran * sizeof(*p->ran));
	}
	w = &p->wk[p->nwk++];
	w->wait_ns = wait;
	memcpy(w->ns, ns, sizeof(w->ns));
	w->first = (uint32_t)p->nran;
	w->n = (uint32_t)n;
	for (int i = 0; i < n; i++)
		p->ran[p->nran++] = (struct bl_ran){ mine[i].culprit, mine[i].ns };
}

/* A chain of three tasks or more among the worst, by compound delay. */
void bl_chain_offer(struct blame *b, const struct bl_path *p, uint64_t run_ns)
{
	struct blame_results *r = &b->r;
	struct blame_chain c = { 0 };
	int at;

	r->chain_len[p->n]++;
	if (p->n < 3)
		return;
	c.len = p->n;
	c.run_ns = run_ns;
	memcpy(c.link, p->link, sizeof(c.link));
	for (int i = 0; i < p->n; i++)
		c.compound_ns += p->link[i].delay_ns;
	if (r->nworst < BLAME_WORST)
		at = r->nworst++;
	else if (r->worst[BLAME_WORST - 1].compound_ns >= c.compound_ns)
		return;
	else
		at = BLAME_WORST - 1;
	while (at > 0 && r->worst[at - 1].compound_ns < c.compound_ns) {
		r->worst[at] = r->worst[at - 1];
		at--;
	}
	r->worst[at] = c;
}

static int by_wait_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The p99 wakeups: every timed wakeup whose wait is at least the 99th percentile (the
 * smallest wait w with 99% of the waits <= w). */
static void p99_share(struct blame *b)
{
	struct bl_p99 *p = b->p99;
	struct blame_results *r = &b->r;
	uint64_t *w;
	size_t rank;

	if (p->over || !p->nwk)
		return;
	w = xmalloc(p->nwk * sizeof(*w));
	for (size_t i = 0; i < p->nwk; i++)
		w[i] = p->wk[i].wait_ns;
	qsort(w, p->nwk, sizeof(*w), by_wait_desc);
	rank = p->nwk - (p->nwk * 99 + 99) / 100; /* ceil(0.99 n) - 1 from the top */
	r->p99_ns = w[rank];
	free(w);
	r->p99_known = true;
	for (size_t i = 0; i < p->nwk; i++) {
		const struct bl_wk *k = &p->wk[i];

		if (k->wait_ns < r->p99_ns)
			continue;
		r->p99_wakeups++;
		for (int c = 0; c < BC_NR; c++) {
			r->p99_ns_by[c] += k->ns[c];
			r->p99_wait_ns += k->ns[c];
		}
		for (uint32_t j = 0; j < k->n; j++)
			r->culprits[p->ran[k->first + j].culprit].p99_ns += p->ran[k->first + j].ns;
	}
}

static int culprit_cmp(const void *a, const void *b)
{
	const struct blame_culprit *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int irq_cmp(const void *a, const void *b)
{
	const struct blame_irq *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if (x->soft != y->soft)
		return x->soft ? 1 : -1;
	return x->num < y->num ? -1 : x->num > y->num;
}

void bl_tables_finish(struct blame *b)
{
	struct blame_results *r = &b->r;

	p99_share(b); /* before the sort: its rows are the culprits' as they were made */
	if (r->nculprits)
		qsort(r->culprits, (size_t)r->nculprits, sizeof(*r->culprits), culprit_cmp);
	qsort(r->irqs, (size_t)r->nirqs, sizeof(*r->irqs), irq_cmp);
	tidmap_release(&b->culprit_idx); /* rows moved */
	tidmap_init(&b->culprit_idx);
}
