/* wakeup_int.h - the wakeup analyzer's task record, shared by its files (not a public header). */
#ifndef LOCUS_WAKEUP_INT_H
#define LOCUS_WAKEUP_INT_H

#include "../common/util.h"
#include "wakeup.h"

/*
 * A task's record: 128 bytes on a 64-byte boundary. Line 0 holds the state every event of
 * the task reads (what it is, where it runs, its pending wakeup, its name); line 1 its
 * counters. Its affinity mask, when it has one (pinned), lives in the book of every
 * task's affinity (wakeup.aff_idx, aff_masks), and the idle CPUs at its pending wakeup in a pool of masks taken at
 * the wakeup and given back when it runs (few wait at once: the pool stays in the cache,
 * where a mask per task would not).
 */
struct wk_task {
	/* line 0 */
	int32_t tid;
	bool tracked : 1;
	bool running : 1;
	bool pending : 1;	/* a wakeup waits for its switch-in */
	bool placed : 1;	/* its target CPU is known and counted */
	bool retired : 1;	/* a free slot: the task exited and left the table */
	bool aff_counted : 1;	/* counted among the tasks of unknown affinity */
	bool pinned : 1;	/* it has a mask (wakeup.aff_masks), not every CPU */
	bool affinity_unknown : 1; /* no mask given for it: its wakeups not judged */
	uint8_t wake_class;	/* placed, waker CPU known: class of waker CPU -> target */
	int32_t cpu;		/* last CPU known (ran or placed), -1 unknown */
	int32_t waker_tid;
	int32_t waker_cpu;
	int32_t prev_cpu;
	int32_t target_cpu;
	int pair;		/* index of the pair, -1 none */
	uint64_t on_cpu_since;
	uint64_t wake_ns;
	char comm[TASK_COMM_LEN];
	/* line 1 */
	struct wk_counts {
		uint64_t wakeups, migrations, voluntary, involuntary, run_ns, delays,
			delay_sum_ns;
	} n;
	int32_t mask;		/* its mask in the pool while a wakeup is pending, else -1 */
	int32_t pid;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct wk_task) == 128, "a task record is two cache lines");

/* The idle CPUs at t's pending wakeup (idle.nwords words; t->mask >= 0); where the log
 * of idle starts stood then is mask_pos[t->mask], the event's number mask_k[t->mask]. */
static inline uint64_t *wk_idle_at(const struct wakeup *w, const struct wk_task *t)
{
	return w->masks + (size_t)t->mask * (size_t)w->idle.nwords;
}

/* One more in a matrix cell: now, or at the end of the batch. */
static inline void wk_count_cell(struct wakeup *w, uint64_t *cell)
{
	if (!w->batching) {
		(*cell)++;
		return;
	}
	if (w->ncells == w->cap_cells) {
		w->cap_cells = w->cap_cells ? 2 * w->cap_cells : 256;
		w->cells = xrealloc(w->cells, (size_t)w->cap_cells * sizeof(*w->cells));
	}
	w->cells[w->ncells++] = cell;
}

/* t's wakeup is no longer pending: its mask goes back to the pool. */
static inline void wk_unpend(struct wakeup *w, struct wk_task *t)
{
	t->pending = false;
	if (t->mask >= 0) {
		w->mask_owner[t->mask] = -1;
		w->mask_free[w->nmask_free++] = t->mask;
		t->mask = -1;
	}
}

/* The row of the task table for t. */
void wk_task_stat(const struct wk_task *t, struct task_stat *st);

/* The book's values besides a mask's (AFF_MASK + its index). */
#define AFF_ALL 0	/* every CPU */
#define AFF_UNKNOWN 1	/* the task was gone when its mask was asked for */
#define AFF_MASK 2

/* t's affinity mask, NULL: every CPU. */
static inline const uint64_t *wk_allowed(const struct wakeup *w, const struct wk_task *t)
{
	return t->pinned ? w->aff_masks + (size_t)(tidmap_get(&w->aff_idx, t->tid) - AFF_MASK) *
						      (size_t)w->idle.nwords :
			   NULL;
}

static inline bool valid_cpu(const struct wakeup *w, int32_t cpu)
{
	return (uint32_t)cpu < (uint32_t)w->r.ncpus; /* negative ones wrap above */
}

/* tid's entry, or NULL. */
static inline struct wk_task *task_find(const struct wakeup *w, int32_t tid)
{
	int32_t i = tidmap_get(&w->task_idx, tid);

	return i >= 0 ? &w->tasks[i] : NULL;
}

/* cpu's busy, idle and traced time up to now, from its current task since its last switch
 * (inline: twice per switch). */
static inline void wk_account_cpu(struct wakeup *w, int32_t cpu, uint64_t now)
{
	struct cpu_stat *cs = &w->r.cpu[cpu];
	uint64_t since = w->cpu_since[cpu];
	int32_t curr = w->cpu_curr[cpu];

	if (since && now > since && curr >= 0) {
		uint64_t d = now - since;
		struct wk_task *t;

		if (curr == 0) {
			cs->idle_ns += d;
		} else {
			cs->busy_ns += d;
			t = task_find(w, curr);
			if (t && t->tracked)
				cs->tracked_ns += d;
		}
	}
	w->cpu_since[cpu] = now;
}
/* EV_AFFINITY: tid may run on the CPUs of mask (nwords words; NULL: unknown) from now on. */
void wk_affinity_set(struct wakeup *w, int32_t tid, const uint64_t *mask, int nwords);
/* A fork: child takes parent's affinity. */
void wk_affinity_inherit(struct wakeup *w, int32_t parent, int32_t child);
/* tid exited: its mask leaves the book (a new task of that tid comes with a fork). */
void wk_affinity_forget(struct wakeup *w, int32_t tid);
/* A new entry's affinity from the book. */
void wk_affinity_apply(struct wakeup *w, struct wk_task *t);
/* At a wakeup of t, at now: the CPUs idle now, kept for its judgement. */
void wk_idle_at_wake(struct wakeup *w, struct wk_task *t, uint64_t now);
/*
 * The timed wakeup of t runs now on target (before this switch is applied): judged now, or
 * IDLE_DEFERRED (counted by wk_idle_drain once every CPU's state in its wait is known).
 */
struct idle_check wk_judge_idle(struct wakeup *w, struct wk_task *t, int32_t target, uint64_t now);
/* A judged timed wakeup counted (ic->target: where it waited; ic->tag: its class, -1). */
void wk_count_idle(struct wakeup *w, const struct idle_check *ic);
/* Count the judgements that waited and are made (and tell them to cfg.verdict). */
void wk_idle_drain(struct wakeup *w);
/*
 * With cfg.verdict: tell it tid's wakeup (at wake_ns, run at run_ns) judged ic at its run;
 * a deferred one is kept to be told again when made, in order (the ones made before a
 * judgement are told before it).
 */
void wk_tell(struct wakeup *w, int32_t tid, uint64_t wake_ns, uint64_t run_ns,
	     const struct idle_check *ic);
/* Forget idle periods older than every pending wakeup. */
void wk_idle_prune(struct wakeup *w);
/*
 * An IPI sent from e->cpu to e->ipi.cpu (EV_IPI), or a polling idle CPU woken there
 * without one (EV_WAKE_IDLE). It is a wakeup's when the wakeup is remote and it goes
 * from the waker's CPU to the wakee's target CPU before the wakee runs: the first such
 * event from that CPU after the wakeup's sched_waking, with no switch, wakeup or other
 * IPI there in between (try_to_wake_up sends it before it returns). The target is the
 * CPU chosen (placed), else the CPU the wakee last ran on (no sched_migrate_task moved
 * it). Any other IPI sent while a traced task ran is counted apart, by kind: reschedule
 * (no callback) or function call.
 */
void wk_on_ipi(struct wakeup *w, const struct event *e);
/* The target CPU of t's pending wakeup is known: counted once (wakeup.c's place). */
void wk_place(struct wakeup *w, struct wk_task *t, int32_t target);

/* wakeup_names.c: a name kept for tid until it has an entry; dropped at its exit;
 * taken by t when it gets its entry. */
void wk_name_put(struct wakeup *w, int32_t tid, const char *comm);
void wk_name_forget(struct wakeup *w, int32_t tid);
void wk_name_take(struct wakeup *w, struct wk_task *t);

/* The idle task, or a tid the configuration excludes (locus itself). */
bool wk_excluded(const struct wakeup *w, int32_t tid);
/* A new entry for tid (which has none): may move the table. */
struct wk_task *wk_task_new(struct wakeup *w, int32_t tid);
/* t ran for the last time: its row among the retired, its slot free (wakeup_tasks.c). */
void wk_retire(struct wakeup *w, struct wk_task *t);

#endif
