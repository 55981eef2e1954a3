/* wakeup_tasks.c - the wakeup analyzer's task table: entries made, retired and followed. */
#include "wakeup.h"
#include "wakeup_int.h"

#include <string.h>

#include "../common/util.h"

bool wk_excluded(const struct wakeup *w, int32_t tid)
{
	if (tid <= 0)
		return true; /* the idle task */
	for (int i = 0; i < w->cfg.nexclude; i++)
		if (w->cfg.exclude[i] == tid)
			return true;
	return false;
}

/* Room for cap task slots: records on cache-line boundaries. */
static void grow_tasks(struct wakeup *w, int cap)
{
	w->tasks = xaligned_realloc(w->tasks, (size_t)w->ntasks * sizeof(*w->tasks), 64,
				    (size_t)cap * sizeof(*w->tasks));
	w->cap_tasks = cap;
}

/* A new entry for tid (which has none): may move the table. */
struct wk_task *wk_task_new(struct wakeup *w, int32_t tid)
{
	struct wk_task *t;
	int i;

	if (w->nfree) { /* a retired task's slot */
		i = w->free_slots[--w->nfree];
	} else {
		if (w->ntasks == w->cap_tasks)
			grow_tasks(w, w->cap_tasks ? w->cap_tasks * 2 : 256);
		i = w->ntasks++;
	}
	t = &w->tasks[i];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = -1;
	t->cpu = -1;
	t->pair = -1;
	t->mask = -1;
	t->tracked = w->cfg.system_wide && !wk_excluded(w, tid);
	wk_name_take(w, t);
	wk_affinity_apply(w, t);
	tidmap_put(&w->task_idx, tid, i);
	return t;
}

void wk_task_stat(const struct wk_task *t, struct task_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->tid = t->tid;
	st->pid = t->pid;
	memcpy(st->comm, t->comm, TASK_COMM_LEN);
	st->wakeups = t->n.wakeups;
	st->migrations = t->n.migrations;
	st->voluntary = t->n.voluntary;
	st->involuntary = t->n.involuntary;
	st->run_ns = t->n.run_ns;
	st->delays = t->n.delays;
	st->delay_sum_ns = t->n.delay_sum_ns;
}

/*
 * t ran for the last time: its counts stay in every total, its row among the busiest
 * retired, and its slot goes to the next new task (memory follows the live tasks).
 */
void wk_retire(struct wakeup *w, struct wk_task *t)
{
	int i = (int)(t - w->tasks);

	if (t->tracked) {
		struct task_stat st;

		wk_task_stat(t, &st);
		task_top_offer(&w->retired, &st);
	}
	wk_unpend(w, t);
	tidmap_del(&w->task_idx, t->tid);
	memset(t, 0, sizeof(*t));
	t->retired = true;
	t->pair = -1;
	t->mask = -1;
	if (w->nfree == w->cap_free) {
		w->cap_free = w->cap_free ? 2 * w->cap_free : 256;
		w->free_slots = xrealloc(w->free_slots, (size_t)w->cap_free * sizeof(int));
	}
	w->free_slots[w->nfree++] = i;
}

void wakeup_track(struct wakeup *w, int32_t tid)
{
	struct wk_task *t = task_find(w, tid);

	if (!t)
		t = wk_task_new(w, tid);
	t->tracked = !wk_excluded(w, tid);
}

bool wakeup_tracks(struct wakeup *w, int32_t tid)
{
	struct wk_task *t = task_find(w, tid);

	return t ? t->tracked : w->cfg.system_wide && !wk_excluded(w, tid);
}
