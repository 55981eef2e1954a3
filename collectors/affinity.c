/* affinity.c - each task's CPU affinity for the sched stream (affinity.h). */
#include "affinity.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "procfs.h"

void aff_init(struct aff_watch *a)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	memset(a, 0, sizeof(*a));
	a->nwords = (int)((n > 0 ? n : 1) + 63) / 64;
}

void aff_read(struct aff_watch *a, int32_t tid, uint64_t t, struct event *out)
{
	uint64_t *m = xcalloc((size_t)a->nwords, sizeof(uint64_t));

	memset(out, 0, sizeof(*out));
	out->type = EV_AFFINITY;
	out->time_ns = t;
	out->cpu = 0; /* the reorder window's queue of CPU 0: not a sign of running there */
	out->aff.pid = tid;
	out->aff.nwords = a->nwords;
	if (proc_affinity(tid, m, a->nwords) < 0) {
		free(m);
		return; /* gone: unknown from now on */
	}
	if (a->nmasks == a->cap_masks) {
		a->cap_masks = a->cap_masks ? 2 * a->cap_masks : 256;
		a->masks = xrealloc(a->masks, (size_t)a->cap_masks * sizeof(*a->masks));
	}
	a->masks[a->nmasks++] = m;
	out->aff.mask = m;
}

/* The half-seen call of caller, or NULL. */
static struct aff_call *call_of(struct aff_watch *a, int32_t caller)
{
	for (int i = 0; i < a->ncalls; i++)
		if (a->calls[i].caller == caller)
			return &a->calls[i];
	return NULL;
}

static void call_drop(struct aff_watch *a, struct aff_call *c)
{
	*c = a->calls[--a->ncalls];
}

static struct aff_call *call_new(struct aff_watch *a, int32_t caller)
{
	struct aff_call *c;

	if (a->ncalls == AFF_CALLS) { /* the oldest: its other half was lost */
		memmove(a->calls, a->calls + 1, (AFF_CALLS - 1) * sizeof(a->calls[0]));
		a->ncalls--;
		a->dropped++;
	}
	c = &a->calls[a->ncalls++];
	memset(c, 0, sizeof(*c));
	c->caller = caller;
	return c;
}

bool aff_on_call(struct aff_watch *a, const struct event *e, struct event *out)
{
	struct aff_call *c = call_of(a, e->tid);
	int32_t target;
	uint64_t at;

	if (e->type == EV_SETAFFINITY) {
		/* an exit seen first is this call's, unless it came before (a call made
		 * before tracing began, whose entry was never seen) */
		if (c && !(c->exited && c->exit_ns >= e->time_ns)) {
			call_drop(a, c);
			c = NULL;
		}
		if (!c) {
			c = call_new(a, e->tid);
			c->target = e->aff.pid > 0 ? e->aff.pid : e->tid;
			c->entered = true;
			return false;
		}
		c->target = e->aff.pid > 0 ? e->aff.pid : e->tid;
	} else if (e->type == EV_SETAFFINITY_RET) {
		if (!c || c->exited) { /* the entry comes later, or was never seen */
			if (c)
				call_drop(a, c);
			c = call_new(a, e->tid);
			c->exited = true;
			c->exit_ns = e->time_ns;
			c->ret = e->aff.ret;
			return false;
		}
		c->exit_ns = e->time_ns;
		c->ret = e->aff.ret;
	} else {
		return false;
	}
	target = c->target;
	at = c->exit_ns;
	if (c->ret != 0) { /* refused: nothing changed */
		call_drop(a, c);
		return false;
	}
	call_drop(a, c);
	a->changes++;
	aff_read(a, target, at, out);
	out->cpu = e->cpu; /* in order with the CPU's events, the call's last one */
	return true;
}

struct scan_ctx {
	struct aff_watch *a;
	void (*fn)(void *ctx, const struct event *e);
	void *ctx;
};

static void scan_one(void *arg, pid_t pid, pid_t tid, const char *comm)
{
	struct scan_ctx *s = arg;
	struct event e;

	(void)pid;
	(void)comm;
	aff_read(s->a, (int32_t)tid, 0, &e);
	if (e.aff.mask) /* gone since the listing: it never runs in the trace */
		s->fn(s->ctx, &e);
}

void aff_scan(struct aff_watch *a, void (*fn)(void *ctx, const struct event *e), void *ctx)
{
	struct scan_ctx s = { a, fn, ctx };

	proc_each_task(scan_one, &s);
}

void aff_release(struct aff_watch *a)
{
	for (int i = 0; i < a->nmasks; i++)
		free(a->masks[i]);
	free(a->masks);
	memset(a, 0, sizeof(*a));
}
