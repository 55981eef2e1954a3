/*
 * timeline.h - scheduling as a timeline: from time-ordered sched events, each
 * CPU's running periods (who ran, from when to when, how it ended), each
 * wakeup's flow from the waker's CPU to the woken task's next run (its
 * locality class and delay), migrations, and the runnable tasks of each CPU.
 * Pure: items go to a sink (report/trace_json.c writes the Chrome trace
 * format from them), in the order they complete.
 *
 * Whether a wakeup passed over an idle CPU is not judged here: the wakeup analyzer
 * fed the same events (analyzers/idle.h's rule, the report's count) tells its verdicts
 * (timeline_verdict). A flow is held until its verdict is known, and flows go out in the
 * order of their runs, so the counter of those that passed over rises in time.
 */
#ifndef LOCUS_TIMELINE_H
#define LOCUS_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/u64map.h"
#include "../model/event.h"
#include "idle.h"
#include "../model/topology.h"
#include "blame.h"

enum tl_kind {
	TL_SLICE,	/* cpu ran tid from t0 to t1 */
	TL_FLOW,	/* woken at t0 on from_cpu, ran at t1 on cpu */
	TL_MIGRATE,	/* at t0, tid moved from from_cpu to cpu */
	TL_COUNTER,	/* at t0, value runnable tasks on cpu */
	TL_PASSED,	/* at t0, value wakeups of the workload so far that passed over an
			 * idle CPU: the analyzer's verdicts (timeline_verdict) */
};

/* TL_FLOW's passed when no idle CPU was passed over (else the closest one's locality). */
enum tl_idle {
	TL_IDLE_NONE = -1,		/* judged: none was */
	TL_IDLE_NOT_ALLOWED = -2,	/* judged: the idle ones were outside its affinity */
	TL_IDLE_UNJUDGED = -3,		/* the analyzer did not judge it (not its task, not
					 * a wakeup it saw run, or its affinity not known) */
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
	bool workload;			/* TL_SLICE, TL_FLOW, TL_MIGRATE: a task of the workload
					 * (cfg.in_scope) */
	enum locality cls;		/* TL_FLOW: from_cpu -> cpu; TL_MIGRATE: likewise */
	int passed;			/* TL_FLOW: the closest idle CPU passed over (enum
					 * locality), else enum tl_idle */
	uint64_t id;			/* TL_FLOW: its number */
	int64_t value;			/* TL_COUNTER */
	/* TL_FLOW with who delayed the wakee: its wait split (blame.h), the task that ran
	 * the longest instead (on: told) */
	struct tl_blame {
		bool on;
		uint64_t ns[BC_NR];
		int32_t top_tid;
		char top_comm[TASK_COMM_LEN];
		uint64_t top_ns;
	} blame;
};

struct timeline_cfg {
	const struct topology *topo;
	uint64_t from_ns, to_ns;	/* the window, from the first event (to 0: to the end) */
	void (*emit)(void *ctx, const struct tl_item *it);
	void *ctx;
	/* whether tid is one of the workload's tasks (NULL: every task is) */
	bool (*in_scope)(void *ctx, int32_t tid);
	void *scope_ctx;
	/* a wakeup analyzer fed each event after the timeline tells its verdicts to
	 * timeline_verdict (false: every flow is TL_IDLE_UNJUDGED) */
	bool judged;
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

enum tl_held_state { TL_ASKED, TL_WAITING, TL_KNOWN };

struct tl_held {
	struct tl_item it;		/* TL_FLOW; TL_PASSED: a wakeup judged without a flow
					 * (tid, t1: its run, passed) */
	enum tl_held_state state;	/* asked at its run, deferred by the analyzer, known */
};

struct tl_task {
	int32_t tid;
	int32_t queued;			/* the CPU it waits on, -1 when it does not wait */
	bool pending;			/* woken, not yet run */
	uint64_t wake_ns;
	int32_t waker_cpu;
	int32_t oncpu;			/* CPUs whose current task it is (0: not running) */
	bool unseen_out;		/* another task's switch-in was inferred on its CPU: its
					 * own switch-out went unrecorded, its state unknown until
					 * its next event (a wakeup meanwhile is not waited for,
					 * as the wakeup analyzer counts it: woken while running) */
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
	/* flows, and wakeups judged without one (their count), from the oldest whose
	 * verdict is not known yet: [held_head, nheld), numbered from held_base */
	struct tl_held *held;
	int held_head, nheld, cap_held;
	uint64_t held_base;
	uint64_t asked;			/* the flow of the last event, waiting for the analyzer
					 * to judge it or not (its number + 1; 0: none) */
	/* what was emitted, for the caller to state */
	uint64_t slices, flows, migrations, counters, switches_in_window, passed;
	uint64_t missed;		/* in the window: tasks seen running with no switch-in */
	uint64_t unjudged;		/* flows of the workload the analyzer judged not */
	uint64_t judged_unseen;		/* verdicts on wakeups that made no flow here */
};

void timeline_init(struct timeline *tl, const struct timeline_cfg *cfg);
void timeline_event(struct timeline *tl, const struct event *e);
/*
 * The analyzer's verdict on v->tid's wakeup that ran at v->run_ns (cfg.judged; ctx: the
 * timeline): told while it takes the event of that run (the one timeline_event took
 * last), a verdict or IDLE_DEFERRED, then, deferred, the verdict later, in run order. A
 * flow of the workload told nothing by the next event was not judged. A verdict on a
 * wakeup that made no flow counts on the counter all the same (the report counts it).
 */
void timeline_verdict(void *ctx, const struct idle_told *v);
/* Who delayed the wakee's split of a wakeup (blame_cfg.told), before its verdict: on its
 * flow when the flow is held for it (nothing else). */
void timeline_blame(struct timeline *tl, const struct blame_told *b);
/* The flows still held go out, in order (a verdict never told: not judged): at the end,
 * or when the stream stops on an error (what was read before is kept). */
void timeline_flush(struct timeline *tl);
/* timeline_flush, then the periods still running end at the last event (TL_END_OPEN).
 * Call after the analyzer's finish. */
void timeline_finish(struct timeline *tl);
void timeline_release(struct timeline *tl);

#endif
