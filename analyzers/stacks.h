/*
 * stacks.h - what code woke and what code slept, from the callchains of sched_waking and
 * sched_switch (locus record -g, perf record -g): the waker's stack at each wakeup, the
 * blocked task's stack at each voluntary switch-out weighted by its time off CPU until
 * it next ran, and the two joined (off-wake), each per locality class of the wakeup
 * (waker's CPU to the CPU the wakee ran on). Pure: events in, counts by stack id out
 * (model/stack.h names the ids).
 */
#ifndef LOCUS_STACKS_H
#define LOCUS_STACKS_H

#include <stdint.h>

#include "../common/tidmap.h"
#include "../common/u64map.h"
#include "../model/event.h"
#include "../model/topology.h"

enum stacks_kind { STACKS_WAKERS, STACKS_BLOCKED, STACKS_OFFWAKE, STACKS_KINDS };

/* The locality classes (enum locality), then two that have none. */
#define STACKS_NO_WAKEUP LOC_NR		/* ran again without a sched_waking seen for it */
#define STACKS_NOT_RUN (LOC_NR + 1)	/* did not run after it in the recording: (wakers)
					 * woken while still on CPU or woken again first,
					 * (blocked) never switched in again */
#define STACKS_CLASSES (LOC_NR + 2)

struct stacks_row {
	uint32_t stack;		/* wakers: the waker's; blocked, off-wake: the blocked task's */
	uint32_t waker;		/* off-wake: the waker's stack; else 0 */
	uint8_t cls;		/* a locality class, STACKS_NO_WAKEUP or STACKS_NOT_RUN */
	uint64_t count;		/* wakeups, or voluntary switch-outs */
	uint64_t time_ns;	/* blocked, off-wake: time off CPU until the task next ran */
	uint64_t timed;		/* of count, those with a time (the others did not run again) */
};

struct stacks_view {
	struct stacks_row *row;
	uint32_t n, cap;
	struct u64map idx;	/* (stack, waker, class) -> row */
	uint64_t count, time_ns, timed;	/* the rows' sums */
};

struct stacks_task;

struct stacks {
	const struct topology *topo;
	struct stacks_view v[STACKS_KINDS];
	struct tidmap tasks;		/* tid -> its state in ts */
	struct stacks_task *ts;
	int32_t nts, capts;
	/* whose events count: wakeups of a task in scope, sleeps of a task in scope; NULL
	 * every task (the scope is the caller's: a report follows a task tree) */
	bool (*in_scope)(void *ctx, int32_t tid);
	void *scope_ctx;
	uint64_t wakings, switches_voluntary;	/* seen, with a callchain or not */
	uint64_t wakings_nostack, switches_nostack; /* of those, without one */
	/* sampled (the BPF collector): counts are samples, not every event; 0: every one */
	struct stacks_sampled {
		unsigned every_waker;	/* 1 waker stack in this many wakeups (timed) */
		unsigned every_blocked;	/* 1 blocked stack in this many voluntary switch-outs */
		uint64_t taken_waker, taken_blocked, taken_offwake;
		uint64_t enomem, eother, full, lost;	/* dropped, by why */
		uint64_t tgids, tgids_gone;	/* processes sampled; gone before their maps
						 * were read (their user frames unnamed) */
	} sampled;
};

void stacks_init(struct stacks *s, const struct topology *topo);
/* One event, in time order (EV_WAKING and EV_SWITCH count; others are ignored). */
void stacks_add(struct stacks *s, const struct event *e);
/*
 * Rows counted elsewhere (the BPF collector's, in the kernel): n into view k's row
 * (stack, waker, cls), each with a time (time_ns their sum) where timed.
 */
void stacks_add_counted(struct stacks *s, enum stacks_kind k, uint32_t stack, uint32_t waker,
			int cls, uint64_t n, uint64_t time_ns, int timed);
/* After the last event: what is still pending counts as STACKS_NOT_RUN. */
void stacks_finish(struct stacks *s);
/*
 * The rows of view k, most first (by time where by_time, else by count; ties by stack
 * id), as indices into s->v[k].row: an array of s->v[k].n the caller frees.
 */
uint32_t *stacks_sorted(const struct stacks *s, enum stacks_kind k, int by_time);
/* "wakers", "blocked", "offwake"; the kind named so, or -1. */
const char *stacks_kind_name(enum stacks_kind k);
int stacks_kind_of(const char *name);
/* A class's JSON key: locality_name, "no_wakeup", "not_run". */
const char *stacks_class_name(int cls);
void stacks_release(struct stacks *s);

#endif
