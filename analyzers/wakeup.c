/* wakeup.c - wakeup locality, wake-to-run delay, migrations and switches from sched events. */
#include "wakeup.h"
#include "wakeup_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"


void wakeup_init(struct wakeup *w, const struct wakeup_cfg *cfg)
{
	memset(w, 0, sizeof(*w));
	w->cfg = *cfg;
	if (!w->cfg.max_pairs)
		w->cfg.max_pairs = 16384;
	sched_results_init(&w->r, cfg->topo);
	w->r.waking_source = cfg->waking_source;
	tidmap_init(&w->task_idx);
	topk_init(&w->pairk, w->cfg.max_pairs);
	w->cpu_since = xcalloc((size_t)w->r.ncpus, sizeof(uint64_t));
	w->cpu_curr = xcalloc((size_t)w->r.ncpus, sizeof(int32_t));
	for (int c = 0; c < w->r.ncpus; c++)
		w->cpu_curr[c] = -1;
	w->cpu_comm = xcalloc((size_t)w->r.ncpus + 1, TASK_COMM_LEN);
	tidmap_init(&w->name_idx);
	idle_init(&w->idle, cfg->topo);
	w->ipi_wakee = xcalloc((size_t)w->r.ncpus + 1, sizeof(int32_t));
	tidmap_init(&w->aff_idx);
	w->r.prov.affinity_known = cfg->affinity_events;
	w->r.ran_known = true; /* every switch-in seen: ran_class counted */
}

static struct wk_task *task_get(struct wakeup *w, int32_t tid, bool create)
{
	struct wk_task *t = task_find(w, tid);

	return t || !create ? t : wk_task_new(w, tid);
}

/*
 * The tracked task tid, or NULL: tasks that are not tracked cost no entry unless
 * system-wide. May move the table (a new entry).
 */
static inline struct wk_task *tracked(struct wakeup *w, int32_t tid)
{
	struct wk_task *t;

	if (tid <= 0)
		return NULL; /* the idle task, or none: never tracked */
	t = task_find(w, tid);
	if (!t && w->cfg.system_wide && !wk_excluded(w, tid))
		t = wk_task_new(w, tid);
	return t && t->tracked ? t : NULL;
}

/* t's name from an event (most carry one; an empty one says nothing). */
static inline void set_comm(struct wk_task *t, const char *src)
{
	if (src[0] && memcmp(t->comm, src, TASK_COMM_LEN))
		memcpy(t->comm, src, TASK_COMM_LEN);
}

/* cpu now runs tid (0: the idle task), named comm (NULL: a switch-in not seen). */
static inline void set_curr(struct wakeup *w, int32_t cpu, int32_t tid, const char *comm,
			    uint64_t now)
{
	w->cpu_curr[cpu] = tid;
	if (comm)
		memcpy(w->cpu_comm[cpu], comm, TASK_COMM_LEN);
	else
		w->cpu_comm[cpu][0] = '\0';
	if (tid >= 0)
		idle_set(&w->idle, cpu, tid == 0, now);
}

/*
 * The name of the task tid running on cpu at this event, as perf script gives it: its
 * entry's, else the one its CPU switched to it with, else its PERF_RECORD_COMM or fork's;
 * "" when none said it. Always TASK_COMM_LEN bytes to read.
 */
static const char *name_of(const struct wakeup *w, const struct wk_task *t, int32_t tid,
			   int32_t cpu)
{
	static const char none[TASK_COMM_LEN]; /* read as TASK_COMM_LEN bytes */
	static const char idle[TASK_COMM_LEN] = "swapper";
	int32_t i;

	if (tid == 0) /* every CPU's idle task (swapper/N): one tid, named as perf names it */
		return idle;
	if (t && t->comm[0])
		return t->comm;
	if (valid_cpu(w, cpu) && w->cpu_curr[cpu] == tid && w->cpu_comm[cpu][0])
		return w->cpu_comm[cpu];
	i = tidmap_get(&w->name_idx, tid);
	return i >= 0 ? (const char *)w->names[i] : none;
}

static uint64_t pair_key(int32_t waker_tid, int32_t wakee_tid)
{
	return (uint64_t)(uint32_t)waker_tid << 32 | (uint32_t)wakee_tid;
}

/* A wakeup of wakee by waker_tid counted in its pair's slot, or -1: in the filter (topk.h). */
static int pair_count(struct wakeup *w, const struct wk_task *waker_task, int32_t waker_tid,
		      int32_t waker_cpu, const struct wk_task *wakee)
{
	bool fresh;
	/* the wakee's last pair first: the same waker again (ping-pong) needs no hash */
	int s = topk_add_hint(&w->pairk, wakee->pair, pair_key(waker_tid, wakee->tid), 1, &fresh);
	struct pair_stat *p;

	if (s < 0)
		return -1;
	if (s >= w->cap_pairs) {
		w->cap_pairs = w->cap_pairs ? w->cap_pairs * 2 : 64;
		if (w->cap_pairs > w->pairk.cap)
			w->cap_pairs = w->pairk.cap;
		w->pairs = xrealloc(w->pairs, (size_t)w->cap_pairs * sizeof(*w->pairs));
	}
	p = &w->pairs[s];
	if (fresh) { /* new, or taken from the pair with the fewest wakeups */
		memset(p, 0, sizeof(*p));
		p->waker_tid = waker_tid;
		p->wakee_tid = wakee->tid;
	}
	/* the names at this wakeup (perf script's for its sample): an exec renames */
	memcpy(p->waker_comm, name_of(w, waker_task, waker_tid, waker_cpu), TASK_COMM_LEN);
	memcpy(p->wakee_comm, wakee->comm, TASK_COMM_LEN);
	return s;
}

/* The target CPU of a pending wakeup is known: count its placement once. */
static void place(struct wakeup *w, struct wk_task *t, int32_t target)
{
	struct sched_results *r = &w->r;
	enum locality cls;

	if (t->placed || !valid_cpu(w, target))
		return;
	t->placed = true;
	t->target_cpu = target;
	r->wakeups_placed++;
	r->cpu[target].wakeups_to++;
	if (valid_cpu(w, t->waker_cpu)) {
		cls = topology_class(r->topo, t->waker_cpu, target);
		t->wake_class = (uint8_t)cls;
		wk_count_cell(w, &r->wake_matrix[(size_t)t->waker_cpu * (size_t)r->ncpus +
						   (size_t)target]);
		r->by_class[cls]++;
		r->cpu[t->waker_cpu].wakeups_from++;
		if (t->pair >= 0 && w->pairk.slot[t->pair].key == pair_key(t->waker_tid, t->tid))
			w->pairs[t->pair].by_class[cls]++; /* unless the slot went to another pair */
	}
	if (valid_cpu(w, t->prev_cpu)) {
		enum placement pl;

		wk_count_cell(w, &r->prev_matrix[(size_t)t->prev_cpu * (size_t)r->ncpus +
						   (size_t)target]);
		r->prev_by_class[topology_class(r->topo, t->prev_cpu, target)]++;
		if (target == t->prev_cpu)
			pl = PLACE_STAYED;
		else if (valid_cpu(w, t->waker_cpu) && t->wake_class <= LOC_LLC)
			pl = PLACE_PULLED;
		else
			pl = PLACE_ELSEWHERE;
		r->placement[pl]++;
	}
}

void wk_place(struct wakeup *w, struct wk_task *t, int32_t target)
{
	place(w, t, target);
}

/*
 * The target of t's pending wakeup, not placed when it runs on cpu: with sched_waking and
 * sched_migrate_task in the stream, no migration in try_to_wake_up means the kernel left it
 * on the CPU it last ran on (a move after, a load balance, may have been lost by the
 * stream: those run in the idle task's softirqs, whose records the ring buffers here lose
 * most); else where it ran.
 */
static int32_t unplaced_target(const struct wakeup *w, const struct wk_task *t, int32_t cpu)
{
	if (w->cfg.waking_source && w->cfg.migrate_source && valid_cpu(w, t->prev_cpu))
		return t->prev_cpu;
	return cpu;
}

/* A wakeup of e->wake.pid by e->tid (waker_i: the waker's entry, found before, or -1). */
static void on_wake(struct wakeup *w, const struct event *e, ptrdiff_t waker_i)
{
	struct wk_task *t = tracked(w, e->wake.pid);
	struct wk_task *waker;

	if (!t)
		return;
	set_comm(t, e->wake.comm);
	if (t->running) {
		w->r.wakeups_running++;
		return;
	}
	w->r.wakeups++;
	t->n.wakeups++;
	t->pending = true;
	t->placed = false;
	t->wake_ns = e->time_ns;
	t->waker_tid = e->tid;
	t->waker_cpu = e->cpu;
	t->target_cpu = -1;
	/* the waker's entry (t's own may have moved the table; a task waking itself) */
	waker = waker_i >= 0 ? &w->tasks[waker_i] : e->tid == t->tid ? t : NULL;
	t->pair = pair_count(w, waker, e->tid, e->cpu, t);
	wk_idle_at_wake(w, t, e->time_ns);
	/* the wakeup's IPI, if it sends one, is the next from the waker's CPU (sent in
	 * try_to_wake_up after sched_waking); sched_wakeup may come after it: not armed */
	if (valid_cpu(w, e->cpu) && w->cfg.waking_source)
		w->ipi_wakee[e->cpu] = t->tid;
	if (w->cfg.waking_source) {
		t->prev_cpu = e->wake.target_cpu; /* waking: the CPU it last ran on */
	} else {
		t->prev_cpu = t->cpu;
		place(w, t, e->wake.target_cpu); /* wakeup: the CPU chosen */
	}
}

static void on_wakeup(struct wakeup *w, const struct event *e, ptrdiff_t waker_i)
{
	struct wk_task *t;

	if (!w->cfg.waking_source) {
		on_wake(w, e, waker_i);
		return;
	}
	t = tracked(w, e->wake.pid);
	if (t && t->pending)
		place(w, t, e->wake.target_cpu);
}

static void on_wakeup_new(struct wakeup *w, const struct event *e)
{
	struct wk_task *t = tracked(w, e->wake.pid);

	if (!t)
		return;
	set_comm(t, e->wake.comm);
	w->r.wakeups_new++;
	t->cpu = e->wake.target_cpu;
}

static void on_migrate(struct wakeup *w, const struct event *e)
{
	struct sched_results *r = &w->r;
	struct wk_task *t = tracked(w, e->mig.pid);
	int32_t o = e->mig.orig_cpu, d = e->mig.dest_cpu;

	if (!t)
		return;
	r->migrations++;
	t->n.migrations++;
	if (valid_cpu(w, o) && valid_cpu(w, d)) {
		wk_count_cell(w, &r->mig_matrix[(size_t)o * (size_t)r->ncpus + (size_t)d]);
		r->mig_by_class[topology_class(r->topo, o, d)]++;
		r->cpu[o].migrations_out++;
		r->cpu[d].migrations_in++;
	}
	t->cpu = d;
	/* set_task_cpu during the wakeup, on the waker's CPU (no sched_wakeup seen yet);
	 * a later one (load balance before it ran): the wakeup left it where it last ran */
	if (t->pending && !t->placed && w->cfg.waking_source)
		place(w, t, valid_cpu(w, e->cpu) && w->ipi_wakee[e->cpu] == t->tid ? d : t->prev_cpu);
}


/*
 * t's wakeup ends as it runs on cpu: whether it ran elsewhere than chosen and, timed, the
 * class of the CPU it ran on seen from its waker's beside its target's (ran_class).
 */
static void count_ran(struct wakeup *w, const struct wk_task *t, int32_t cpu, bool timed)
{
	struct sched_results *r = &w->r;
	bool moved = t->target_cpu != cpu;
	enum locality ran;

	r->moved_before_run += moved;
	if (!timed || !valid_cpu(w, t->waker_cpu)) {
		r->ran_moved_other += moved;
		return;
	}
	ran = topology_class(r->topo, t->waker_cpu, cpu);
	r->ran_class[t->wake_class][ran]++;
	r->ran_moved_within += moved && ran == (enum locality)t->wake_class;
}

/*
 * t runs on cpu, but its switch-in was not seen: before the trace began, or
 * lost by the stream (here most switch-ins out of idle). A pending wakeup is
 * placed there without a delay, and counted untimed.
 */
static void seen_running(struct wakeup *w, struct wk_task *t, int32_t cpu, uint64_t now)
{
	struct sched_results *r = &w->r;

	if (t->pending) {
		r->switch_in_missed++;
		r->cpu[cpu].switch_in_missed++;
		if (!t->placed)
			place(w, t, unplaced_target(w, t, cpu));
		count_ran(w, t, cpu, false);
		wk_unpend(w, t);
	}
	t->running = true;
	t->on_cpu_since = now;
	t->cpu = cpu;
}

/*
 * An event of tid shows it runs on cpu, where the last switch recorded put another task
 * (or the idle task): the switch onto it is missing from the recording. When the CPU
 * was idle, its idle period ends at the idle task's last event there and the stretch
 * from then is unknown (idle.h), not idle.
 */
static void switch_inferred(struct wakeup *w, int32_t cpu, int32_t tid, uint64_t now)
{
	struct cpu_stat *cs = &w->r.cpu[cpu];

	w->r.switch_in_inferred++;
	cs->switch_in_inferred++;
	if (w->cpu_curr[cpu] == 0) {
		uint64_t unknown = idle_leave(&w->idle, cpu, now, false);

		wk_account_cpu(w, cpu, now - unknown);
		w->r.unknown_ns += unknown;
		cs->unknown_ns += unknown;
		w->cpu_since[cpu] = now;
	} else {
		wk_account_cpu(w, cpu, now);
	}
	w->cpu_curr[cpu] = tid;
	w->cpu_comm[cpu][0] = '\0'; /* its name: not from a switch-in */
}

/*
 * The current task of cpu is tid (t: its entry, NULL when it has none): a
 * switch onto it may have gone unrecorded.
 */
static inline void current_is(struct wakeup *w, int32_t cpu, int32_t tid, struct wk_task *t,
			      uint64_t now)
{
	if (tid == 0) {
		idle_enter(&w->idle, cpu, now); /* the idle task runs: seen idle now */
		if (w->cpu_curr[cpu] != 0) {
			wk_account_cpu(w, cpu, now);
			w->cpu_curr[cpu] = 0;
			w->cpu_comm[cpu][0] = '\0';
		}
	} else if (w->cpu_curr[cpu] != tid) {
		if (w->cpu_curr[cpu] >= 0 && tid > 0) {
			switch_inferred(w, cpu, tid, now);
		} else {
			wk_account_cpu(w, cpu, now);
			set_curr(w, cpu, tid, NULL, now);
		}
	}
	if (t && t->tracked && !t->running)
		seen_running(w, t, cpu, now);
}

static void on_switch(struct wakeup *w, const struct event *e)
{
	struct sched_results *r = &w->r;
	struct wk_task *prev, *next;
	struct idle_check ic = { IDLE_NONE, LOC_REMOTE, 0, -1, -1 };
	int32_t cpu = e->cpu;
	ptrdiff_t prev_i;

	if (!valid_cpu(w, cpu))
		return;
	prev = tracked(w, e->sw.prev_pid);
	if (prev && e->tid == e->sw.prev_pid)
		prev->pid = e->pid;
	current_is(w, cpu, e->sw.prev_pid, prev, e->time_ns);
	prev_i = prev ? prev - w->tasks : -1;
	next = tracked(w, e->sw.next_pid);
	if (prev)
		prev = &w->tasks[prev_i]; /* next's new entry may have moved the table */
	if (next && next->pending && e->time_ns >= next->wake_ns) {
		ic = wk_judge_idle(w, next,
				   next->placed ? next->target_cpu : unplaced_target(w, next, cpu),
				   e->time_ns);
		if (w->cfg.verdict) /* a timeline marks the flow with it */
			wk_tell(w, next->tid, next->wake_ns, e->time_ns, &ic);
	}
	wk_account_cpu(w, cpu, e->time_ns);
	set_curr(w, cpu, e->sw.next_pid, e->sw.next_comm, e->time_ns);
	if (!prev && w->nnames && event_switch_exited(e))
		wk_name_forget(w, e->sw.prev_pid); /* its last switch (X or Z) */
	if (prev) {
		set_comm(prev, e->sw.prev_comm);
		if (event_switch_involuntary(e)) {
			r->involuntary++;
			r->cpu[cpu].involuntary++;
			prev->n.involuntary++;
		} else {
			r->voluntary++;
			r->cpu[cpu].voluntary++;
			prev->n.voluntary++;
		}
		if (prev->running && e->time_ns > prev->on_cpu_since)
			prev->n.run_ns += e->time_ns - prev->on_cpu_since;
		prev->running = false;
		prev->cpu = cpu;
		if (event_switch_exited(e)) /* X or Z: its last switch (an exiting task can
					     * still be preempted: R after its exit event) */
			wk_retire(w, prev);
	}
	if (!next)
		return;
	set_comm(next, e->sw.next_comm);
	if (next->pending && e->time_ns < next->wake_ns) {
		if (!next->placed)
			place(w, next, unplaced_target(w, next, cpu));
		count_ran(w, next, cpu, false);
		r->delays_negative++; /* a race with the switch, or skew: counted, not binned */
		wk_unpend(w, next);
	} else if (next->pending) {
		uint64_t d = e->time_ns - next->wake_ns;

		if (!next->placed)
			place(w, next, unplaced_target(w, next, cpu));
		count_ran(w, next, cpu, true);
		hist_add(&r->delay, d);
		hist_add(&r->delay_cpu[cpu], d);
		if (valid_cpu(w, next->waker_cpu))
			hist_add(&r->delay_class[next->wake_class], d);
		next->n.delay_sum_ns += d;
		next->n.delays++;
		if (ic.verdict != IDLE_DEFERRED)
			wk_count_idle(w, &ic);
		wk_unpend(w, next);
	}
	next->running = true;
	next->on_cpu_since = e->time_ns;
	next->cpu = cpu;
}

static void on_fork(struct wakeup *w, const struct event *e)
{
	struct wk_task *parent = task_get(w, e->fork.parent_pid, false);
	struct wk_task *child;

	wk_affinity_inherit(w, e->fork.parent_pid, e->fork.child_pid); /* every task's */
	if (!w->cfg.system_wide && !(parent && parent->tracked)) {
		wk_name_put(w, e->fork.child_pid, e->fork.child_comm); /* it may wake the workload */
		return;
	}
	child = task_get(w, e->fork.child_pid, true);
	child->tracked = !wk_excluded(w, e->fork.child_pid);
	set_comm(child, e->fork.child_comm);
}

/*
 * e->tid is named e->comm.comm from now on (exec, a rename, or the recording's start):
 * its entry's name, or the kept one of a task without an entry, and its CPU's.
 */
static void on_comm(struct wakeup *w, const struct event *e)
{
	struct wk_task *t = e->tid > 0 ? task_find(w, e->tid) : NULL;

	if (t)
		set_comm(t, e->comm.comm);
	else
		wk_name_put(w, e->tid, e->comm.comm);
	if (valid_cpu(w, e->cpu) && w->cpu_curr[e->cpu] == e->tid)
		memcpy(w->cpu_comm[e->cpu], e->comm.comm, TASK_COMM_LEN);
}

static void on_task_exit(struct wakeup *w, const struct event *e)
{
	struct wk_task *t = task_get(w, e->exit.pid, false);

	if (t)
		wk_unpend(w, t);
	wk_affinity_forget(w, e->exit.pid);
}

void wakeup_add(struct wakeup *w, const struct event *e)
{
	struct sched_results *r = &w->r;
	ptrdiff_t cur_i = -1; /* the emitting task's entry */

	if (e->type < EV_TYPE_NR)
		r->events[e->type]++;
	if (e->type == EV_LOST) {
		r->lost += e->lost.lost;
		return;
	}
	if (e->type == EV_COMM) { /* a name, not a sign of running: its time may be 0 */
		on_comm(w, e);
		return;
	}
	if (e->type == EV_AFFINITY) { /* the same */
		wk_affinity_set(w, e->aff.pid, e->aff.mask, e->aff.nwords);
		return;
	}
	if (!r->first_ns || e->time_ns < r->first_ns)
		r->first_ns = e->time_ns;
	idle_event(&w->idle); /* its idle changes and judgements: in this event's order */
	if (e->time_ns > r->last_ns)
		r->last_ns = e->time_ns;
	/* the current task of the emitting CPU: its process id, and proof that it runs
	 * (a switch event does this for its prev task itself, with one lookup) */
	if (e->type != EV_SWITCH && e->tid >= 0) {
		struct wk_task *cur = e->tid > 0 ? task_find(w, e->tid) : NULL;

		/* every task, first seen by its own event: running, so a wakeup of it before
		 * a switch-out is one of a running task, not timed */
		if (!cur && e->tid > 0 && w->cfg.system_wide && !wk_excluded(w, e->tid))
			cur = wk_task_new(w, e->tid);
		if (cur) {
			cur->pid = e->pid;
			cur_i = cur - w->tasks;
		}
		if (valid_cpu(w, e->cpu))
			current_is(w, e->cpu, e->tid, cur, e->time_ns);
	}
	if ((e->type == EV_SWITCH || e->type == EV_WAKING) && valid_cpu(w, e->cpu))
		w->ipi_wakee[e->cpu] = 0; /* an IPI after this is not an earlier wakeup's */
	switch (e->type) {
	case EV_WAKING:
		on_wake(w, e, cur_i);
		break;
	case EV_WAKEUP:
		on_wakeup(w, e, cur_i);
		break;
	case EV_WAKEUP_NEW:
		on_wakeup_new(w, e);
		break;
	case EV_SWITCH:
		on_switch(w, e);
		break;
	case EV_MIGRATE:
		on_migrate(w, e);
		break;
	case EV_FORK:
		on_fork(w, e);
		break;
	case EV_EXIT:
		on_task_exit(w, e);
		break;
	case EV_IPI:
	case EV_WAKE_IDLE:
		wk_on_ipi(w, e);
		break;
	default:
		break;
	}
	if (w->idle.nready)
		wk_idle_drain(w); /* judgements that waited for a CPU's state */
	if (idle_want_prune(&w->idle))
		wk_idle_prune(w);
}

void wakeup_finish(struct wakeup *w)
{
	idle_flush(&w->idle); /* CPUs still idle: idle to the end */
	wk_idle_drain(w);
	wakeup_freeze(w, &w->frozen);
	wakeup_frozen_tables(&w->frozen, &w->r);
}

struct sched_results *wakeup_results(struct wakeup *w)
{
	return &w->r;
}

void wakeup_release(struct wakeup *w)
{
	sched_results_release(&w->r);
	tidmap_release(&w->task_idx);
	topk_release(&w->pairk);
	free(w->tasks);
	tidmap_release(&w->aff_idx);
	free(w->aff_masks);
	free(w->aff_free);
	free(w->masks);
	free(w->mask_free);
	free(w->mask_pos);
	free(w->mask_k);
	free(w->mask_f);
	free(w->mask_owner);
	free(w->free_slots);
	task_top_release(&w->retired);
	wakeup_frozen_release(&w->frozen);
	free(w->pairs);
	free(w->cpu_since);
	free(w->cpu_curr);
	free(w->cpu_comm);
	tidmap_release(&w->name_idx);
	free(w->names);
	free(w->name_free);
	idle_release(&w->idle);
	free(w->told);
	free(w->ipi_wakee);
	free(w->cells);
	memset(w, 0, sizeof(*w));
}
