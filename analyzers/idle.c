/* idle.c - idle periods of each CPU from sched events, and wakeups that passed over one (idle.h). */
#include "idle.h"
#include "idle_int.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

_Static_assert(sizeof(struct idle_cpu) == 64, "a CPU's idle state is one cache line");

static void set_bit(uint64_t *m, int c, bool on)
{
	if (on)
		m[c / 64] |= 1ull << (c % 64);
	else
		m[c / 64] &= ~(1ull << (c % 64));
}

void idle_init(struct idle_track *it, const struct topology *t)
{
	static const enum locality level[3] = { LOC_SMT, LOC_LLC, LOC_NODE };
	int n = t ? t->ncpus : 0;

	memset(it, 0, sizeof(*it));
	it->ncpus = n;
	it->nwords = (n + 63) / 64;
	it->mask_stride = (it->nwords + 7) & ~7; /* whole cache lines */
	it->idle = xcalloc((size_t)it->nwords + 1, sizeof(uint64_t));
	it->known = xcalloc((size_t)it->nwords + 1, sizeof(uint64_t));
	it->hist = xcalloc((size_t)n + 1, sizeof(*it->hist));
	it->cpu = xaligned_realloc(NULL, 0, 64, ((size_t)n + 1) * sizeof(*it->cpu));
	memset(it->cpu, 0, ((size_t)n + 1) * sizeof(*it->cpu));
	it->mark = NEVER;
	it->mark_cpu = -1;
	it->cand = xcalloc((size_t)it->nwords + 1, sizeof(uint64_t));
	it->head_wake = xcalloc((size_t)it->nwords + 1, sizeof(uint64_t));
	it->head_run = xcalloc((size_t)it->nwords + 1, sizeof(uint64_t));
	it->prune_at = 4096;
	/* a mask per group, kept in the row of its first CPU */
	for (int k = 0; k < 3; k++) {
		it->near[k] = xcalloc((size_t)n * (size_t)it->nwords + 1, sizeof(uint64_t));
		it->leader[k] = xcalloc((size_t)n + 1, sizeof(int));
		for (int a = 0; a < n; a++) {
			int ga = topology_group(t, a, level[k]), first = 0;

			while (ga >= 0 && topology_group(t, first, level[k]) != ga)
				first++;
			it->leader[k][a] = ga >= 0 ? first : -1;
			if (ga >= 0)
				set_bit(it->near[k] + (size_t)first * (size_t)it->nwords, a, true);
		}
		it->span_w[k] = xcalloc(2 * (size_t)n + 1, sizeof(int));
		for (int a = 0; a < n; a++) { /* the words a group's mask uses */
			const uint64_t *m = it->near[k] + (size_t)a * (size_t)it->nwords;
			int lo = 0, hi = it->nwords;

			while (lo < hi && !m[lo])
				lo++;
			while (hi > lo && !m[hi - 1])
				hi--;
			it->span_w[k][2 * a] = lo;
			it->span_w[k][2 * a + 1] = hi;
		}
	}
}

void idle_release(struct idle_track *it)
{
	for (int c = 0; c < it->ncpus; c++) {
		free(it->cpu[c].p);
	}
	free(it->cpu);
	free(it->hist);
	free(it->idle);
	free(it->known);
	free(it->log_cpu);
	free(it->log_t);
	free(it->pend);
	free(it->pend_wake);
	free(it->pend_masks);
	free(it->flip_cpu);
	free(it->head_wake);
	free(it->head_run);
	free(it->ready);
	free(it->cand);
	free(it->span);
	for (int k = 0; k < 3; k++) {
		free(it->near[k]);
		free(it->leader[k]);
		free(it->span_w[k]);
	}
	memset(it, 0, sizeof(*it));
}

void idle_snapshot(const struct idle_track *it, uint64_t *snap)
{
	memcpy(snap, it->idle, (size_t)it->nwords * sizeof(uint64_t));
}

/* A change of cpu's state applied at now: one at a time before its newest is counted (what
 * was known of its past may change: idle_hist.ninv). */
static inline void note_time(struct idle_track *it, int cpu, uint64_t now)
{
	struct idle_hist *h = &it->hist[cpu];

	if (now < h->newest)
		h->ninv++;
	else
		h->newest = now;
}

void idle_enter(struct idle_track *it, int cpu, uint64_t now)
{
	struct idle_cpu *ic;

	if (cpu < 0 || cpu >= it->ncpus)
		return;
	note_time(it, cpu, now);
	ic = &it->cpu[cpu];
	set_bit(it->known, cpu, true);
	if (BIT(it->idle, cpu)) {
		if (lt(ic->seen, ic->seen_k, now, it->tick)) {
			ic->seen = now;
			ic->seen_k = it->tick;
			idle_resolve(it, cpu);
		}
		return;
	}
	set_bit(it->idle, cpu, true);
	idle_flip(it, cpu);
	ic->from = ic->seen = now;
	ic->from_k = ic->seen_k = it->tick;
	if (it->log_n == it->log_cap) {
		it->log_cap = it->log_cap ? 2 * it->log_cap : 1024;
		it->log_cpu = xrealloc(it->log_cpu, (size_t)it->log_cap * sizeof(*it->log_cpu));
		it->log_t = xrealloc(it->log_t, (size_t)it->log_cap * sizeof(*it->log_t));
	}
	it->log_cpu[it->log_n] = cpu;
	it->log_t[it->log_n++] = now;
	it->stored++;
}

uint64_t idle_leave(struct idle_track *it, int cpu, uint64_t now, bool recorded)
{
	struct idle_cpu *ic;
	struct idle_hist *h;
	uint64_t end;
	uint32_t end_k;

	if (cpu < 0 || cpu >= it->ncpus)
		return 0;
	note_time(it, cpu, now);
	ic = &it->cpu[cpu];
	set_bit(it->known, cpu, true);
	if (!BIT(it->idle, cpu))
		return 0;
	recorded = recorded || lt(now, it->tick, ic->seen, ic->seen_k);
	end = recorded ? now : ic->seen;
	end_k = recorded ? it->tick : ic->seen_k;
	h = &it->hist[cpu];
	if (ic->n == h->cap) {
		if (ic->head > ic->n / 2) { /* most of it pruned: move the rest down */
			memmove(ic->p, ic->p + ic->head, (size_t)(ic->n - ic->head) * sizeof(*ic->p));
			ic->n -= ic->head;
			h->hint -= ic->head;
			h->unsorted -= ic->head;
			ic->head = 0;
		} else {
			h->cap = h->cap ? 2 * h->cap : 16;
			ic->p = xrealloc(ic->p, (size_t)h->cap * sizeof(*ic->p));
		}
	}
	if (ic->n > ic->head && lt(ic->from, ic->from_k, ic->last.from, ic->last.from_k))
		h->unsorted = ic->n;
	ic->last = (struct idle_span){ ic->from, end, ic->from_k, end_k };
	ic->p[ic->n++] = ic->last;
	it->stored++;
	set_bit(it->idle, cpu, false);
	idle_flip(it, cpu);
	idle_resolve(it, cpu);
	return now - end;
}

/* Index of the last closed period of cpu that began at or before (x, xk), or head - 1. Judgements
 * come in run order: the search gallops from where the last one on this CPU ended. Periods
 * out of order (a stream not sorted by time) get the plain binary search, whose answer
 * then depends on its steps. */
static int period_before(struct idle_track *it, int c, uint64_t x, uint32_t xk)
{
	const struct idle_cpu *ic = &it->cpu[c];
	const struct idle_span *p = ic->p;
	struct idle_hist *h = &it->hist[c];
	int i = h->hint < ic->head ? ic->head : h->hint >= ic->n ? ic->n - 1 : h->hint;
	int lo, hi, j, step = 1; /* [head, lo) begin at or before x, [hi, n) after it */

	if (ic->n <= ic->head)
		return ic->head - 1;
	if (h->unsorted > ic->head) {
		lo = ic->head;
		hi = ic->n;
	} else if (le(p[i].from, p[i].from_k, x, xk)) {
		lo = i + 1;
		for (j = lo; j < ic->n && le(p[j].from, p[j].from_k, x, xk);
		     j = lo - 1 + (step *= 2))
			lo = j + 1;
		hi = j < ic->n ? j : ic->n;
	} else {
		hi = i;
		for (j = hi - 1; j >= ic->head && lt(x, xk, p[j].from, p[j].from_k);
		     j = hi - (step *= 2))
			hi = j;
		lo = j < ic->head ? ic->head : j + 1;
	}
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (le(p[mid].from, p[mid].from_k, x, xk))
			lo = mid + 1;
		else
			hi = mid;
	}
	h->hint = lo - 1;
	return lo - 1;
}

/* Whether cpu c was idle at instant x and stayed so through y (x at or before y): its
 * known periods (one still open lasts to its last idle event, or through y when open). */
static bool idle_through(struct idle_track *it, int c, uint64_t x, uint32_t xk, uint64_t y,
			 uint32_t yk, bool open)
{
	const struct idle_cpu *ic = &it->cpu[c];
	int i;

	if (BIT(it->idle, c) && le(ic->from, ic->from_k, x, xk))
		return open || le(y, yk, ic->seen, ic->seen_k);
	if (ic->n <= ic->head)
		return false;
	/* mostly about its last period: no search then */
	if (le(ic->last.from, ic->last.from_k, x, xk))
		return le(y, yk, ic->last.to, ic->last.to_k);
	i = period_before(it, c, x, xk);
	return i >= ic->head && le(y, yk, ic->p[i].to, ic->p[i].to_k);
}

/*
 * idle_int.h. Whether the target of q idled from its wakeup through its run, if known for
 * good now:
 * 1, 0; -1 when what a later judgement finds may differ (a period still open matters, a
 * change of its state at or after the run not yet seen, or its periods out of order, or
 * the open one to be put out of order when it ends).
 * Only a change applied at a time before the CPU's newest (idle_hist.ninv) or a prune
 * forced back (IDLE_KEEP_NS) can change it after: what idle_through finds later.
 */
int idle_target_idled(struct idle_track *it, const struct idle_q *q)
{
	int t = q->target;
	const struct idle_cpu *ic;
	const struct idle_hist *h;

	if (t < 0 || t >= it->ncpus || !BIT(it->known, t) || q->run < q->wake)
		return -1;
	ic = &it->cpu[t];
	h = &it->hist[t];
	if (h->newest < q->run || h->unsorted > ic->head)
		return -1;
	if (BIT(it->idle, t) && le(ic->from, ic->from_k, q->wake, q->k_wake)) /* open: */
		return le(q->run, q->k_run, ic->seen, ic->seen_k) && /* it ends at or after seen */
		       (ic->n <= ic->head || !lt(ic->from, ic->from_k, ic->last.from, ic->last.from_k)) ?
			       1 : -1; /* (kept in order: idle_leave) */
	return idle_through(it, t, q->wake, q->k_wake, q->run, q->k_run, false);
}

/* One more [a, b] in the scratch list of idle periods within a wait. */
static void scratch_add(struct idle_track *it, int *n, uint64_t a, uint64_t b)
{
	if (*n == it->cap_scratch) {
		it->cap_scratch = it->cap_scratch ? 2 * it->cap_scratch : 64;
		it->span = xrealloc(it->span, (size_t)it->cap_scratch * 2 * sizeof(uint64_t));
	}
	it->span[2 * *n] = a;
	it->span[2 * (*n)++ + 1] = b;
}

/* cpu c's idle periods within [wake, run], clipped, into the scratch list; true when
 * one covers all of it. */
static bool add_periods(struct idle_track *it, int c, const struct idle_q *q, bool open, int *n)
{
	const struct idle_cpu *ic = &it->cpu[c];
	const struct idle_span *p = ic->p;
	int i = period_before(it, c, q->wake, q->k_wake);

	if (i < ic->head)
		i = ic->head;
	for (; i < ic->n && p[i].from <= q->run; i++) {
		uint64_t a = p[i].from > q->wake ? p[i].from : q->wake;
		uint64_t b = p[i].to < q->run ? p[i].to : q->run;

		if (b < a || (b == a && lt(p[i].to, p[i].to_k, q->wake, q->k_wake)))
			continue;
		if (a == q->wake && b == q->run)
			return true;
		scratch_add(it, n, a, b);
	}
	if (BIT(it->idle, c) && it->cpu[c].from <= q->run) {
		uint64_t a = it->cpu[c].from > q->wake ? it->cpu[c].from : q->wake;
		uint64_t end = open ? q->run : it->cpu[c].seen;
		uint64_t b = end < q->run ? end : q->run;

		if (a == q->wake && b == q->run)
			return true;
		if (b >= a)
			scratch_add(it, n, a, b);
	}
	return false;
}

static int by_start(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The length of the union of the n scratch periods (each within the wait). */
static uint64_t union_ns(struct idle_track *it, int n)
{
	uint64_t *pairs = it->span, sum = 0, a = 0, b = 0;

	qsort(pairs, (size_t)n, 2 * sizeof(uint64_t), by_start);
	for (int i = 0; i < n; i++) {
		uint64_t s = pairs[2 * i], e = pairs[2 * i + 1];

		if (i == 0 || s > b) {
			sum += b - a;
			a = s;
			b = e;
		} else if (e > b) {
			b = e;
		}
	}
	return sum + b - a;
}

/* The candidates of q: idle at its wakeup, or began an idle period during its wait. */
static void candidates(struct idle_track *it, const struct idle_q *q)
{
	const uint64_t *at_run = q->at_run ? q->at_run : it->idle;

	for (int w = 0; w < it->nwords; w++)
		it->cand[w] = q->at_wake[w] | at_run[w];
	if (q->target >= 0 && q->target < it->ncpus)
		set_bit(it->cand, q->target, false);
}

/* And those that began an idle period in the wait and ended it before the run. */
static void candidates_between(struct idle_track *it, const struct idle_q *q)
{
	uint64_t lo = q->pos_wake > it->log_base ? q->pos_wake - it->log_base : 0;
	uint64_t hi = q->pos_run - it->log_base;

	for (uint64_t i = lo; i < hi && i < (uint64_t)it->log_n; i++)
		if (it->log_cpu[i] != q->target)
			set_bit(it->cand, it->log_cpu[i], true);
}

/* cpu was idle at the wakeup or at the run of q. */
static inline bool idle_at_end(struct idle_track *it, int c, const struct idle_q *q, bool open)
{
	return idle_through(it, c, q->wake, q->k_wake, q->wake, q->k_wake, open) ||
	       idle_through(it, c, q->run, q->k_run, q->run, q->k_run, open);
}

/* A candidate of q in mask m, words [w0, w1) (with want: allowed or not), idle at an end;
 * -1 none. */
static int first_at_end(struct idle_track *it, const struct idle_q *q, const uint64_t *m,
			int w0, int w1, bool want, bool open)
{
	for (int w = w0; w < w1; w++) {
		uint64_t a = q->allowed ? q->allowed[w] : ~0ull;
		uint64_t c = it->cand[w] & (m ? m[w] : ~0ull) & (want ? a : ~a);

		while (c) {
			int cpu = w * 64 + __builtin_ctzll(c);

			c &= c - 1;
			if (cpu < it->ncpus && idle_at_end(it, cpu, q, open))
				return cpu;
		}
	}
	return -1;
}

/* An allowed candidate idle from the wakeup through the run (usually one idle now). */
static bool one_covers(struct idle_track *it, const struct idle_q *q, bool open)
{
	for (int w = 0; w < it->nwords; w++) {
		uint64_t c = it->cand[w] & q->at_wake[w] & (q->allowed ? q->allowed[w] : ~0ull);

		while (c) {
			int cpu = w * 64 + __builtin_ctzll(c);

			c &= c - 1;
			if (cpu < it->ncpus &&
			    idle_through(it, cpu, q->wake, q->k_wake, q->run, q->k_run, open))
				return true;
		}
	}
	return false;
}

/* The time of q's wait during which an allowed candidate idled. */
static uint64_t wait_ns(struct idle_track *it, const struct idle_q *q, bool open)
{
	int n = 0;

	if (one_covers(it, q, open))
		return q->run - q->wake;
	candidates_between(it, q);
	for (int w = 0; w < it->nwords; w++) {
		uint64_t c = it->cand[w] & (q->allowed ? q->allowed[w] : ~0ull);

		while (c) {
			int cpu = w * 64 + __builtin_ctzll(c);

			c &= c - 1;
			if (cpu < it->ncpus && add_periods(it, cpu, q, open, &n))
				return q->run - q->wake;
		}
	}
	return union_ns(it, n);
}

/* idle_int.h: t_idled as idle_target_idled found at the run, where it still holds. */
int idle_judge_q(struct idle_track *it, const struct idle_q *q, bool open, int t_idled,
		 struct idle_check *r)
{
	static const enum locality level[3] = { LOC_SMT, LOC_LLC, LOC_NODE };
	const struct idle_cpu *ct;
	int t = q->target;

	*r = (struct idle_check){ IDLE_NONE, LOC_REMOTE, 0, q->target, q->tag };
	if (t < 0 || t >= it->ncpus || !BIT(it->known, t) || q->run < q->wake)
		return -1;
	ct = &it->cpu[t];
	if (t_idled < 0 && !open && BIT(it->idle, t) &&
	    le(ct->from, ct->from_k, q->run, q->k_run) && lt(ct->seen, ct->seen_k, q->run, q->k_run))
		return t;
	if (t_idled < 0 ? idle_through(it, t, q->wake, q->k_wake, q->run, q->k_run, open) : t_idled)
		return -1; /* the target idled from the wakeup to the run */
	for (int w = 0; w < it->nwords && !open &&
			!(it->waiting && le(q->run, q->k_run, it->mark, it->mark_k));
	     w++) {
		uint64_t c = it->idle[w]; /* a state unknown in the wait: wait (any CPU idle
					   * since before the run is a candidate) */

		while (c) {
			int cpu = w * 64 + __builtin_ctzll(c);
			const struct idle_cpu *ic = &it->cpu[cpu];

			c &= c - 1;
			if (cpu != t && le(ic->from, ic->from_k, q->run, q->k_run) &&
			    lt(ic->seen, ic->seen_k, q->run, q->k_run))
				return cpu;
		}
	}
	candidates(it, q);
	for (int k = 0; k < 3; k++) { /* the closest allowed CPU idle at an end */
		int g = it->leader[k][t];

		if (g < 0)
			continue;
		if (first_at_end(it, q, it->near[k] + (size_t)g * (size_t)it->nwords,
				 it->span_w[k][2 * g], it->span_w[k][2 * g + 1], true, open) >= 0) {
			r->closest = level[k];
			r->verdict = IDLE_PASSED;
			break;
		}
	}
	if (r->verdict != IDLE_PASSED && first_at_end(it, q, NULL, 0, it->nwords, true, open) >= 0)
		r->verdict = IDLE_PASSED;
	if (r->verdict == IDLE_PASSED)
		r->wait_ns = wait_ns(it, q, open);
	else if (q->allowed && first_at_end(it, q, NULL, 0, it->nwords, false, open) >= 0)
		r->verdict = IDLE_NOT_ALLOWED;
	return -1;
}

void idle_prune(struct idle_track *it, uint64_t horizon, uint64_t now)
{
	int keep = 0, skip = 0;

	for (int k = 0; k < it->waiting; k++) /* and the judgements waiting */
		if (it->pend_wake[(it->pend_head + k) & (it->cap_pend - 1)] < horizon)
			horizon = it->pend_wake[(it->pend_head + k) & (it->cap_pend - 1)];
	if (now > IDLE_KEEP_NS && horizon < now - IDLE_KEEP_NS) {
		horizon = now - IDLE_KEEP_NS; /* a wakeup pending longer: judged from what is kept */
		for (int k = 0; k < it->waiting; k++) /* what they knew at their runs may go */
			it->pend[(it->pend_head + k) & (it->cap_pend - 1)].target_idled = -1;
	}
	for (int c = 0; c < it->ncpus; c++) {
		struct idle_cpu *ic = &it->cpu[c];

		while (ic->head < ic->n && ic->p[ic->head].to < horizon)
			ic->head++;
		keep += ic->n - ic->head;
	}
	while (skip < it->log_n && it->log_t[skip] < horizon)
		skip++;
	if (skip) {
		memmove(it->log_cpu, it->log_cpu + skip, (size_t)(it->log_n - skip) * sizeof(int32_t));
		memmove(it->log_t, it->log_t + skip, (size_t)(it->log_n - skip) * sizeof(uint64_t));
	}
	it->log_n -= skip;
	it->log_base += (uint64_t)skip;
	keep += it->log_n;
	it->stored = 0;
	it->prune_at = keep > 2048 ? 2 * (uint64_t)keep : 4096;
}
