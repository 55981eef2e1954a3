/*
 * idle_wait.c - the judgements waiting for a CPU's state (idle.h): made when every CPU
 * still idle has shown itself past their runs, in a ring of a cache line each (with
 * hundreds of CPUs and thousands waiting, three whole masks an entry did not stay in the
 * cache).
 */
#include "idle_int.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

_Static_assert(sizeof(struct idle_pend) == 64, "a waiting judgement is one cache line");

static inline uint64_t *pend_masks(const struct idle_track *it, int i)
{
	return it->pend_masks + (size_t)i * 3 * (size_t)it->mask_stride;
}

/* Room for twice the judgements waiting (a power of two), unrolled from the ring's head. */
static void grow_pend(struct idle_track *it)
{
	size_t ms = (size_t)it->mask_stride;
	int cap = it->cap_pend ? 2 * it->cap_pend : 64;
	struct idle_pend *np = xaligned_realloc(NULL, 0, 64, (size_t)cap * sizeof(*np));
	uint64_t *nw = xcalloc((size_t)cap, sizeof(uint64_t));
	uint64_t *nm = xaligned_realloc(NULL, 0, 64, ((size_t)cap * 3 * ms + 1) * sizeof(uint64_t));

	for (int k = 0; k < it->waiting; k++) {
		int j = (it->pend_head + k) & (it->cap_pend - 1);

		np[k] = it->pend[j];
		nw[k] = it->pend_wake[j];
		memcpy(nm + (size_t)k * 3 * ms, pend_masks(it, j), 3 * ms * sizeof(uint64_t));
	}
	free(it->pend);
	free(it->pend_wake);
	free(it->pend_masks);
	it->pend = np;
	it->pend_wake = nw;
	it->pend_masks = nm;
	it->cap_pend = cap;
	it->pend_head = 0;
}

void idle_flip_room(struct idle_track *it)
{
	uint64_t need = it->waiting ? it->head_f : it->flips; /* and IDLE_FLIP_SPAN before */
	int cap = it->cap_flip ? 2 * it->cap_flip : 4 * IDLE_FLIP_SPAN;
	int32_t *n;

	need = need > IDLE_FLIP_SPAN ? need - IDLE_FLIP_SPAN : 0;
	if (need > it->flip_lo) {
		it->flip_lo = need;
		return;
	}
	n = xcalloc((size_t)cap, sizeof(*n));
	for (uint64_t f = it->flip_lo; f < it->flips; f++)
		n[f & (uint64_t)(cap - 1)] = it->flip_cpu[f & (uint64_t)(it->cap_flip - 1)];
	free(it->flip_cpu);
	it->flip_cpu = n;
	it->cap_flip = cap;
}

static inline void flip(uint64_t *m, int c)
{
	m[c / 64] ^= 1ull << (c % 64);
}

/* The changes [from, to) of the idle mask applied to m (each flips a CPU's bit). */
static void replay(const struct idle_track *it, uint64_t *m, uint64_t from, uint64_t to)
{
	for (uint64_t f = from; f < to; f++)
		flip(m, it->flip_cpu[f & (uint64_t)(it->cap_flip - 1)]);
}

void idle_pend_put(struct idle_track *it, const struct idle_q *q, int target_idled)
{
	size_t bytes = (size_t)it->nwords * sizeof(uint64_t), ms = (size_t)it->mask_stride;
	struct idle_pend *p;
	uint64_t *m;
	int i;

	if (!it->waiting) { /* the changes are taken from here */
		memcpy(it->head_run, it->idle, bytes);
		it->head_f = it->flips;
	}
	if (it->waiting == it->cap_pend)
		grow_pend(it);
	i = (it->pend_head + it->waiting++) & (it->cap_pend - 1);
	p = &it->pend[i];
	m = pend_masks(it, i);
	__builtin_prefetch(&it->pend[(i + 8) & (it->cap_pend - 1)], 1); /* written 8 later */
	__builtin_prefetch(&it->pend_wake[(i + 32) & (it->cap_pend - 1)], 1);
	it->pend_wake[i] = q->wake;
	*p = (struct idle_pend){ .run = q->run, .pos_wake = q->pos_wake, .pos_run = q->pos_run,
				 .f_wake = q->f_wake - 1, .f_run = it->flips, .k_wake = q->k_wake,
				 .k_run = q->k_run, .target = q->target, .tag = q->tag,
				 .all = !q->allowed, .target_idled = (int8_t)target_idled };
	if (target_idled >= 0)
		p->ninv = it->hist[q->target].ninv;
	if (it->whole || !q->f_wake || q->f_wake - 1 < it->flip_lo ||
	    it->flips - (q->f_wake - 1) > IDLE_FLIP_SPAN) { /* not known from the changes */
		p->whole |= PEND_WAKE_WHOLE;
		memcpy(m, q->at_wake, bytes);
	}
	if (q->at_run) { /* not now's */
		p->whole |= PEND_RUN_WHOLE;
		memcpy(m + 2 * ms, q->at_run, bytes);
	}
	if (q->allowed)
		memcpy(m + ms, q->allowed, bytes);
}

int idle_pend_take(struct idle_track *it, struct idle_q *q)
{
	size_t bytes = (size_t)it->nwords * sizeof(uint64_t), ms = (size_t)it->mask_stride;
	int i = it->pend_head;
	const struct idle_pend *p = &it->pend[i];
	uint64_t *m = pend_masks(it, i);
	const uint64_t *at_wake = m;
	int target_idled = p->target_idled >= 0 && it->hist[p->target].ninv == p->ninv ?
				   p->target_idled : -1;

	replay(it, it->head_run, it->head_f, p->f_run); /* the mask at its run */
	it->head_f = p->f_run;
	if (target_idled != 1 && !(p->whole & PEND_WAKE_WHOLE)) { /* back through its wait */
		memcpy(it->head_wake, it->head_run, bytes);
		replay(it, it->head_wake, p->f_wake, p->f_run);
		at_wake = it->head_wake;
	}
	*q = (struct idle_q){ it->pend_wake[i], p->run, p->pos_wake, p->pos_run, p->k_wake,
			      p->k_run, p->target, p->tag, p->all ? NULL : m + ms, at_wake,
			      p->whole & PEND_RUN_WHOLE ? m + 2 * ms : it->head_run, 0 };
	return target_idled;
}

void idle_pend_drop(struct idle_track *it)
{
	it->pend_head = (it->pend_head + 1) & (it->cap_pend - 1);
	it->waiting--;
}

/* The lowest last idle event of a CPU still idle (NEVER: none): no judgement of a run
 * after it can be made yet. */
static void watermark(struct idle_track *it)
{
	it->mark = NEVER;
	it->mark_k = 0;
	it->mark_cpu = -1;
	for (int w = 0; w < it->nwords; w++) {
		uint64_t c = it->idle[w];

		while (c) {
			int cpu = w * 64 + __builtin_ctzll(c);

			c &= c - 1;
			if (lt(it->cpu[cpu].seen, it->cpu[cpu].seen_k, it->mark, it->mark_k)) {
				it->mark = it->cpu[cpu].seen;
				it->mark_k = it->cpu[cpu].seen_k;
				it->mark_cpu = cpu;
			}
		}
	}
}

static void add_ready(struct idle_track *it, const struct idle_check *r)
{
	if (it->nready == it->cap_ready) {
		it->cap_ready = it->cap_ready ? 2 * it->cap_ready : 64;
		it->ready = xrealloc(it->ready, (size_t)it->cap_ready * sizeof(*it->ready));
	}
	it->ready[it->nready++] = *r;
}

/* The oldest waiting judgement made (open: CPUs still idle count as idle). */
static void judge_head(struct idle_track *it, bool open)
{
	struct idle_q q;
	struct idle_check r;
	int t_idled = idle_pend_take(it, &q);
	idle_judge_q(it, &q, open, open ? -1 : t_idled, &r);
	add_ready(it, &r);
	idle_pend_drop(it);
}

/* Judge the waiting ones whose runs every CPU's state is now known through. */
void idle_resolve(struct idle_track *it, int cpu)
{
	if (!it->waiting || (cpu != it->mark_cpu && it->mark != NEVER))
		return;
	watermark(it);
	while (it->waiting) {
		uint64_t run;
		uint32_t k;

		idle_pend_run(it, &run, &k);
		if (!le(run, k, it->mark, it->mark_k))
			break;
		judge_head(it, false);
	}
}

/* At most this many judgements wait; beyond, the oldest counts CPUs still idle as idle. */
#define IDLE_MAX_WAITING (1 << 18)

struct idle_check idle_judge(struct idle_track *it, const struct idle_q *q)
{
	struct idle_check r;

	if (!it->waiting && idle_judge_q(it, q, false, -1, &r) < 0)
		return r;
	if (it->waiting >= IDLE_MAX_WAITING) {
		it->judged_open++;
		judge_head(it, true);
	}
	if (!it->waiting)
		watermark(it); /* kept exact from here while any waits */
	idle_pend_put(it, q, it->whole ? -1 : idle_target_idled(it, q));
	r.verdict = IDLE_DEFERRED;
	return r;
}

struct idle_check idle_check(struct idle_track *it, const struct idle_q *q)
{
	struct idle_check r;

	idle_judge_q(it, q, true, -1, &r);
	return r;
}

const struct idle_check *idle_ready(struct idle_track *it, int *n)
{
	*n = it->nready;
	it->nready = 0;
	return it->ready;
}

void idle_flush(struct idle_track *it)
{
	while (it->waiting)
		judge_head(it, true);
}
