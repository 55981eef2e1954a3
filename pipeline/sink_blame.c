/* sink_blame.c - the blame analyzer behind the sink interface (sink_blame.h). */
#include "sink_blame.h"

#include <stdlib.h>
#include <string.h>

static bool in_scope(void *ctx, int32_t tid)
{
	return wakeup_sink_tracks(((struct blame_sink *)ctx)->judge, tid);
}

static void bl_begin(struct sink *k, const struct sink_begin *b)
{
	struct blame_sink *s = (struct blame_sink *)k;
	struct blame_cfg cfg = { .topo = b->topo, .waking_source = b->waking_source,
				 .irq_source = b->irq_source, .verdicts = true, .tracks = in_scope,
				 .tracks_ctx = s, .told = s->told, .told_ctx = s->told_ctx,
				 .no_p99 = s->no_p99 };

	blame_init(&s->an, &cfg);
	s->on = true;
}

static void bl_consume(struct sink *k, const struct event *e)
{
	blame_add(&((struct blame_sink *)k)->an, e);
}

/* Under the reader's lock: the running totals copied, for locus top's antagonists. */
static void bl_snapshot(struct sink *k)
{
	struct blame_sink *s = (struct blame_sink *)k;

	if (s->on) {
		blame_live_copy(&s->live, &s->an);
		s->live_on = true;
	}
}

/* Without the lock: the copy's rows by tid, as blame_live_delta wants them. */
static void bl_snapshot_tables(struct sink *k, struct sched_results *dst)
{
	(void)dst;
	blame_live_sort(&((struct blame_sink *)k)->live);
}

static void bl_finish(struct sink *k)
{
	struct blame_sink *s = (struct blame_sink *)k;

	if (s->on)
		blame_finish(&s->an);
}

static void bl_release(struct sink *k)
{
	struct blame_sink *s = (struct blame_sink *)k;

	if (s->on)
		blame_release(&s->an);
	blame_live_release(&s->live);
	s->on = s->live_on = false;
	free(s->stand.r.cpu); /* the source's read: its tables are the sink's to free */
	free(s->stand.r.culprits);
	blame_live_release(&s->stand.live);
	memset(&s->stand, 0, sizeof(s->stand));
}

/* The BPF programs split the timed wakeups' waits in the kernel: it reads them into stand. */
static void bl_stand_in(struct sink *k, struct sink_stand_in *si, const struct sink_begin *b)
{
	(void)b;
	si->blame = &((struct blame_sink *)k)->stand;
}

static const struct sink_ops blame_sink_ops = {
	.name = "who delayed the wakee (blame)",
	.begin = bl_begin,
	.consume = bl_consume,
	.snapshot = bl_snapshot,
	.snapshot_tables = bl_snapshot_tables,
	.finish = bl_finish,
	.release = bl_release,
	.stand_in = bl_stand_in,
};

void blame_sink_init(struct blame_sink *s, struct wakeup_sink *judge)
{
	memset(s, 0, sizeof(*s));
	s->k.ops = &blame_sink_ops;
	s->k.types = SINK_SCHED | EV_IRQ_TYPES;
	s->judge = judge;
}

void blame_sink_verdict(void *ctx, const struct idle_told *v)
{
	struct blame_sink *s = ctx;

	if (s->on)
		blame_verdict(&s->an, v);
}

const struct blame_results *blame_sink_results(const struct blame_sink *s)
{
	if (s->k.stood_in)
		return s->stand.on ? &s->stand.r : NULL;
	return s->on ? blame_results(&s->an) : NULL;
}

const struct blame_live *blame_sink_live(const struct blame_sink *s)
{
	if (s->k.stood_in)
		return s->stand.live_on ? &s->stand.live : NULL;
	return s->live_on ? &s->live : NULL;
}
