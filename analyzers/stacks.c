/* stacks.c - waker, blocked and off-wake stacks per locality class (stacks.h). */
#define _GNU_SOURCE /* qsort_r */
#include "stacks.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

/* What is pending for a task: its last voluntary switch-out, its last wakeup. */
struct stacks_task {
	uint64_t out_ns;	/* when it switched out */
	uint32_t blocked;	/* with this stack (0: none pending) */
	uint32_t block_waker;	/* the first wakeup after it: the waker's stack, CPU */
	int32_t block_waker_cpu;
	uint32_t waker;		/* a wakeup not yet followed by a switch-in (0: none) */
	int32_t waker_cpu;
	uint8_t on_cpu;		/* switched in and not out since */
	uint8_t woken;		/* a sched_waking came after the switch-out */
	uint8_t pending_block;
};

void stacks_init(struct stacks *s, const struct topology *topo)
{
	memset(s, 0, sizeof(*s));
	s->topo = topo;
	tidmap_init(&s->tasks);
	for (int k = 0; k < STACKS_KINDS; k++)
		u64map_init(&s->v[k].idx);
}

static struct stacks_task *task(struct stacks *s, int32_t tid)
{
	int32_t i = tidmap_get(&s->tasks, tid);

	if (i >= 0)
		return &s->ts[i];
	if (s->nts == s->capts) {
		s->capts = s->capts ? 2 * s->capts : 256;
		s->ts = xrealloc(s->ts, (size_t)s->capts * sizeof(*s->ts));
	}
	memset(&s->ts[s->nts], 0, sizeof(*s->ts));
	tidmap_put(&s->tasks, tid, s->nts);
	return &s->ts[s->nts++];
}

/* Count n into view k's row (stack, waker, cls), with a time (their sum) when timed. */
static void count_n(struct stacks *s, enum stacks_kind k, uint32_t stack, uint32_t waker,
		    int cls, uint64_t n, int timed, uint64_t time_ns)
{
	struct stacks_view *v = &s->v[k];
	uint64_t key = (uint64_t)stack << 36 | (uint64_t)waker << 8 | (uint64_t)cls;
	uint32_t *at = u64map_get(&v->idx, key);
	struct stacks_row *r;

	if (!at) {
		if (v->n == v->cap) {
			v->cap = v->cap ? 2 * v->cap : 256;
			v->row = xrealloc(v->row, (size_t)v->cap * sizeof(*v->row));
		}
		v->row[v->n] = (struct stacks_row){ stack, waker, (uint8_t)cls, 0, 0, 0 };
		u64map_put(&v->idx, key, v->n);
		r = &v->row[v->n++];
	} else {
		r = &v->row[*at];
	}
	r->count += n;
	v->count += n;
	if (timed) {
		r->time_ns += time_ns;
		r->timed += n;
		v->time_ns += time_ns;
		v->timed += n;
	}
}

static void count(struct stacks *s, enum stacks_kind k, uint32_t stack, uint32_t waker,
		  int cls, int timed, uint64_t time_ns)
{
	count_n(s, k, stack, waker, cls, 1, timed, time_ns);
}

void stacks_add_counted(struct stacks *s, enum stacks_kind k, uint32_t stack, uint32_t waker,
			int cls, uint64_t n, uint64_t time_ns, int timed)
{
	if (k < STACKS_KINDS && cls >= 0 && cls < STACKS_CLASSES && n)
		count_n(s, k, stack, waker, cls, n, timed, time_ns);
}

/* A switch-out that never saw its task run again: counted, not timed. */
static void block_not_run(struct stacks *s, struct stacks_task *t)
{
	count(s, STACKS_BLOCKED, t->blocked, 0, STACKS_NOT_RUN, 0, 0);
	if (t->woken && t->block_waker)
		count(s, STACKS_OFFWAKE, t->blocked, t->block_waker, STACKS_NOT_RUN, 0, 0);
	t->pending_block = 0;
}

static void on_waking(struct stacks *s, const struct event *e)
{
	struct stacks_task *t;

	if (s->in_scope && !s->in_scope(s->scope_ctx, e->wake.pid))
		return;
	s->wakings++;
	if (!e->wake.stack)
		s->wakings_nostack++;
	t = task(s, e->wake.pid);
	if (t->pending_block && !t->woken) { /* the wakeup that ends the sleep */
		t->woken = 1;
		t->block_waker = e->wake.stack;
		t->block_waker_cpu = e->cpu;
	}
	if (!e->wake.stack)
		return;
	if (t->waker) /* woken again before it ran */
		count(s, STACKS_WAKERS, t->waker, 0, STACKS_NOT_RUN, 0, 0);
	t->waker = 0;
	if (t->on_cpu) { /* still on its CPU: no switch-in will follow */
		count(s, STACKS_WAKERS, e->wake.stack, 0, STACKS_NOT_RUN, 0, 0);
		return;
	}
	t->waker = e->wake.stack;
	t->waker_cpu = e->cpu;
}

/* The task t switched in on cpu at now: its pending wakeup and sleep end. */
static void switched_in(struct stacks *s, struct stacks_task *t, int32_t cpu, uint64_t now)
{
	t->on_cpu = 1;
	if (t->waker) {
		count(s, STACKS_WAKERS, t->waker, 0, topology_class(s->topo, t->waker_cpu, cpu), 0,
		      0);
		t->waker = 0;
	}
	if (t->pending_block) {
		uint64_t off = now > t->out_ns ? now - t->out_ns : 0;
		int cls = t->woken ? (int)topology_class(s->topo, t->block_waker_cpu, cpu) :
				     STACKS_NO_WAKEUP;

		count(s, STACKS_BLOCKED, t->blocked, 0, cls, 1, off);
		if (t->woken && t->block_waker)
			count(s, STACKS_OFFWAKE, t->blocked, t->block_waker, cls, 1, off);
		t->pending_block = 0;
	}
}

static void on_switch(struct stacks *s, const struct event *e)
{
	struct stacks_task *t;

	if (e->sw.prev_pid > 0 && (!s->in_scope || s->in_scope(s->scope_ctx, e->sw.prev_pid))) {
		t = task(s, e->sw.prev_pid);
		t->on_cpu = 0;
		if (t->waker) { /* it ran after its wakeup, but the switch-in was not recorded */
			count(s, STACKS_WAKERS, t->waker, 0, STACKS_NOT_RUN, 0, 0);
			t->waker = 0;
		}
		if (!event_switch_involuntary(e) && !event_switch_exited(e)) {
			s->switches_voluntary++;
			if (t->pending_block) /* its switch-in was lost */
				block_not_run(s, t);
			if (e->sw.stack) {
				t->pending_block = 1;
				t->blocked = e->sw.stack;
				t->out_ns = e->time_ns;
				t->woken = 0;
				t->block_waker = 0;
			} else {
				s->switches_nostack++;
			}
		}
	}
	if (e->sw.next_pid > 0 && (!s->in_scope || s->in_scope(s->scope_ctx, e->sw.next_pid)))
		switched_in(s, task(s, e->sw.next_pid), e->cpu, e->time_ns);
}

void stacks_add(struct stacks *s, const struct event *e)
{
	if (e->type == EV_WAKING)
		on_waking(s, e);
	else if (e->type == EV_SWITCH)
		on_switch(s, e);
}

void stacks_finish(struct stacks *s)
{
	for (int32_t i = 0; i < s->nts; i++) {
		struct stacks_task *t = &s->ts[i];

		if (t->waker)
			count(s, STACKS_WAKERS, t->waker, 0, STACKS_NOT_RUN, 0, 0);
		t->waker = 0;
		if (t->pending_block)
			block_not_run(s, t);
	}
}

struct sort_ctx {
	const struct stacks_row *row;
	int by_time;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct stacks_row *x = &c->row[*(const uint32_t *)a];
	const struct stacks_row *y = &c->row[*(const uint32_t *)b];
	uint64_t vx = c->by_time ? x->time_ns : x->count;
	uint64_t vy = c->by_time ? y->time_ns : y->count;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if (x->stack != y->stack)
		return x->stack < y->stack ? -1 : 1;
	if (x->waker != y->waker)
		return x->waker < y->waker ? -1 : 1;
	return (int)x->cls - (int)y->cls;
}

uint32_t *stacks_sorted(const struct stacks *s, enum stacks_kind k, int by_time)
{
	const struct stacks_view *v = &s->v[k];
	uint32_t *ix = xcalloc(v->n ? v->n : 1, sizeof(*ix));
	struct sort_ctx c = { v->row, by_time };

	for (uint32_t i = 0; i < v->n; i++)
		ix[i] = i;
	qsort_r(ix, v->n, sizeof(*ix), cmp_rows, &c);
	return ix;
}

static const char *const kind_names[STACKS_KINDS] = { "wakers", "blocked", "offwake" };

const char *stacks_kind_name(enum stacks_kind k)
{
	return kind_names[k];
}

int stacks_kind_of(const char *name)
{
	for (int k = 0; k < STACKS_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

const char *stacks_class_name(int cls)
{
	if (cls == STACKS_NO_WAKEUP)
		return "no_wakeup";
	if (cls == STACKS_NOT_RUN)
		return "not_run";
	return locality_name((enum locality)cls);
}

void stacks_release(struct stacks *s)
{
	for (int k = 0; k < STACKS_KINDS; k++) {
		free(s->v[k].row);
		u64map_release(&s->v[k].idx);
	}
	free(s->ts);
	tidmap_release(&s->tasks);
	memset(s, 0, sizeof(*s));
}
