/* wakeup_names.c - the names of tasks without an entry in the wakeup analyzer's table, kept
 * from PERF_RECORD_COMM and fork records until they get one (a waker from outside the
 * workload, or, system-wide, a task named before its first event). */
#include <string.h>

#include "wakeup_int.h"

/* The name of a task without an entry (not followed), kept for when it wakes one that is. */
void wk_name_put(struct wakeup *w, int32_t tid, const char *comm)
{
	int32_t i;

	if (tid <= 0 || !comm[0])
		return;
	i = tidmap_get(&w->name_idx, tid);
	if (i < 0) {
		if (w->nname_free) {
			i = w->name_free[--w->nname_free];
		} else {
			if (w->nnames == w->cap_names) {
				w->cap_names = w->cap_names ? 2 * w->cap_names : 256;
				w->names = xrealloc(w->names, (size_t)w->cap_names * TASK_COMM_LEN);
			}
			i = w->nnames++;
		}
		tidmap_put(&w->name_idx, tid, i);
	}
	memcpy(w->names[i], comm, TASK_COMM_LEN);
}

/* tid ran for the last time: its name's slot goes to the next. */
void wk_name_forget(struct wakeup *w, int32_t tid)
{
	int32_t i = tidmap_get(&w->name_idx, tid);

	if (i < 0)
		return;
	tidmap_del(&w->name_idx, tid);
	if (w->nname_free == w->cap_name_free) {
		w->cap_name_free = w->cap_name_free ? 2 * w->cap_name_free : 256;
		w->name_free = xrealloc(w->name_free, (size_t)w->cap_name_free * sizeof(int));
	}
	w->name_free[w->nname_free++] = i;
}

/* t just got an entry: the name kept for it, if any, becomes its own. */
void wk_name_take(struct wakeup *w, struct wk_task *t)
{
	int32_t i;

	if (!w->nnames)
		return;
	i = tidmap_get(&w->name_idx, t->tid);
	if (i < 0)
		return;
	memcpy(t->comm, w->names[i], TASK_COMM_LEN);
	wk_name_forget(w, t->tid);
}
