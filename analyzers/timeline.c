/* timeline.c - running periods, wakeup flows, migrations and runnable counts (timeline.h). */
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void timeline_init(struct timeline *tl, const struct timeline_cfg *cfg)
{
	memset(tl, 0, sizeof(*tl));
	tl->cfg = *cfg;
	tl->ncpus = cfg->topo ? cfg->topo->ncpus : 0;
	tl->cpu = xcalloc((size_t)tl->ncpus + 1, sizeof(*tl->cpu));
	for (int c = 0; c < tl->ncpus; c++)
		tl->cpu[c].tid = -1;
	u64map_init(&tl->idx);
}

void timeline_release(struct timeline *tl)
{
	free(tl->cpu);
	free(tl->tasks);
	free(tl->held);
	u64map_release(&tl->idx);
	memset(tl, 0, sizeof(*tl));
}

static struct tl_task *task(struct timeline *tl, int32_t tid)
{
	uint32_t *i = u64map_get(&tl->idx, (uint64_t)(uint32_t)tid);

	if (i)
		return &tl->tasks[*i - 1];
	if (tl->ntasks == tl->cap) {
		tl->cap = tl->cap ? tl->cap * 2 : 1024;
		tl->tasks = xrealloc(tl->tasks, (size_t)tl->cap * sizeof(*tl->tasks));
	}
	tl->tasks[tl->ntasks] = (struct tl_task){ .tid = tid, .queued = -1, .waker_cpu = -1 };
	u64map_put(&tl->idx, (uint64_t)(uint32_t)tid, (uint32_t)++tl->ntasks);
	return &tl->tasks[tl->ntasks - 1];
}

/* c's current task becomes tid; each task knows on how many CPUs it is current. */
static void set_current(struct timeline *tl, struct tl_cpu *c, int32_t tid)
{
	if (c->tid > 0)
		task(tl, c->tid)->oncpu--;
	c->tid = tid;
	if (tid > 0)
		task(tl, tid)->oncpu++;
}

static bool in_window(const struct timeline *tl, uint64_t t)
{
	uint64_t rel = t - tl->first_ns;

	return rel >= tl->cfg.from_ns && (!tl->cfg.to_ns || rel <= tl->cfg.to_ns);
}

static uint64_t window_start(const struct timeline *tl)
{
	return tl->first_ns + tl->cfg.from_ns;
}

static bool valid(const struct timeline *tl, int cpu)
{
	return cpu >= 0 && cpu < tl->ncpus;
}

static bool workload(const struct timeline *tl, int32_t tid)
{
	return !tl->cfg.in_scope || tl->cfg.in_scope(tl->cfg.scope_ctx, tid);
}

static void runnable(struct timeline *tl, int cpu, int64_t delta, uint64_t t)
{
	struct tl_cpu *c;
	struct tl_item it = { .kind = TL_COUNTER, .cpu = cpu, .t0 = t };

	if (!valid(tl, cpu) || !delta)
		return;
	c = &tl->cpu[cpu];
	c->runnable += delta;
	if (c->runnable < 0)
		c->runnable = 0; /* tasks that were runnable before the first event */
	if (!in_window(tl, t))
		return;
	if (!c->counted && t > window_start(tl)) { /* the value at the window's start */
		struct tl_item first = it;

		first.t0 = window_start(tl) > tl->first_ns ? window_start(tl) : tl->first_ns;
		first.value = c->runnable - delta < 0 ? 0 : c->runnable - delta;
		tl->cfg.emit(tl->cfg.ctx, &first);
		tl->counters++;
	}
	c->counted = true;
	it.value = c->runnable;
	tl->cfg.emit(tl->cfg.ctx, &it);
	tl->counters++;
}

/* Where t waits now: moved from its old queue to cpu (or taken off with cpu -1). */
static void queue(struct timeline *tl, struct tl_task *t, int cpu, uint64_t now)
{
	if (t->queued == cpu)
		return;
	if (t->queued >= 0)
		runnable(tl, t->queued, -1, now);
	t->queued = valid(tl, cpu) ? cpu : -1;
	if (t->queued >= 0)
		runnable(tl, t->queued, 1, now);
}

/* The running period on cpu ends at now. */
static void end_slice(struct timeline *tl, int cpu, uint64_t now, enum tl_end how)
{
	struct tl_cpu *c = &tl->cpu[cpu];
	struct tl_item it = { .kind = TL_SLICE, .cpu = cpu, .end = how };

	if (c->tid <= 0 || now < c->since || (c->inferred && now == c->since))
		return;
	if (tl->cfg.to_ns && now - tl->first_ns > tl->cfg.to_ns && c->since - tl->first_ns >
							   tl->cfg.to_ns)
		return; /* began after the window */
	if (c->before || !in_window(tl, c->since)) {
		if (now < window_start(tl))
			return; /* over before the window */
		it.clipped = true;
	}
	it.t0 = it.clipped ? window_start(tl) : c->since;
	it.t1 = now;
	it.tid = c->tid;
	it.pid = c->pid;
	it.workload = workload(tl, c->tid);
	it.inferred = c->inferred && !it.clipped;
	it.start = it.clipped ? TL_START_SWITCH : c->start;
	memcpy(it.comm, c->comm, sizeof(it.comm));
	tl->cfg.emit(tl->cfg.ctx, &it);
	tl->slices++;
}

/* Hold it (a flow, or a judged wakeup's count) behind those held already. */
static struct tl_held *hold(struct timeline *tl, const struct tl_item *it,
			    enum tl_held_state state)
{
	struct tl_held *h;

	if (tl->nheld == tl->cap_held) {
		if (tl->held_head) { /* the ones gone out make room */
			tl->nheld -= tl->held_head;
			memmove(tl->held, tl->held + tl->held_head,
				(size_t)tl->nheld * sizeof(*tl->held));
			tl->held_base += (uint64_t)tl->held_head;
			tl->held_head = 0;
		} else {
			tl->cap_held = tl->cap_held ? 2 * tl->cap_held : 256;
			tl->held = xrealloc(tl->held, (size_t)tl->cap_held * sizeof(*tl->held));
		}
	}
	h = &tl->held[tl->nheld++];
	h->it = *it;
	h->state = state;
	return h;
}

/* From the oldest held, while its verdict is known: the flow, and the counter's step. */
static void release(struct timeline *tl)
{
	while (tl->held_head < tl->nheld && tl->held[tl->held_head].state == TL_KNOWN) {
		const struct tl_item *it = &tl->held[tl->held_head++].it;

		if (it->kind == TL_FLOW) {
			tl->cfg.emit(tl->cfg.ctx, it);
			tl->flows++;
		}
		if (it->passed >= 0 && it->workload) {
			struct tl_item pc = { .kind = TL_PASSED, .cpu = -1, .t0 = it->t1,
					      .value = (int64_t)++tl->passed };

			tl->cfg.emit(tl->cfg.ctx, &pc);
			tl->counters++;
		}
	}
	if (tl->held_head == tl->nheld) {
		tl->held_base += (uint64_t)tl->nheld;
		tl->held_head = tl->nheld = 0;
	}
}

/* The flow of the last event, told nothing by the analyzer while it took that event, was
 * not judged (or the timeline ends). */
static void settle(struct timeline *tl)
{
	uint64_t k = tl->asked - 1;
	struct tl_held *h;

	tl->asked = 0;
	if (k < tl->held_base + (uint64_t)tl->held_head || k >= tl->held_base + (uint64_t)tl->nheld)
		return; /* judged, and gone out */
	h = &tl->held[k - tl->held_base];
	if (h->state != TL_ASKED)
		return;
	h->state = TL_KNOWN;
	h->it.passed = TL_IDLE_UNJUDGED;
	tl->unjudged++;
	release(tl);
}

/*
 * The flow of tid's wakeup run at run_ns waiting for the analyzer's word, else NULL: the
 * last event's (a verdict at its run), else the oldest waiting (verdicts made come in the
 * order of the runs: the first held, almost always).
 */
static struct tl_held *held_for(struct timeline *tl, int32_t tid, uint64_t run_ns)
{
	uint64_t k = tl->asked - 1;

	if (tl->asked && k >= tl->held_base + (uint64_t)tl->held_head &&
	    k < tl->held_base + (uint64_t)tl->nheld) {
		struct tl_held *h = &tl->held[k - tl->held_base];

		if (h->state == TL_ASKED && h->it.tid == tid && h->it.t1 == run_ns)
			return h;
	}
	for (int i = tl->held_head; i < tl->nheld; i++) {
		struct tl_held *h = &tl->held[i];

		if (h->state != TL_KNOWN && h->it.tid == tid && h->it.t1 == run_ns)
			return h;
	}
	return NULL;
}

void timeline_verdict(void *ctx, const struct idle_told *v)
{
	struct timeline *tl = ctx;
	struct tl_held *h = held_for(tl, v->tid, v->run_ns);

	if (!h) { /* no flow here (outside the window, or not seen woken): its count only */
		struct tl_item it = { .kind = TL_PASSED, .cpu = -1, .tid = v->tid,
				      .t1 = v->run_ns, .passed = TL_IDLE_NONE, .workload = true };

		tl->judged_unseen++;
		if (v->ic.verdict == IDLE_DEFERRED) {
			hold(tl, &it, TL_WAITING);
			return;
		}
		if (v->ic.verdict != IDLE_PASSED)
			return;
		h = hold(tl, &it, TL_KNOWN);
	}
	if (v->ic.verdict == IDLE_DEFERRED) {
		h->state = TL_WAITING;
		return;
	}
	h->state = TL_KNOWN;
	h->it.passed = v->ic.verdict == IDLE_PASSED	  ? (int)v->ic.closest :
		       v->ic.verdict == IDLE_NOT_ALLOWED ? TL_IDLE_NOT_ALLOWED :
		       v->ic.verdict == IDLE_UNJUDGED	  ? TL_IDLE_UNJUDGED :
							    TL_IDLE_NONE;
	release(tl);
}

void timeline_blame(struct timeline *tl, const struct blame_told *b)
{
	struct tl_held *h = held_for(tl, b->tid, b->run_ns);

	if (!h || h->it.kind != TL_FLOW)
		return;
	h->it.blame.on = true;
	memcpy(h->it.blame.ns, b->ns, sizeof(h->it.blame.ns));
	h->it.blame.top_tid = b->top_tid;
	memcpy(h->it.blame.top_comm, b->top_comm, TASK_COMM_LEN);
	h->it.blame.top_ns = b->top_ns;
}

/* The wakeup of n (woken at n->wake_ns) ran at e: its flow, held for its verdict. */
static void flow(struct timeline *tl, const struct event *e, const struct tl_task *n)
{
	struct tl_item it = { .kind = TL_FLOW, .cpu = e->cpu, .from_cpu = n->waker_cpu,
			      .t0 = n->wake_ns, .t1 = e->time_ns, .tid = n->tid,
			      .id = ++tl->next_flow, .passed = TL_IDLE_UNJUDGED,
			      .workload = workload(tl, n->tid) };
	bool ask = tl->cfg.judged && it.workload;

	memcpy(it.comm, e->sw.next_comm, sizeof(it.comm));
	it.cls = valid(tl, n->waker_cpu) ? topology_class(tl->cfg.topo, n->waker_cpu, e->cpu) :
					   LOC_REMOTE;
	hold(tl, &it, ask ? TL_ASKED : TL_KNOWN);
	if (ask)
		tl->asked = tl->held_base + (uint64_t)tl->nheld; /* its number + 1 */
	else
		release(tl);
}

static void on_switch(struct timeline *tl, const struct event *e)
{
	struct tl_cpu *c = &tl->cpu[e->cpu];
	enum tl_end how = event_switch_involuntary(e) ? TL_END_PREEMPT :
			  event_switch_exited(e) ? TL_END_EXIT : TL_END_SLEEP;

	if (c->tid < 0) { /* running since before the first event: cut at the window's start */
		set_current(tl, c, e->sw.prev_pid);
		c->since = tl->first_ns;
		c->before = true;
		memcpy(c->comm, e->sw.prev_comm, sizeof(c->comm));
	}
	if (c->tid == e->sw.prev_pid && e->tid == e->sw.prev_pid)
		c->pid = e->pid;
	end_slice(tl, e->cpu, e->time_ns, how);
	if (e->sw.prev_pid > 0) {
		struct tl_task *p = task(tl, e->sw.prev_pid);

		memcpy(p->comm, e->sw.prev_comm, sizeof(p->comm));
		if (how == TL_END_PREEMPT)
			p->queued = e->cpu; /* from running to waiting here: the count stays */
		else
			runnable(tl, e->cpu, -1, e->time_ns);
	}
	set_current(tl, c, e->sw.next_pid);
	c->pid = -1;
	c->before = false;
	c->inferred = false;
	c->start = TL_START_SWITCH;
	memcpy(c->comm, e->sw.next_comm, sizeof(c->comm));
	c->since = e->time_ns;
	if (e->sw.next_pid <= 0)
		return;
	if (in_window(tl, e->time_ns))
		tl->switches_in_window++;
	{
		struct tl_task *n = task(tl, e->sw.next_pid);

		memcpy(n->comm, e->sw.next_comm, sizeof(n->comm));
		if (n->queued == e->cpu)
			n->queued = -1; /* from waiting here to running here */
		else {
			queue(tl, n, -1, e->time_ns);
			runnable(tl, e->cpu, 1, e->time_ns);
		}
		if (n->pending) {
			n->pending = false;
			if (in_window(tl, n->wake_ns) && in_window(tl, e->time_ns))
				flow(tl, e, n);
		}
	}
}

/*
 * e's task runs on e's CPU, but the switch onto it was not recorded (some
 * kernels leave it out when a CPU leaves idle): what ran before ends here,
 * and its period starts here, at the first event that shows it running. Its
 * wakeup makes no flow (when it began to run is not known).
 */
static void missed_switch_in(struct timeline *tl, const struct event *e)
{
	struct tl_cpu *c = &tl->cpu[e->cpu];
	struct tl_task *n;

	end_slice(tl, e->cpu, e->time_ns, TL_END_UNSEEN);
	if (c->tid > 0) {
		runnable(tl, e->cpu, -1, e->time_ns);
		task(tl, c->tid)->unseen_out = true;
	}
	if (in_window(tl, e->time_ns))
		tl->missed++;
	set_current(tl, c, e->tid);
	n = task(tl, e->tid);
	c->pid = e->pid;
	c->since = e->time_ns;
	c->before = false;
	c->inferred = true;
	c->start = TL_START_FIRST_EVENT;
	memcpy(c->comm, n->comm, sizeof(c->comm));
	if (!c->comm[0]) /* never named (no switch, wakeup, fork or COMM record said it): as
			  * perf script shows it */
		snprintf(c->comm, sizeof(c->comm), ":%d", (int)e->tid);
	if (n->queued == e->cpu) {
		n->queued = -1;
	} else {
		queue(tl, n, -1, e->time_ns);
		runnable(tl, e->cpu, 1, e->time_ns);
	}
	n->pending = false;
}

/*
 * e->tid is named e->comm.comm from now on (PERF_RECORD_COMM: exec, a rename, or the
 * recording's start). Running under another name, its period ends and a new one
 * begins under the new name, as perf script names its events from there.
 */
static void on_comm(struct timeline *tl, const struct event *e)
{
	struct tl_cpu *c = valid(tl, e->cpu) ? &tl->cpu[e->cpu] : NULL;

	if (e->tid <= 0)
		return;
	memcpy(task(tl, e->tid)->comm, e->comm.comm, TASK_COMM_LEN);
	if (!tl->started || !c || c->tid != e->tid || e->time_ns < c->since ||
	    !strncmp(c->comm, e->comm.comm, TASK_COMM_LEN))
		return;
	end_slice(tl, e->cpu, e->time_ns, TL_END_RENAMED);
	c->since = e->time_ns; /* before the window, end_slice cuts it at its start */
	c->before = false;
	c->inferred = false;
	c->start = e->comm.exec ? TL_START_EXEC : TL_START_RENAME;
	memcpy(c->comm, e->comm.comm, sizeof(c->comm));
}

void timeline_event(struct timeline *tl, const struct event *e)
{
	struct tl_task *t;

	if (tl->asked)
		settle(tl);
	if (e->type == EV_COMM) { /* a name, not a sign of running (time 0: the start's) */
		on_comm(tl, e);
		return;
	}
	if (e->type == EV_LOST || e->type == EV_MEM || !valid(tl, e->cpu))
		return;
	if (!tl->started) {
		tl->started = true;
		tl->first_ns = e->time_ns;
	}
	if (e->time_ns > tl->last_ns)
		tl->last_ns = e->time_ns;
	if (e->tid > 0 && tl->cpu[e->cpu].tid >= 0 && tl->cpu[e->cpu].tid != e->tid)
		missed_switch_in(tl, e);
	if (e->tid > 0) /* its own event: where it is is known again */
		task(tl, e->tid)->unseen_out = false;
	if (e->type == EV_SWITCH && e->sw.next_pid > 0)
		task(tl, e->sw.next_pid)->unseen_out = false;
	if (e->tid > 0 && tl->cpu[e->cpu].tid == e->tid)
		tl->cpu[e->cpu].pid = e->pid; /* the running task's process, from its own events */
	switch (e->type) {
	case EV_SWITCH:
		on_switch(tl, e);
		break;
	case EV_WAKEUP_NEW: /* a new task: it waits where it was placed, no wakeup flow */
		if (e->wake.pid > 0) {
			t = task(tl, e->wake.pid);
			memcpy(t->comm, e->wake.comm, sizeof(t->comm));
			queue(tl, t, e->wake.target_cpu, e->time_ns);
		}
		break;
	case EV_FORK: /* named as its parent was (perf's FORK record says the same) */
		if (e->fork.child_pid > 0)
			memcpy(task(tl, e->fork.child_pid)->comm, e->fork.child_comm, TASK_COMM_LEN);
		break;
	case EV_WAKING:
	case EV_WAKEUP:
		if (e->wake.pid <= 0)
			break;
		t = task(tl, e->wake.pid);
		if (t->oncpu || t->unseen_out)
			return; /* woken while running (or maybe): nothing to wait for */
		memcpy(t->comm, e->wake.comm, sizeof(t->comm));
		if (!t->pending) { /* waking and its wakeup: one wakeup, from the first */
			t->pending = true;
			t->wake_ns = e->time_ns;
			t->waker_cpu = e->cpu;
		}
		/* waking names the CPU it last ran on; wakeup the one chosen */
		queue(tl, t, e->wake.target_cpu, e->time_ns);
		break;
	case EV_MIGRATE: {
		struct tl_item it = { .kind = TL_MIGRATE, .cpu = e->mig.dest_cpu,
				      .from_cpu = e->mig.orig_cpu, .t0 = e->time_ns,
				      .tid = e->mig.pid, .workload = workload(tl, e->mig.pid) };

		t = task(tl, e->mig.pid);
		if (t->queued >= 0)
			queue(tl, t, e->mig.dest_cpu, e->time_ns);
		if (in_window(tl, e->time_ns) && valid(tl, it.cpu) && valid(tl, it.from_cpu)) {
			it.cls = topology_class(tl->cfg.topo, it.from_cpu, it.cpu);
			tl->cfg.emit(tl->cfg.ctx, &it);
			tl->migrations++;
		}
		break;
	}
	default:
		break;
	}
}

void timeline_flush(struct timeline *tl)
{
	if (tl->asked)
		settle(tl);
	for (int i = tl->held_head; i < tl->nheld; i++) {
		struct tl_held *h = &tl->held[i];

		if (h->state == TL_WAITING) { /* deferred, never told (the analyzer stopped) */
			h->state = TL_KNOWN;
			h->it.passed = TL_IDLE_UNJUDGED;
			tl->unjudged += h->it.kind == TL_FLOW;
		}
	}
	release(tl);
}

void timeline_finish(struct timeline *tl)
{
	timeline_flush(tl);
	for (int c = 0; c < tl->ncpus; c++)
		end_slice(tl, c, tl->cfg.to_ns && tl->last_ns - tl->first_ns > tl->cfg.to_ns ?
				       tl->first_ns + tl->cfg.to_ns : tl->last_ns, TL_END_OPEN);
}
