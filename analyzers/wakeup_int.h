/* wakeup_int.h - the wakeup analyzer's task record, shared by its files (not a public header). */
#ifndef LOCUS_WAKEUP_INT_H
#define LOCUS_WAKEUP_INT_H

#include "wakeup.h"

struct wk_task {
	struct task_stat st;
	bool tracked;
	bool running;
	bool exited;
	bool retired;		/* a free slot: the task exited and left the table */
	int32_t cpu;		/* last CPU known (ran or placed), -1 unknown */
	uint64_t on_cpu_since;
	/* the wakeup waiting for its switch-in */
	bool pending;
	bool placed;		/* target CPU known and counted */
	uint64_t wake_ns;
	int32_t waker_tid;
	int32_t waker_cpu;
	int32_t prev_cpu;
	int32_t target_cpu;
	int pair;		/* index of the pair, -1 none */
	bool affinity_read;	/* allowed was asked for */
	uint64_t affinity_at;	/* when (trace time) */
	uint64_t *allowed;	/* its affinity mask, NULL: every CPU */
	uint64_t *idle_at_wake;	/* the CPUs idle at the pending wakeup */
};

static inline bool valid_cpu(const struct wakeup *w, int32_t cpu)
{
	return cpu >= 0 && cpu < w->r.ncpus;
}

/* cpu's busy, idle and traced time up to now, from its current task since its last switch. */
void wk_account_cpu(struct wakeup *w, int32_t cpu, uint64_t now);
/* Ask for t's affinity mask now, at trace time now (a task gone keeps what it had). */
void wk_read_affinity(struct wakeup *w, struct wk_task *t, uint64_t now);
/* At a wakeup of t, at now: its affinity (first time) and the CPUs idle now. */
void wk_idle_at_wake(struct wakeup *w, struct wk_task *t, uint64_t now);
/*
 * Whether t's affinity is worth asking for again before judging a wakeup: it
 * was pinned, or the wakeup would count as passed over, and the last read is
 * AFFINITY_REFRESH_NS old (a task started pinned and let go later is seen).
 */
bool wk_affinity_stale(const struct wakeup *w, const struct wk_task *t,
		       const struct idle_check *ic, uint64_t now);
#define AFFINITY_REFRESH_NS 100000000ull
/* A timed wakeup of t that waited on target, and what idle_check said of it. */
void wk_count_idle(struct wakeup *w, const struct wk_task *t, const struct idle_check *ic,
		   int32_t target);
/*
 * An IPI sent from e->cpu (EV_IPI), or a polling idle CPU woken without one
 * (EV_WAKE_IDLE): counted for the traced wakeup its CPU made last, when no
 * switch, wakeup or other IPI came on that CPU in between.
 */
void wk_on_ipi(struct wakeup *w, const struct event *e);

#endif
