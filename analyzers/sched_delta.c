/* sched_delta.c - copies of scheduler results, and what happened between two of them. */
#include "sched_delta.h"

#include <stdlib.h>
#include <string.h>

#include "../common/u64map.h"
#include "../common/util.h"

/* Copy n elements into *dst, reusing its memory when it has room (had elements). */
static void copy_array(void **dst, size_t have, const void *src, size_t n, size_t size)
{
	if (!*dst || have < n) {
		free(*dst);
		*dst = xcalloc(n + 1, size);
	}
	if (n && src)
		memcpy(*dst, src, n * size);
}

/* dst takes src's fields and arrays sized for it; arrays copied when copy (else garbage). */
static void copy_results(struct sched_results *dst, const struct sched_results *src, bool copy,
			 bool cpu_delays)
{
	size_t n = (size_t)src->ncpus, had = dst->wake_matrix ? (size_t)dst->ncpus : 0;
	int tasks_cap = dst->tasks ? dst->ntasks : 0, pairs_cap = dst->npairs;
	struct sched_results keep = *dst;

	/* a snapshot a second of a 512-CPU machine: reuse the memory, fault no new pages */
	*dst = *src;
	dst->wake_matrix = keep.wake_matrix;
	dst->prev_matrix = keep.prev_matrix;
	dst->mig_matrix = keep.mig_matrix;
	dst->cpu = keep.cpu;
	dst->delay_cpu = keep.delay_cpu;
	dst->tasks = keep.tasks;
	dst->pairs = keep.pairs;
	copy_array((void **)&dst->wake_matrix, had * had, copy ? src->wake_matrix : NULL, n * n,
		   sizeof(uint64_t));
	copy_array((void **)&dst->prev_matrix, had * had, copy ? src->prev_matrix : NULL, n * n,
		   sizeof(uint64_t));
	copy_array((void **)&dst->mig_matrix, had * had, copy ? src->mig_matrix : NULL, n * n,
		   sizeof(uint64_t));
	copy_array((void **)&dst->cpu, had, copy ? src->cpu : NULL, n, sizeof(*src->cpu));
	cpu_delays = cpu_delays && !src->no_cpu_delays;
	if (!cpu_delays && dst->delay_cpu && had >= n && !keep.no_cpu_delays)
		memset(dst->delay_cpu, 0, n * sizeof(*dst->delay_cpu));
	copy_array((void **)&dst->delay_cpu, had, cpu_delays && copy ? src->delay_cpu : NULL, n,
		   sizeof(*src->delay_cpu));
	dst->no_cpu_delays = !cpu_delays;
	copy_array((void **)&dst->tasks, (size_t)tasks_cap, src->tasks, (size_t)src->ntasks,
		   sizeof(*src->tasks));
	copy_array((void **)&dst->pairs, (size_t)pairs_cap, src->pairs, (size_t)src->npairs,
		   sizeof(*src->pairs));
}

void sched_results_copy(struct sched_results *dst, const struct sched_results *src)
{
	copy_results(dst, src, true, true);
}

void sched_results_copy_light(struct sched_results *dst, const struct sched_results *src)
{
	copy_results(dst, src, true, false);
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void hist_sub(struct hist *h, const struct hist *a, const struct hist *b)
{
	int lo = -1, hi = -1;

	hist_init(h);
	for (int i = 0; i < HIST_BUCKETS; i++) {
		h->b[i] = sub(a->b[i], b->b[i]);
		if (h->b[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	}
	h->count = sub(a->count, b->count);
	h->sum = a->sum > b->sum ? a->sum - b->sum : 0;
	if (lo < 0)
		return;
	/* the interval's extremes are known to a bucket: clamp to the run's */
	h->min = hist_bucket_low(lo);
	if (h->min < a->min)
		h->min = a->min;
	h->max = hi + 1 < HIST_BUCKETS ? hist_bucket_low(hi + 1) - 1 : UINT64_MAX;
	if (h->max > a->max)
		h->max = a->max;
}

static void sub_array(uint64_t *out, const uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = sub(a[i], b[i]);
}

static void sub_cpu(struct cpu_stat *o, const struct cpu_stat *a, const struct cpu_stat *b)
{
	o->voluntary = sub(a->voluntary, b->voluntary);
	o->involuntary = sub(a->involuntary, b->involuntary);
	o->busy_ns = sub(a->busy_ns, b->busy_ns);
	o->idle_ns = sub(a->idle_ns, b->idle_ns);
	o->tracked_ns = sub(a->tracked_ns, b->tracked_ns);
	o->wakeups_from = sub(a->wakeups_from, b->wakeups_from);
	o->wakeups_to = sub(a->wakeups_to, b->wakeups_to);
	o->migrations_in = sub(a->migrations_in, b->migrations_in);
	o->migrations_out = sub(a->migrations_out, b->migrations_out);
	o->switch_in_missed = sub(a->switch_in_missed, b->switch_in_missed);
	o->switch_in_inferred = sub(a->switch_in_inferred, b->switch_in_inferred);
	o->unknown_ns = sub(a->unknown_ns, b->unknown_ns);
	o->idle_passed = sub(a->idle_passed, b->idle_passed);
}

static void sub_tasks(struct sched_results *out, const struct sched_results *cur,
		      const struct sched_results *prev)
{
	struct u64map idx;
	int n = 0;

	u64map_init(&idx);
	for (int i = 0; i < prev->ntasks; i++)
		u64map_put(&idx, (uint32_t)prev->tasks[i].tid, (uint32_t)i);
	for (int i = 0; i < cur->ntasks; i++) {
		struct task_stat t = cur->tasks[i];
		const uint32_t *k = u64map_get(&idx, (uint32_t)t.tid);

		if (k) {
			const struct task_stat *p = &prev->tasks[*k];

			t.wakeups = sub(t.wakeups, p->wakeups);
			t.migrations = sub(t.migrations, p->migrations);
			t.voluntary = sub(t.voluntary, p->voluntary);
			t.involuntary = sub(t.involuntary, p->involuntary);
			t.run_ns = sub(t.run_ns, p->run_ns);
			t.delays = sub(t.delays, p->delays);
			t.delay_sum_ns = sub(t.delay_sum_ns, p->delay_sum_ns);
		}
		if (t.wakeups || t.migrations || t.voluntary || t.involuntary || t.run_ns)
			out->tasks[n++] = t;
	}
	out->ntasks = n;
	qsort(out->tasks, (size_t)n, sizeof(*out->tasks), sched_task_cmp);
	u64map_release(&idx);
}

static uint64_t pair_key(const struct pair_stat *p)
{
	return (uint64_t)(uint32_t)p->waker_tid << 32 | (uint32_t)p->wakee_tid;
}

static void sub_pairs(struct sched_results *out, const struct sched_results *cur,
		      const struct sched_results *prev)
{
	struct u64map idx;
	int n = 0;

	u64map_init(&idx);
	for (int i = 0; i < prev->npairs; i++)
		u64map_put(&idx, pair_key(&prev->pairs[i]), (uint32_t)i);
	for (int i = 0; i < cur->npairs; i++) {
		struct pair_stat p = cur->pairs[i];
		const uint32_t *k = u64map_get(&idx, pair_key(&p));

		/* counts less what a slot inherited (Space-Saving): a pair that took its slot
		 * in this interval is not credited with its predecessor's count */
		if (k) {
			const struct pair_stat *q = &prev->pairs[*k];

			p.count = sub(sub(p.count, p.over), sub(q->count, q->over));
			p.over = sub(p.over, q->over);
			sub_array(p.by_class, p.by_class, q->by_class, LOC_NR);
		} else {
			p.count = sub(p.count, p.over);
			p.over = 0;
		}
		if (p.count)
			out->pairs[n++] = p;
	}
	out->npairs = n;
	qsort(out->pairs, (size_t)n, sizeof(*out->pairs), sched_pair_cmp);
	u64map_release(&idx);
}

void sched_results_delta(struct sched_results *out, const struct sched_results *cur,
			 const struct sched_results *prev)
{
	size_t n = (size_t)cur->ncpus;
	bool delays = !cur->no_cpu_delays && (!prev || !prev->no_cpu_delays);

	if (!prev || prev->ncpus != cur->ncpus) {
		copy_results(out, cur, true, delays);
		return;
	}
	copy_results(out, cur, false, delays); /* every array is computed below */
	out->first_ns = prev->last_ns ? prev->last_ns : cur->first_ns;
	for (int m = 0; m < SM_NR; m++)
		if (sched_measures[m].flags & MF_DELTA)
			*sched_measure_ptr(out, m) = sub(sched_measure_get(cur, m),
							 sched_measure_get(prev, m));
	out->switch_in_inferred = sub(cur->switch_in_inferred, prev->switch_in_inferred);
	out->unknown_ns = sub(cur->unknown_ns, prev->unknown_ns);
	out->idle_judged_open = sub(cur->idle_judged_open, prev->idle_judged_open);
	out->pairs_wakeups = sub(cur->pairs_wakeups, prev->pairs_wakeups);
	out->pairs_filtered = sub(cur->pairs_filtered, prev->pairs_filtered);
	sub_array(out->wake_matrix, cur->wake_matrix, prev->wake_matrix, n * n);
	sub_array(out->prev_matrix, cur->prev_matrix, prev->prev_matrix, n * n);
	sub_array(out->mig_matrix, cur->mig_matrix, prev->mig_matrix, n * n);
	sub_array(out->by_class, cur->by_class, prev->by_class, LOC_NR);
	sub_array(out->prev_by_class, cur->prev_by_class, prev->prev_by_class, LOC_NR);
	sub_array(out->mig_by_class, cur->mig_by_class, prev->mig_by_class, LOC_NR);
	sub_array(out->placement, cur->placement, prev->placement, PLACE_NR);
	sub_array(out->idle_passed_class, cur->idle_passed_class, prev->idle_passed_class, LOC_NR);
	sub_array(out->idle_closest, cur->idle_closest, prev->idle_closest, LOC_NR);
	sub_array(out->idle_wait_class, cur->idle_wait_class, prev->idle_wait_class, LOC_NR);
	sub_array(out->ipi_class, cur->ipi_class, prev->ipi_class, LOC_NR);
	sub_array(out->no_ipi_class, cur->no_ipi_class, prev->no_ipi_class, LOC_NR);
	sub_array(out->events, cur->events, prev->events, EV_TYPE_NR);
	sub_array(&out->ran_class[0][0], &cur->ran_class[0][0], &prev->ran_class[0][0],
		  LOC_NR * LOC_NR);
	out->ran_moved_within = sub(cur->ran_moved_within, prev->ran_moved_within);
	out->ran_moved_other = sub(cur->ran_moved_other, prev->ran_moved_other);
	hist_sub(&out->delay, &cur->delay, &prev->delay);
	for (int c = 0; c < LOC_NR; c++)
		hist_sub(&out->delay_class[c], &cur->delay_class[c], &prev->delay_class[c]);
	for (size_t c = 0; c < n; c++) {
		if (delays)
			hist_sub(&out->delay_cpu[c], &cur->delay_cpu[c], &prev->delay_cpu[c]);
		sub_cpu(&out->cpu[c], &cur->cpu[c], &prev->cpu[c]);
	}
	sub_tasks(out, cur, prev);
	sub_pairs(out, cur, prev);
}
