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

/* mask a and b, of nwords each, the same (NULL: gone) */
static bool same_mask(const uint64_t *a, const uint64_t *b, int nwords)
{
	return a && b ? !memcmp(a, b, (size_t)nwords * sizeof(*a)) : a == b;
}

/*
 * The call's entry: the mask read now, from the entry's time on. The kernel sets the mask
 * inside the call, before the call waits for the task to move to a CPU it allows: the
 * task's wakeup from that wait already counts under the new mask (a reader that comes
 * to the entry before the kernel set it reads the old one: the return reads again).
 */
static bool on_entry(struct aff_watch *a, struct aff_call *c, const struct event *e,
		     struct event *out)
{
	aff_read(a, c->target, e->time_ns, out);
	out->cpu = e->cpu; /* in order with the entry's CPU */
	c->entry_mask = out->aff.mask;
	return true;
}

/* The mask aff_read just kept, given back (a read that changed nothing). */
static void unread(struct aff_watch *a, const struct event *out)
{
	if (out->aff.mask && a->nmasks && a->masks[a->nmasks - 1] == out->aff.mask)
		free(a->masks[--a->nmasks]);
}

bool aff_on_call(struct aff_watch *a, const struct event *e, struct event *out)
{
	struct aff_call *c = call_of(a, e->tid);
	bool whole, handed;

	if (e->type == EV_SETAFFINITY) {
		/* an exit seen first is this call's, unless it came before (a call made
		 * before tracing began, whose entry was never seen) */
		if (c && !(c->exited && c->exit_ns >= e->time_ns)) {
			call_drop(a, c);
			c = NULL;
		}
		whole = c; /* the exit came first: the call is whole, its result known */
		if (!c) {
			c = call_new(a, e->tid);
			c->entered = true;
		}
		c->target = e->aff.pid > 0 ? e->aff.pid : e->tid;
		if (!whole)
			return on_entry(a, c, e, out);
		handed = c->ret == 0; /* else refused: nothing changed */
		if (handed) {
			a->changes++;
			on_entry(a, c, e, out);
		}
		call_drop(a, c);
		return handed;
	}
	if (e->type != EV_SETAFFINITY_RET)
		return false;
	if (!c || c->exited) { /* the entry comes later, or was never seen */
		if (c)
			call_drop(a, c);
		c = call_new(a, e->tid);
		c->exited = true;
		c->exit_ns = e->time_ns;
		c->ret = e->aff.ret;
		return false;
	}
	/* the entry handed on the mask; again from now only if it differs (read before
	 * the kernel set it) */
	handed = false;
	if (e->aff.ret == 0) {
		a->changes++;
		aff_read(a, c->target, e->time_ns, out);
		out->cpu = e->cpu; /* in order with the CPU's events, the call's last one */
		handed = !same_mask(out->aff.mask, c->entry_mask, a->nwords);
		if (!handed)
			unread(a, out);
	}
	call_drop(a, c);
	return handed;
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
