/*
 * idle.h - which CPUs were idle, as sched events say, and whether a woken task
 * that waited on a busy CPU could have run on an idle one it was allowed on
 * ("passed over": the wasted-cores question of select_idle_sibling).
 *
 * A CPU is idle from its switch to the idle task. The idle period ends at its
 * recorded switch away from the idle task; when instead an event of a task on
 * that CPU shows up first (a switch-out, a wakeup it made: its switch-in was
 * lost by the stream, seen here for most switch-ins out of idle), the switch-in
 * is inferred: the period ends at the last event the idle task emitted there
 * (its switch in, or a later one), and the stretch from then to the task's
 * event is unknown, never idle. A period still open at the end of the stream
 * lasts to its end (nothing showed the CPU busy).
 *
 * The rule: a wakeup was passed over when its target CPU was not idle from the
 * wakeup until the task ran, and another CPU in its affinity mask was idle at
 * the wakeup or when the task ran (idle only in between is not seen: the BPF
 * collector keeps no more). The closest such CPU gives the class (SMT sibling,
 * shared LLC, same node, other node). The idle wait of a wakeup passed over is
 * the time of its wait during which at least one allowed CPU but the target
 * was idle (exact: every idle period in the wait). When the idle CPUs were all
 * outside the mask, the wakeup is counted apart ("not allowed").
 *
 * An instant is a nanosecond and an event's number (idle_event): events of the same
 * nanosecond are ordered as they came (a CPU that went idle at the wakeup's nanosecond,
 * after it, was not idle at it), as perf script orders them.
 *
 * A judgement that needs a CPU's state not yet known (it has been idle since
 * before the task ran, and nothing showed yet whether it stayed so) waits,
 * kept here, until the CPU's next event; idle_ready() hands judgements back.
 */
#ifndef LOCUS_IDLE_H
#define LOCUS_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/topology.h"

/* An idle period of a CPU, closed. */
struct idle_span {
	uint64_t from, to;
	uint32_t from_k, to_k;	/* the events' numbers (idle_event) */
};

/* What a CPU's search of its closed periods keeps (struct idle_cpu holds the periods). */
struct idle_hist {
	int cap;
	int hint;		/* the last search's answer: the next one starts there */
	int unsorted;		/* the last index that began before the one ahead of it
				 * (an unsorted stream): up to there, only the plain search */
	uint32_t ninv;		/* changes applied at a time before newest (an unsorted
				 * stream): what was known of its past may have changed */
	uint64_t newest;	/* the latest time a change of its state was applied at */
};

/* IDLE_UNJUDGED: not judged (the task's affinity, or every task's, is not known) */
enum idle_verdict { IDLE_NONE, IDLE_PASSED, IDLE_NOT_ALLOWED, IDLE_DEFERRED, IDLE_UNJUDGED };

struct idle_check {
	enum idle_verdict verdict;
	enum locality closest;		/* IDLE_PASSED: LOC_SMT, LOC_LLC, LOC_NODE or LOC_REMOTE */
	uint64_t wait_ns;		/* IDLE_PASSED: the wait while an allowed CPU idled */
	int32_t target, tag;		/* as given to idle_judge */
};

/*
 * A wakeup's judgement as an analyzer tells it to another consumer (wakeup_cfg.verdict):
 * whose wakeup, woken and run when, and the verdict (IDLE_DEFERRED at the run when it
 * waits for a CPU's state: the same wakeup is told again, judged, later).
 */
struct idle_told {
	int32_t tid;
	uint64_t wake_ns, run_ns;
	struct idle_check ic;
};

/* One wakeup to judge (idle_judge): its wait, target, mask, and where the log stood. */
struct idle_q {
	uint64_t wake, run;
	uint64_t pos_wake, pos_run;	/* idle_pos() at the wakeup and at the run */
	uint32_t k_wake, k_run;		/* idle_tick() at the wakeup and at the run */
	int32_t target, tag;
	const uint64_t *allowed;	/* NULL: every CPU */
	const uint64_t *at_wake;	/* idle_snapshot() at the wakeup */
	const uint64_t *at_run;		/* the CPUs idle (not yet shown busy) at the run;
					 * NULL: now (a judgement at the run) */
	uint64_t f_wake;		/* idle_flips() + 1 at the wakeup; 0: not known */
};

struct idle_pend;

struct idle_track {
	int ncpus, nwords;		/* nwords 64-bit words per CPU mask */
	int mask_stride;		/* nwords rounded up to whole cache lines */
	uint32_t tick;			/* the number of the event applied now (idle_event) */
	uint64_t *idle;			/* CPUs idle now: not yet shown busy */
	uint64_t *known;		/* CPUs whose state was seen */
	struct idle_cpu {		/* per CPU, a cache line: what most events and judgements
					 * read, without its history */
		uint64_t from;		/* idle now: when its period began */
		uint64_t seen;		/* idle now: its last event from the idle task */
		uint32_t from_k, seen_k;	/* the numbers of those two events */
		struct idle_span last;	/* its last closed period, p[n - 1], when n > head */
		struct idle_span *p;	/* its closed periods (back to the horizon) */
		int head, n;		/* [head, n) in use */
	} __attribute__((aligned(64))) *cpu;
	struct idle_hist *hist;		/* per CPU: its periods' capacity and search */
	uint64_t *near[3];		/* masks of the cores, LLCs, nodes: in their first CPU's row */
	int *leader[3];			/* per CPU: that first CPU of its core, LLC, node (-1) */
	int *span_w[3];			/* per leader: its mask's first and last word + 1 */
	/* every start of an idle period, in order: the CPUs that may have idled in a wait */
	int32_t *log_cpu;
	uint64_t *log_t;
	uint64_t log_base;		/* idle_pos() of log entry 0 */
	int log_n, log_cap;
	/* judgements waiting, in the order of their runs (a ring), until every CPU's state
	 * is known through their run: mark, the lowest last idle event of a CPU still idle
	 * (mark_cpu's), is past it */
	struct idle_pend *pend;		/* a cache line each (idle_wait.c) */
	uint64_t *pend_wake;		/* per ring entry: its wakeup */
	uint64_t *pend_masks;		/* per ring entry, where a mask is kept whole: at_wake,
					 * allowed, at_run (mask_stride words each, aligned) */
	/* every change of the idle mask, in order (a ring: [flip_lo, flips) kept): the masks
	 * of a waiting judgement are the mask now taken back through them */
	int32_t *flip_cpu;
	uint64_t flips, flip_lo;
	int cap_flip;			/* a power of two */
	uint64_t *head_run;		/* the mask after head_f changes: at the last run taken */
	uint64_t head_f;
	uint64_t *head_wake;		/* the last taken judgement's at_wake, when rebuilt */
	int pend_head, waiting, cap_pend;	/* cap_pend: a power of two */
	uint64_t mark;
	uint32_t mark_k;
	int mark_cpu;
	struct idle_check *ready;	/* judged, not yet taken (idle_ready) */
	int nready, cap_ready;
	uint64_t judged_open;		/* judged with a CPU's state still open: too many waited */
	uint64_t stored, prune_at;	/* periods and log entries since the last prune */
	bool whole;			/* tests: a waiting judgement kept with its masks whole and
					 * judged whole at its turn (what the shortcuts equal) */
	/* scratch of a judgement */
	uint64_t *cand;			/* candidates: idle at the wakeup or since */
	uint64_t *span;			/* periods within the wait: start, end pairs */
	int cap_scratch;
};

void idle_init(struct idle_track *it, const struct topology *t);
void idle_release(struct idle_track *it);

/* The next event is applied: the idle changes and judgements it makes are numbered with it. */
static inline void idle_event(struct idle_track *it)
{
	it->tick++;
}

/* The number of the event applied now (k_wake, k_run of a judgement). */
static inline uint32_t idle_tick(const struct idle_track *it)
{
	return it->tick;
}

/* cpu runs the idle task at now: its switch to it, or an event it emitted. */
void idle_enter(struct idle_track *it, int cpu, uint64_t now);
/*
 * cpu runs a task at now: recorded (a switch away from the idle task at now) or
 * inferred (a task's event; the idle period ends at its last idle event). Returns
 * the unknown stretch: now minus that end (0 when recorded or not idle).
 */
uint64_t idle_leave(struct idle_track *it, int cpu, uint64_t now, bool recorded);

/* cpu switched to the idle task (idle true) or away from it with a recorded switch. */
static inline void idle_set(struct idle_track *it, int cpu, bool idle, uint64_t now)
{
	if (idle)
		idle_enter(it, cpu, now);
	else
		idle_leave(it, cpu, now, true);
}

static inline bool idle_now(const struct idle_track *it, int cpu)
{
	return cpu >= 0 && cpu < it->ncpus && (it->idle[cpu / 64] >> (cpu % 64) & 1);
}

/* The CPUs idle now, into snap (nwords words): kept with a wakeup until it runs. */
void idle_snapshot(const struct idle_track *it, uint64_t *snap);
/* How many times the mask of idle CPUs changed: kept with a wakeup (idle_q.f_wake). */
static inline uint64_t idle_flips(const struct idle_track *it)
{
	return it->flips;
}

/* Where the log of idle starts stands now: kept with a wakeup, and taken at its run. */
static inline uint64_t idle_pos(const struct idle_track *it)
{
	return it->log_base + (uint64_t)it->log_n;
}

/*
 * Judge q now, at its run (call after the events at q->run on the target are
 * applied, before the switch to the task): IDLE_DEFERRED when a CPU's state in
 * the wait is not known yet (the judgement comes back from idle_ready later).
 */
struct idle_check idle_judge(struct idle_track *it, const struct idle_q *q);
/* The same, now, counting a CPU still idle as idle through the run (the rule without
 * waiting for a CPU's state: a first look). */
struct idle_check idle_check(struct idle_track *it, const struct idle_q *q);
/* Judgements that waited and are now made: *n of them, valid until the next call here. */
const struct idle_check *idle_ready(struct idle_track *it, int *n);
/* End of the stream: every waiting judgement made, CPUs still idle counted idle. */
void idle_flush(struct idle_track *it);
/* Whether the periods kept have grown enough to call idle_prune. */
static inline bool idle_want_prune(const struct idle_track *it)
{
	return it->stored > it->prune_at;
}
/*
 * Forget periods and log entries before horizon (no wakeup pending from before it), and
 * at the latest IDLE_KEEP_NS before now (a wakeup pending longer, a task woken and never
 * seen again, would keep them all: its idle wait is then a lower bound).
 */
#define IDLE_KEEP_NS 10000000000ull
void idle_prune(struct idle_track *it, uint64_t horizon, uint64_t now);

#endif
