/* sink_wakeup.c - the wakeup analyzer behind the sink interface (sink_wakeup.h). */
#include "sink_wakeup.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "stand_in.h"

static void wk_begin(struct sink *k, const struct sink_begin *b)
{
	struct wakeup_sink *w = (struct wakeup_sink *)k;

	w->cfg.topo = b->topo;
	w->cfg.waking_source = b->waking_source;
	w->cfg.migrate_source = b->migrate_source;
	if (b->exclude) {
		w->cfg.exclude = b->exclude;
		w->cfg.nexclude = b->nexclude;
	}
	w->cfg.affinity_events = b->affinity_events;
	wakeup_init(&w->an, &w->cfg);
	w->on = true;
	for (int i = 0; i < w->ntrack; i++)
		wakeup_track(&w->an, w->track[i]);
	free(w->track);
	w->track = NULL;
	w->ntrack = w->cap_track = 0;
}

static void wk_consume(struct sink *k, const struct event *e)
{
	wakeup_add(&((struct wakeup_sink *)k)->an, e);
}

/* Asking the CPU ahead for the task records the next events touch (wakeup_add_batch). */
static void wk_consume_batch(struct sink *k, const struct event *ev, int n)
{
	wakeup_add_batch(&((struct wakeup_sink *)k)->an, ev, n);
}

static void wk_snapshot(struct sink *k)
{
	struct wakeup_sink *w = (struct wakeup_sink *)k;

	wakeup_freeze(&w->an, &w->an.frozen); /* closes the CPUs' intervals: goes on */
}

static void wk_snapshot_tables(struct sink *k, struct sched_results *dst)
{
	wakeup_frozen_tables(&((struct wakeup_sink *)k)->an.frozen, dst);
}

static void wk_finish(struct sink *k)
{
	struct wakeup_sink *w = (struct wakeup_sink *)k;

	if (w->on && k->buf && k->buf->n) { /* all in before the results are read */
		wakeup_add_batch(&w->an, k->buf->ev, k->buf->n);
		k->buf->n = 0;
	}
	if (w->on)
		wakeup_finish(&w->an);
}

static void wk_release(struct sink *k)
{
	struct wakeup_sink *w = (struct wakeup_sink *)k;

	if (w->on)
		wakeup_release(&w->an);
	free(w->track);
	memset(w, 0, sizeof(*w));
}

/* An aggregating source fills the results, begun as the analyzer's would be, never fed. */
static void wk_stand_in(struct sink *k, struct sink_stand_in *si, const struct sink_begin *b)
{
	si->sched = wakeup_sink_results((struct wakeup_sink *)k, b);
}

static const struct sink_ops wakeup_sink_ops = {
	.name = "wakeup analysis",
	.begin = wk_begin,
	.consume = wk_consume,
	.consume_batch = wk_consume_batch,
	.snapshot = wk_snapshot,
	.snapshot_tables = wk_snapshot_tables,
	.finish = wk_finish,
	.release = wk_release,
	.stand_in = wk_stand_in,
};

void wakeup_sink_init(struct wakeup_sink *w, const struct wakeup_cfg *cfg, bool one_by_one)
{
	memset(w, 0, sizeof(*w));
	w->k.ops = &wakeup_sink_ops;
	w->k.types = SINK_SCHED | 1u << EV_AFFINITY;
	w->cfg = *cfg;
	w->k.buf = one_by_one ? NULL : &w->batch;
}

void wakeup_sink_track(struct wakeup_sink *w, int32_t tid)
{
	if (w->on) {
		wakeup_track(&w->an, tid);
		return;
	}
	if (w->ntrack == w->cap_track) {
		w->cap_track = w->cap_track ? 2 * w->cap_track : 8;
		w->track = xrealloc(w->track, (size_t)w->cap_track * sizeof(*w->track));
	}
	w->track[w->ntrack++] = tid;
}

bool wakeup_sink_tracks(struct wakeup_sink *w, int32_t tid)
{
	return w->on && wakeup_tracks(&w->an, tid);
}

struct sched_results *wakeup_sink_results(struct wakeup_sink *w, const struct sink_begin *b)
{
	if (!w->k.begun) {
		wk_begin(&w->k, b);
		w->k.begun = true;
	}
	return wakeup_results(&w->an);
}
