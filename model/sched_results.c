/* sched_results.c - the scheduler results: allocation, the measures' table, sort orders. */
#include "sched_results.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

const struct sched_measure sched_measures[SM_NR] = {
#define SCHED_MEASURE(f, g, k, l, fl, d, lp) \
	{ #f, g, k, l, fl, d, lp, offsetof(struct sched_results, f) },
#include "sched_measures.def"
#undef SCHED_MEASURE
};

uint64_t sched_results_dropped(const struct sched_results *r)
{
	uint64_t n = 0;

	for (int m = 0; m < SM_NR; m++)
		if (sched_measures[m].flags & MF_DROP)
			n += sched_measure_get(r, m);
	return n;
}

void sched_sample_of(const struct sched_results *r, struct sched_sample *s)
{
	uint64_t all = r->wakeups > r->delays_untimed ? r->wakeups : r->delays_untimed;

	s->every = r->prov.sample_every > 1 ? r->prov.sample_every : 1;
	s->sampled = r->delays_untimed > 0;
	s->all = all;
	s->timed = all - r->delays_untimed;
	s->fraction = s->sampled && all ? (double)s->timed / (double)all : 1.0;
	s->scale = s->sampled && s->timed ? (double)all / (double)s->timed : 1.0;
}

void sched_results_init(struct sched_results *r, const struct topology *topo)
{
	size_t n = (size_t)topo->ncpus;

	memset(r, 0, sizeof(*r));
	r->ncpus = topo->ncpus;
	r->topo = topo;
	r->wake_matrix = xcalloc(n * n, sizeof(uint64_t));
	r->prev_matrix = xcalloc(n * n, sizeof(uint64_t));
	r->mig_matrix = xcalloc(n * n, sizeof(uint64_t));
	r->cpu = xcalloc(n, sizeof(*r->cpu));
	r->delay_cpu = xcalloc(n, sizeof(*r->delay_cpu));
	hist_init(&r->delay);
	for (int c = 0; c < LOC_NR; c++)
		hist_init(&r->delay_class[c]);
}

void sched_results_release(struct sched_results *r)
{
	free(r->wake_matrix);
	free(r->prev_matrix);
	free(r->mig_matrix);
	free(r->cpu);
	free(r->delay_cpu);
	free(r->tasks);
	free(r->pairs);
	memset(r, 0, sizeof(*r));
}

int sched_task_cmp(const void *a, const void *b)
{
	const struct task_stat *x = a, *y = b;

	if (x->wakeups != y->wakeups)
		return x->wakeups < y->wakeups ? 1 : -1;
	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

int sched_pair_cmp(const void *a, const void *b)
{
	const struct pair_stat *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->waker_tid != y->waker_tid)
		return (x->waker_tid > y->waker_tid) - (x->waker_tid < y->waker_tid);
	return (x->wakee_tid > y->wakee_tid) - (x->wakee_tid < y->wakee_tid);
}

/* a worse than b in the table's order (fewer wakeups, then less run time) */
static bool worse(const struct task_stat *a, const struct task_stat *b)
{
	return sched_task_cmp(a, b) > 0;
}

static void top_swap(struct task_stat *h, int a, int b)
{
	struct task_stat x = h[a];

	h[a] = h[b];
	h[b] = x;
}

void task_top_offer(struct task_top *t, const struct task_stat *st)
{
	struct task_stat *h = t->h;
	int i;

	t->offered++;
	if (!h)
		h = t->h = xcalloc(TASKS_RETIRED_KEPT, sizeof(*h));
	if (t->n < TASKS_RETIRED_KEPT) {
		i = t->n++;
		h[i] = *st;
		for (; i > 0 && worse(&h[i], &h[(i - 1) / 2]); i = (i - 1) / 2)
			top_swap(h, i, (i - 1) / 2);
		return;
	}
	if (!worse(&h[0], st))
		return;
	h[0] = *st;
	for (i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < t->n && worse(&h[l], &h[m]))
			m = l;
		if (r < t->n && worse(&h[r], &h[m]))
			m = r;
		if (m == i)
			break;
		top_swap(h, i, m);
		i = m;
	}
}

void task_top_release(struct task_top *t)
{
	free(t->h);
	memset(t, 0, sizeof(*t));
}
