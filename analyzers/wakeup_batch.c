/*
 * wakeup_batch.c - the wakeup analyzer over a batch of events, prefetching: the tid index
 * entries of the events PF_FAR ahead, then, once those are in the cache, the task records,
 * and pair map slots of the events PF_NEAR ahead; the matrices' cells counted at the
 * end of the batch, fetched ahead. The results are those of wakeup_add on each event in turn.
 */
#include "wakeup.h"
#include "wakeup_int.h"

/* tried at 6/3, 8/4, 12/6 and 16/8 on bench/synth.c: 8/4 was fastest. Fetching the
 * matrices' cells two events ahead (from the records) was not faster: the target CPU is
 * known too late; counting them at the end of the batch, fetched ahead, is (x1.30). The
 * same for the CPUs' delay histograms was not (x0.99). */
#define PF_FAR 8
#define PF_NEAR 4

/* The tids an event's handling looks up. */
static int tids_of(const struct event *e, int32_t tid[3])
{
	int n = 0;

	tid[n++] = e->tid;
	switch (e->type) {
	case EV_WAKING:
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
		tid[n++] = e->wake.pid;
		break;
	case EV_SWITCH:
		tid[0] = e->sw.prev_pid;
		tid[n++] = e->sw.next_pid;
		break;
	case EV_MIGRATE:
		tid[n++] = e->mig.pid;
		break;
	default:
		break;
	}
	return n;
}

static void prefetch_index(const struct wakeup *w, const struct event *e)
{
	int32_t tid[3];
	int n = tids_of(e, tid);

	for (int i = 0; i < n; i++) {
		uint32_t t = (uint32_t)tid[i];
		const int32_t *p;

		if (t == 0 || t >= TIDMAP_DIRECT)
			continue;
		p = w->task_idx.page[t >> TIDMAP_SHIFT];
		if (p)
			__builtin_prefetch(&p[t & (TIDMAP_PAGE - 1)]);
	}
}

static void prefetch_tasks(const struct wakeup *w, const struct event *e)
{
	int32_t tid[3];
	int n = tids_of(e, tid);

	for (int i = 0; i < n; i++) {
		const struct wk_task *t;

		if (tid[i] <= 0 || !(t = task_find(w, tid[i])))
			continue;
		__builtin_prefetch(t, 1);
		if (i > 0 || e->type == EV_SWITCH) /* the emitting task's counters wait for its
						     * switch: its state alone now */
			__builtin_prefetch(&t->n, 1);
		if (i == 1 && (e->type == EV_WAKING || e->type == EV_WAKEUP)) {
			topk_prefetch(&w->pairk, (uint64_t)(uint32_t)e->tid << 32 |
							 (uint32_t)e->wake.pid);
		}
	}
}

/* The batch's matrix cells, each one more, PF_CELL ahead fetched. */
#define PF_CELL 8
static void count_cells(struct wakeup *w)
{
	for (int i = 0; i < w->ncells && i < PF_CELL; i++)
		__builtin_prefetch(w->cells[i], 1);
	for (int i = 0; i < w->ncells; i++) {
		if (i + PF_CELL < w->ncells)
			__builtin_prefetch(w->cells[i + PF_CELL], 1);
		(*w->cells[i])++;
	}
	w->ncells = 0;
}

void wakeup_add_batch(struct wakeup *w, const struct event *ev, int n)
{
	w->batching = true; /* matrix cells counted at the end: nothing reads them before */
	for (int i = 0; i < n && i < PF_FAR; i++)
		prefetch_index(w, &ev[i]);
	for (int i = 0; i < n && i < PF_NEAR; i++)
		prefetch_tasks(w, &ev[i]);
	for (int i = 0; i < n; i++) {
		if (i + PF_FAR < n)
			prefetch_index(w, &ev[i + PF_FAR]);
		if (i + PF_NEAR < n)
			prefetch_tasks(w, &ev[i + PF_NEAR]);
		wakeup_add(w, &ev[i]);
	}
	count_cells(w);
	w->batching = false;
}
