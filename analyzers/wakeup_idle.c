/*
 * wakeup_idle.c - the wakeup analyzer's part in the idle-CPU questions: each
 * task's affinity, the idle CPUs at its wakeup, the count when it waited on a
 * busy CPU while an allowed one was idle (analyzers/idle.h), and whether the
 * wakeup sent an IPI or found its CPU polling in idle (and the IPIs that were no
 * wakeup's).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "wakeup.h"
#include "wakeup_int.h"

/* The book's value of tid: AFF_ALL, AFF_UNKNOWN, AFF_MASK + i, or -1 (never given). */
static int32_t aff_of(const struct wakeup *w, int32_t tid)
{
	return tidmap_get(&w->aff_idx, tid);
}

/* A mask slot of the book: one given back, else a new one. */
static int aff_take(struct wakeup *w)
{
	if (w->naff_free)
		return w->aff_free[--w->naff_free];
	if (w->naff == w->cap_aff) {
		w->cap_aff = w->cap_aff ? 2 * w->cap_aff : 16;
		w->aff_masks = xrealloc(w->aff_masks, (size_t)w->cap_aff * (size_t)w->idle.nwords *
							      sizeof(uint64_t));
		w->aff_free = xrealloc(w->aff_free, (size_t)w->cap_aff * sizeof(int));
	}
	return w->naff++;
}

/* tid's book entry becomes v (its old mask, if any, given back); its entry follows. */
static void aff_put(struct wakeup *w, int32_t tid, int32_t v)
{
	int32_t old = aff_of(w, tid);
	struct wk_task *t = task_find(w, tid);

	if (old >= AFF_MASK && old != v)
		w->aff_free[w->naff_free++] = old - AFF_MASK;
	if (v < 0)
		tidmap_del(&w->aff_idx, tid);
	else
		tidmap_put(&w->aff_idx, tid, v);
	if (t)
		wk_affinity_apply(w, t);
}

void wk_affinity_apply(struct wakeup *w, struct wk_task *t)
{
	int32_t v = aff_of(w, t->tid);

	t->pinned = v >= AFF_MASK;
	t->affinity_unknown = v < 0 || v == AFF_UNKNOWN;
}

void wk_affinity_set(struct wakeup *w, int32_t tid, const uint64_t *mask, int nwords)
{
	int nw = w->idle.nwords, slot;
	uint64_t *m;
	bool all = true;

	if (tid <= 0)
		return;
	if (!mask) {
		aff_put(w, tid, AFF_UNKNOWN);
		return;
	}
	for (int i = 0; i * 64 < w->r.ncpus && all; i++) { /* a word at a time */
		int bits = w->r.ncpus - i * 64;
		uint64_t want = bits >= 64 ? ~0ull : (1ull << bits) - 1;

		all = i < nwords && (mask[i] & want) == want;
	}
	if (all) {
		aff_put(w, tid, AFF_ALL);
		return;
	}
	slot = aff_of(w, tid) >= AFF_MASK ? aff_of(w, tid) - AFF_MASK : aff_take(w);
	m = w->aff_masks + (size_t)slot * (size_t)nw;
	memset(m, 0, (size_t)nw * sizeof(uint64_t));
	memcpy(m, mask, (size_t)(nwords < nw ? nwords : nw) * sizeof(uint64_t));
	aff_put(w, tid, AFF_MASK + slot);
}

void wk_affinity_inherit(struct wakeup *w, int32_t parent, int32_t child)
{
	int32_t v = aff_of(w, parent);

	if (child <= 0 || child == parent)
		return;
	if (v >= AFF_MASK) { /* a mask of its own, a copy of its parent's */
		int nw = w->idle.nwords, slot = aff_take(w);

		memcpy(w->aff_masks + (size_t)slot * (size_t)nw,
		       w->aff_masks + (size_t)(v - AFF_MASK) * (size_t)nw,
		       (size_t)nw * sizeof(uint64_t));
		v = AFF_MASK + slot;
	}
	aff_put(w, child, v);
}

void wk_affinity_forget(struct wakeup *w, int32_t tid)
{
	if (tid > 0 && aff_of(w, tid) >= 0)
		aff_put(w, tid, -1);
}

/* A mask from the pool for task slot owner: the last given back, else a new one. */
static int mask_take(struct wakeup *w, int32_t owner)
{
	size_t words = (size_t)w->idle.nwords;

	if (w->nmask_free) {
		w->mask_owner[w->mask_free[w->nmask_free - 1]] = owner;
		return w->mask_free[--w->nmask_free];
	}
	if (w->nmasks == w->cap_masks) {
		w->cap_masks = w->cap_masks ? 2 * w->cap_masks : 64;
		w->masks = xaligned_realloc(w->masks, (size_t)w->nmasks * words * sizeof(uint64_t),
					    64, ((size_t)w->cap_masks * words + 1) * sizeof(uint64_t));
		w->mask_free = xrealloc(w->mask_free, (size_t)w->cap_masks * sizeof(int));
		w->mask_pos = xrealloc(w->mask_pos, (size_t)w->cap_masks * sizeof(uint64_t));
		w->mask_k = xrealloc(w->mask_k, (size_t)w->cap_masks * sizeof(uint32_t));
		w->mask_f = xrealloc(w->mask_f, (size_t)w->cap_masks * sizeof(uint64_t));
		w->mask_owner = xrealloc(w->mask_owner, (size_t)w->cap_masks * sizeof(int32_t));
	}
	w->mask_owner[w->nmasks] = owner;
	return w->nmasks++;
}

/* What a pending wakeup needs to tell later whether it passed over an idle CPU. */
void wk_idle_at_wake(struct wakeup *w, struct wk_task *t, uint64_t now)
{
	if (!w->cfg.affinity_events)
		return; /* no task's mask is known: nothing is judged */
	if (t->affinity_unknown) {
		if (!t->aff_counted) {
			t->aff_counted = true;
			w->r.affinity_unknown++;
		}
		return; /* never judged (wk_judge_idle): no idle CPUs to keep for it */
	}
	if (t->mask < 0)
		t->mask = mask_take(w, (int32_t)(t - w->tasks)); /* until it runs */
	idle_snapshot(&w->idle, wk_idle_at(w, t));
	w->mask_pos[t->mask] = idle_pos(&w->idle);
	w->mask_k[t->mask] = idle_tick(&w->idle);
	w->mask_f[t->mask] = idle_flips(&w->idle) + 1;
}

struct idle_check wk_judge_idle(struct wakeup *w, struct wk_task *t, int32_t target, uint64_t now)
{
	struct idle_q q = { .wake = t->wake_ns, .run = now, .target = target, .tag = -1 };
	struct idle_check ic = { .verdict = IDLE_UNJUDGED, .target = target, .tag = -1 };

	if (!w->cfg.affinity_events || t->affinity_unknown || t->mask < 0)
		return ic; /* which CPUs it may run on is not known: nothing to judge */
	q.at_wake = wk_idle_at(w, t);
	q.pos_wake = w->mask_pos[t->mask];
	q.pos_run = idle_pos(&w->idle);
	q.k_wake = w->mask_k[t->mask];
	q.f_wake = w->mask_f[t->mask];
	q.k_run = idle_tick(&w->idle);
	if (valid_cpu(w, t->waker_cpu)) /* waker CPU -> target (where it runs, if not placed) */
		q.tag = t->placed ? t->wake_class : topology_class(w->r.topo, t->waker_cpu, target);
	q.allowed = wk_allowed(w, t);
	ic = idle_judge(&w->idle, &q);
	w->r.idle_judged_open = w->idle.judged_open;
	return ic;
}

/* A deferred judgement made: told to cfg.verdict as the wakeup it was kept for. */
static void tell_made(struct wakeup *w, const struct idle_check *ic)
{
	struct idle_told *v;

	if (w->told_head == w->ntold)
		return; /* deferred before a consumer listened */
	v = &w->told[w->told_head++];
	v->ic = *ic;
	w->cfg.verdict(w->cfg.verdict_ctx, v);
	if (w->told_head == w->ntold)
		w->told_head = w->ntold = 0;
}

void wk_idle_drain(struct wakeup *w)
{
	int n;
	const struct idle_check *ready = idle_ready(&w->idle, &n);

	for (int i = 0; i < n; i++) {
		wk_count_idle(w, &ready[i]);
		if (w->cfg.verdict)
			tell_made(w, &ready[i]);
	}
}

void wk_tell(struct wakeup *w, int32_t tid, uint64_t wake_ns, uint64_t run_ns,
	     const struct idle_check *ic)
{
	struct idle_told v = { tid, wake_ns, run_ns, *ic };

	if (ic->verdict != IDLE_DEFERRED) {
		if (w->idle.nready)
			wk_idle_drain(w); /* judgements made before this one, told first */
		w->cfg.verdict(w->cfg.verdict_ctx, &v);
		return;
	}
	if (w->ntold == w->cap_told) {
		if (w->told_head) { /* the ones told already make room */
			w->ntold -= w->told_head;
			memmove(w->told, w->told + w->told_head, (size_t)w->ntold * sizeof(v));
			w->told_head = 0;
		} else {
			w->cap_told = w->cap_told ? 2 * w->cap_told : 64;
			w->told = xrealloc(w->told, (size_t)w->cap_told * sizeof(v));
		}
	}
	w->told[w->ntold++] = v;
	w->cfg.verdict(w->cfg.verdict_ctx, &v);
}

void wk_idle_prune(struct wakeup *w)
{
	uint64_t horizon = w->r.last_ns;

	for (int i = 0; i < w->nmasks; i++) { /* the pending wakeups: each holds a mask */
		const struct wk_task *t = w->mask_owner[i] >= 0 ? &w->tasks[w->mask_owner[i]] : NULL;

		if (t && t->pending && t->wake_ns < horizon)
			horizon = t->wake_ns;
	}
	idle_prune(&w->idle, horizon, w->r.last_ns);
	if (w->idle.prune_at < (uint64_t)w->ntasks)
		w->idle.prune_at = (uint64_t)w->ntasks; /* the cadence of when the scan took every
							  * task: a prune moves where the search of an
							  * unsorted history starts (bench/synth.c's) */
}

void wk_count_idle(struct wakeup *w, const struct idle_check *ic)
{
	struct sched_results *r = &w->r;

	if (ic->verdict == IDLE_NOT_ALLOWED) {
		r->idle_not_allowed++;
		return;
	}
	if (ic->verdict != IDLE_PASSED)
		return;
	r->idle_passed++;
	r->idle_wait_ns += ic->wait_ns;
	r->idle_closest[ic->closest]++;
	if (valid_cpu(w, ic->target))
		r->cpu[ic->target].idle_passed++;
	if (ic->tag >= 0 && ic->tag < LOC_NR) {
		r->idle_passed_class[ic->tag]++;
		r->idle_wait_class[ic->tag] += ic->wait_ns;
	}
}

void wk_on_ipi(struct wakeup *w, const struct event *e)
{
	struct sched_results *r = &w->r;
	int32_t c = e->cpu, d = e->ipi.cpu, tid;
	struct wk_task *t = NULL;
	enum locality cls;

	if (!valid_cpu(w, c))
		return;
	tid = w->ipi_wakee[c];
	w->ipi_wakee[c] = 0; /* a wakeup's IPI is the first from its CPU after it, or none is */
	if (tid > 0)
		t = task_find(w, tid);
	if (t && t->pending && d != c && valid_cpu(w, d) &&
	    d == (t->placed ? t->target_cpu : t->prev_cpu)) {
		wk_place(w, t, d); /* not moved: it stays where it last ran, where the IPI went */
		cls = (enum locality)t->wake_class; /* waker CPU -> d */
		if (e->type == EV_IPI) {
			r->wakeups_ipi++;
			r->ipi_class[cls]++;
		} else {
			r->wakeups_no_ipi++;
			r->no_ipi_class[cls]++;
		}
		return;
	}
	if (e->type == EV_IPI && e->tid > 0 && wakeup_tracks(w, e->tid)) {
		if (e->ipi.callback)
			r->ipis_call_other++;
		else
			r->ipis_resched_other++;
	}
}
