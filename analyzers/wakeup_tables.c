/*
 * wakeup_tables.c - the wakeup analyzer's task and pair tables as results: copied as
 * they are while the reader waits (wakeup_freeze), sorted and named after it goes on
 * (wakeup_frozen_tables); wakeup_finish does both.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "wakeup.h"
#include "wakeup_int.h"

/* n elements of size sz into *dst (grown to *cap; cache-line aligned, as tasks are), from src. */
static void copy_into(void **dst, int *cap, const void *src, int n, size_t sz)
{
	if (n > *cap) {
		*cap = n + n / 4 + 16;
		*dst = xaligned_realloc(*dst, 0, 64, (size_t)*cap * sz);
	}
	if (n)
		memcpy(*dst, src, (size_t)n * sz);
}

void wakeup_freeze(struct wakeup *w, struct wakeup_frozen *f)
{
	struct sched_results *r = &w->r;
	int cap;

	for (int c = 0; c < r->ncpus; c++)
		wk_account_cpu(w, c, r->last_ns); /* the CPUs' busy and idle time up to now */
	copy_into((void **)&f->tasks, &f->cap_tasks, w->tasks, w->ntasks, sizeof(*w->tasks));
	f->ntasks = w->ntasks;
	copy_into((void **)&f->retired, &f->cap_retired, w->retired.h, w->retired.n,
		  sizeof(*f->retired));
	f->nretired = w->retired.n;
	f->retired_offered = w->retired.offered;
	cap = f->cap_pairs;
	copy_into((void **)&f->pairs, &cap, w->pairs, w->pairk.n, sizeof(*w->pairs));
	cap = f->cap_pairs;
	copy_into((void **)&f->pslot, &cap, w->pairk.slot, w->pairk.n, sizeof(*w->pairk.slot));
	f->cap_pairs = cap;
	f->npairs = w->pairk.n;
	f->pairs_kept = w->pairk.cap;
	f->pairs_bound = topk_bound(&w->pairk);
	f->pairs_evicted = w->pairk.evicted;
	f->pairs_wakeups = w->pairk.total;
	f->pairs_filtered = w->pairk.filtered;
	f->last_ns = r->last_ns;
	f->max_tasks = w->cfg.max_tasks;
}

void wakeup_frozen_tables(const struct wakeup_frozen *f, struct sched_results *r)
{
	int n = 0;

	r->tasks_dropped = 0;
	free(r->tasks);
	r->tasks = xcalloc((size_t)f->ntasks + (size_t)f->nretired + 1, sizeof(*r->tasks));
	for (int i = 0; i < f->ntasks; i++) {
		const struct wk_task *t = &f->tasks[i];

		if (t->retired)
			continue;
		if (!t->tracked)
			continue;
		if (f->max_tasks && n >= f->max_tasks) {
			r->tasks_dropped++; /* the table is full: first come, as in the kernel's */
			continue;
		}
		wk_task_stat(t, &r->tasks[n]);
		if (t->running && f->last_ns > t->on_cpu_since) /* running: up to the last event */
			r->tasks[n].run_ns += f->last_ns - t->on_cpu_since;
		n++;
	}
	for (int i = 0; i < f->nretired; i++) {
		if (f->max_tasks && n >= f->max_tasks) {
			r->tasks_dropped++;
			continue;
		}
		r->tasks[n++] = f->retired[i];
	}
	r->tasks_retired = f->retired_offered;
	r->tasks_retired_kept = f->nretired;
	r->ntasks = n;
	qsort(r->tasks, (size_t)n, sizeof(*r->tasks), sched_task_cmp);
	/* pairs: counts and their bound from the slots, names as at the pair's last wakeup
	 * (perf script's there: a task renamed by exec since keeps the name it woke with) */
	free(r->pairs);
	r->pairs = xcalloc((size_t)f->npairs + 1, sizeof(*r->pairs));
	for (int i = 0; i < f->npairs; i++) {
		struct pair_stat *p = &r->pairs[i];

		*p = f->pairs[i];
		p->count = f->pslot[i].count;
		p->over = f->pslot[i].err;
	}
	r->npairs = f->npairs;
	r->pairs_kept = f->pairs_kept;
	r->pairs_bound = f->pairs_bound;
	r->pairs_evicted = f->pairs_evicted;
	r->pairs_wakeups = f->pairs_wakeups;
	r->pairs_filtered = f->pairs_filtered;
	qsort(r->pairs, (size_t)r->npairs, sizeof(*r->pairs), sched_pair_cmp);
}

void wakeup_frozen_release(struct wakeup_frozen *f)
{
	free(f->tasks);
	free(f->retired);
	free(f->pairs);
	free(f->pslot);
	memset(f, 0, sizeof(*f));
}
