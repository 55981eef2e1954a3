/* wakeup.h - the scheduler analyzer: time-ordered sched events in, sched_results out. */
#ifndef LOCUS_WAKEUP_H
#define LOCUS_WAKEUP_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/tidmap.h"
#include "../common/topk.h"
#include "../model/sched_results.h"
#include "idle.h"

struct wakeup_cfg {
	const struct topology *topo;
	bool system_wide;		/* track every task but the excluded ones */
	const int32_t *exclude;		/* tids never tracked (locus's own threads) */
	int nexclude;
	bool waking_source;		/* the stream has sched_waking; else wakeups come from sched_wakeup */
	bool migrate_source;		/* the stream has sched_migrate_task: a wakeup whose task
					 * moved in try_to_wake_up shows it (set_task_cpu) */
	int max_pairs;			/* slots of the task-pair table (0: 16384): the busiest
					 * pairs kept by Filtered Space-Saving, counts within a bound */
	int max_tasks;			/* rows of the task table, first come (0: every task) */
	/*
	 * The stream gives each task's affinity as EV_AFFINITY events (its mask when tracing
	 * began and at each change; a new task takes its parent's at its fork): idle CPUs
	 * passed over are judged with them, a task whose mask is unknown not at all. False
	 * (a file without them): nothing is judged.
	 */
	bool affinity_events;
	/*
	 * Told each wakeup's idle-CPU judgement, the one its counts take (NULL: none; a
	 * timeline marks its flows with them): at the wakee's switch-in, from wakeup_add of
	 * that switch, the verdict or IDLE_DEFERRED; a deferred one again, judged, from a
	 * later wakeup_add or wakeup_finish. Told in the order of their runs.
	 */
	void (*verdict)(void *ctx, const struct idle_told *v);
	void *verdict_ctx;
};

struct wk_task;

/*
 * The live tables copied as they are (memcpy, no sorting): what a snapshot takes while
 * the reader waits; the sorted tables are made from it afterwards, without the lock.
 */
struct wakeup_frozen {
	struct wk_task *tasks;
	int ntasks, cap_tasks;
	struct task_stat *retired;
	int nretired, cap_retired;
	uint64_t retired_offered;
	struct pair_stat *pairs;
	struct topk_slot *pslot;	/* count and overcount per pair slot */
	int npairs, cap_pairs;
	int pairs_kept;
	uint64_t pairs_bound, pairs_evicted, pairs_wakeups, pairs_filtered;
	uint64_t last_ns;
	int max_tasks;
};


struct wakeup {
	struct wakeup_cfg cfg;
	struct sched_results r;
	struct tidmap task_idx;		/* tid -> index in tasks */
	struct wk_task *tasks;		/* 64-byte aligned */
	/* every task's affinity as the stream gave it, with or without an entry: tid ->
	 * AFF_ALL, AFF_UNKNOWN or AFF_MASK + its mask's index in aff_masks (idle.nwords
	 * words each); absent: never given (unknown) */
	struct tidmap aff_idx;
	uint64_t *aff_masks;
	int naff, cap_aff;
	int *aff_free;			/* masks given back, the last first */
	int naff_free;
	uint64_t *masks;		/* pool: the idle CPUs at pending wakeups, idle.nwords
					 * words each, 64-byte aligned */
	int nmasks, cap_masks;
	int *mask_free;			/* masks given back, the last first */
	uint64_t *mask_pos;		/* per mask: idle_pos() when it was taken */
	uint32_t *mask_k;		/* per mask: idle_tick() then */
	uint64_t *mask_f;		/* per mask: idle_flips() + 1 then */
	int32_t *mask_owner;		/* per mask: the task slot holding it (every pending
					 * wakeup holds one), -1 free */
	int nmask_free;
	int ntasks, cap_tasks;		/* slots used (live or free), allocated */
	int *free_slots;		/* slots of retired tasks, for the next new ones */
	int nfree, cap_free;
	struct task_top retired;	/* the busiest retired tasks */
	struct wakeup_frozen frozen;	/* wakeup_finish's copy */
	struct topk pairk;		/* (waker << 32 | wakee): slot and count */
	struct pair_stat *pairs;	/* per slot: names and classes since the slot was given */
	int cap_pairs;
	uint64_t *cpu_since;		/* per CPU: time of its last switch */
	int32_t *cpu_curr;		/* per CPU: tid running since then, -1 unknown */
	char (*cpu_comm)[TASK_COMM_LEN]; /* per CPU: that task's name, from its switch-in or a
					 * rename since ("": not seen) */
	/* the names of tasks without an entry (not followed: wakers from outside the
	 * workload), from PERF_RECORD_COMM and forks, while not system-wide */
	struct tidmap name_idx;		/* tid -> index in names */
	char (*names)[TASK_COMM_LEN];
	int nnames, cap_names;
	int *name_free;			/* slots of tasks that ended */
	int nname_free, cap_name_free;
	struct idle_track idle;		/* which CPUs are idle: wakeups that passed one over */
	struct idle_told *told;		/* with cfg.verdict: the judgements deferred, in the
					 * order idle_ready makes them ([told_head, ntold)) */
	int told_head, ntold, cap_told;
	int32_t *ipi_wakee;		/* per CPU: the task of the traced wakeup it made
					 * last, while no switch, wakeup or IPI came since
					 * (0: none); the next IPI from there may be its */
	/* within wakeup_add_batch: the matrix cells to add one to, added at its end, fetched
	 * ahead (at 512 CPUs every cell misses the cache; nothing reads them before) */
	bool batching;
	uint64_t **cells;
	int ncells, cap_cells;
};

void wakeup_init(struct wakeup *w, const struct wakeup_cfg *cfg);
/* Follow tid (and, through fork events, its children). */
void wakeup_track(struct wakeup *w, int32_t tid);
/* Whether tid's events count: followed, or any task but locus's when system-wide. */
bool wakeup_tracks(struct wakeup *w, int32_t tid);
/* Feed one event; events must come in time order. */
void wakeup_add(struct wakeup *w, const struct event *e);
/*
 * Feed n events in time order, as n wakeup_add calls would, while asking the CPU ahead of
 * time for the task records the next ones will touch (at 100,000 tasks each event misses
 * the cache several times; fetched a few events early the misses overlap).
 */
void wakeup_add_batch(struct wakeup *w, const struct event *ev, int n);

/* Events gathered for wakeup_add_batch: a source adds one at a time and flushes the rest
 * before anything reads the results. */
#define WAKEUP_BATCH 64
struct wakeup_batch {
	struct event ev[WAKEUP_BATCH];
	int n;
};

static inline void wakeup_batch_flush(struct wakeup *w, struct wakeup_batch *b)
{
	wakeup_add_batch(w, b->ev, b->n);
	b->n = 0;
}

static inline void wakeup_batch_add(struct wakeup *w, struct wakeup_batch *b,
				    const struct event *e)
{
	b->ev[b->n++] = *e;
	if (b->n == WAKEUP_BATCH)
		wakeup_batch_flush(w, b);
}

/* End of stream: close open intervals and fill the task and pair tables. */
void wakeup_finish(struct wakeup *w);
/* While collection goes on: close the CPUs' intervals and copy the live tables into f. */
void wakeup_freeze(struct wakeup *w, struct wakeup_frozen *f);
/* The task and pair tables of dst, sorted, from f (no access to the analyzer). */
void wakeup_frozen_tables(const struct wakeup_frozen *f, struct sched_results *dst);
void wakeup_frozen_release(struct wakeup_frozen *f);
/* The results (valid after wakeup_finish, owned by w). */
struct sched_results *wakeup_results(struct wakeup *w);
void wakeup_release(struct wakeup *w);

#endif
