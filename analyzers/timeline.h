/*
 * timeline.h - scheduling as a timeline: from time-ordered sched events, each
 * CPU's running periods (who ran, from when to when, how it ended), each
 * wakeup's flow from the waker's CPU to the woken task's next run (its
 * locality class and delay), migrations, and the runnable tasks of each CPU.
 * Pure: items go to a sink (report/trace_json.c writes the Chrome trace
 * format from them), in the order they complete.
 */
#ifndef LOCUS_TIMELINE_H
#define LOCUS_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/u64map.h"
#include "../model/event.h"
#include "idle.h"
#include "../model/topology.h"

enum tl_kind {
	TL_SLICE,	/* cpu ran tid from t0 to t1 */
	TL_FLOW,	/* woken at t0 on from_cpu, ran at t1 on cpu */
	TL_MIGRATE,	/* at t0, tid moved from from_cpu to cpu */
	TL_COUNTER,	/* at t0, value runnable tasks on cpu */
	TL_PASSED,	/* at t0, value wakeups of the workload so far that passed over an
			 * idle CPU (analyzers/idle.h's rule, every CPU allowed) */
};

/* How a running period ended (TL_END_UNSEEN: the CPU's next switch-in was not recorded;
 * TL_END_RENAMED: its task took another name, by exec or a rename, and runs on as a new
 * period under it). */
enum tl_end { TL_END_SLEEP, TL_END_PREEMPT, TL_END_EXIT, TL_END_OPEN, TL_END_UNSEEN,
	      TL_END_RENAMED };

/* How a running period began, when not at a recorded switch-in. */
enum tl_start { TL_START_SWITCH, TL_START_FIRST_EVENT, TL_START_EXEC, TL_START_RENAME };

struct tl_item {
	enum tl_kind kind;
	int cpu;
	int from_cpu;
	uint64_t t0, t1;		/* ns, in the file's clock */
	int32_t tid, pid;
	char comm[TASK_COMM_LEN];
	enum tl_end end;		/* TL_SLICE */
	bool clipped;			/* TL_SLICE: began before the window, cut at its start */
	bool inferred;			/* TL_SLICE: its switch-in was not recorded; it starts
					 * at the task's first event on the CPU */
	enum tl_start start;		/* TL_SLICE: TL_START_FIRST_EVENT when inferred; where
					 * its task was renamed (exec or not) */
	bool workload;			/* TL_SLICE, TL_FLOW: a task of the workload (cfg.in_scope) */
	enum locality cls;		/* TL_FLOW: from_cpu -> cpu; TL_MIGRATE: likewise */
	int passed;			/* TL_FLOW: the closest idle CPU passed over (enum
					 * locality), -1 when none was */
	uint64_t id;			/* TL_FLOW: its number */
	int64_t value;			/* TL_COUNTER */
};

struct timeline_cfg {
	const struct topology *topo;
	uint64_t from_ns, to_ns;	/* the window, from the first event (to 0: to the end) */
	void (*emit)(void *ctx, const struct tl_item *it);
	void *ctx;
	/* whether tid is one of the workload's tasks (NULL: every task is) */
	bool (*in_scope)(void *ctx, int32_t tid);
	void *scope_ctx;
};

struct tl_cpu {
	int32_t tid, pid;		/* running now (0: idle; -1: not seen yet) */
	char comm[TASK_COMM_LEN];
	uint64_t since;
	int64_t runnable;
	bool counted;			/* its counter was emitted once */
	bool before;			/* running since before the first event */
	bool inferred;			/* seen running without a switch-in */
	enum tl_start start;		/* how the current period began */
};

struct tl_task {
	int32_t tid;
	int32_t queued;			/* the CPU it waits on, -1 when it does not wait */
	bool pending;			/* woken, not yet run */
	uint64_t wake_ns;
	int32_t waker_cpu;
	uint64_t *idle_at_wake;		/* the idle CPUs when it was woken */
	uint64_t idle_pos;		/* where the log of idle starts stood then */
	int32_t oncpu;			/* CPUs whose current task it is (0: not running) */
	char comm[TASK_COMM_LEN];	/* its name, as last seen */
};

struct timeline {
	struct timeline_cfg cfg;
	int ncpus;
	struct tl_cpu *cpu;
	struct tl_task *tasks;
	int ntasks, cap;
	struct u64map idx;		/* tid -> tasks index + 1 */
	uint64_t first_ns, last_ns;
	bool started;
	uint64_t next_flow;
	struct idle_track idle;
	/* what was emitted, for the caller to state */
	uint64_t slices, flows, migrations, counters, switches_in_window, passed;
	uint64_t missed;		/* in the window: tasks seen running with no switch-in */
};

void timeline_init(struct timeline *tl, const struct timeline_cfg *cfg);
void timeline_event(struct timeline *tl, const struct event *e);
/* The periods still running end at the last event (TL_END_OPEN). */
void timeline_finish(struct timeline *tl);
void timeline_release(struct timeline *tl);

#endif
