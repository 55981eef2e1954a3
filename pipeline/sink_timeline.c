/* sink_timeline.c - the timeline analyzer behind the sink interface (sink_timeline.h). */
#include "sink_timeline.h"

#include <string.h>

static bool in_scope(void *ctx, int32_t tid)
{
	return wakeup_sink_tracks(((struct timeline_sink *)ctx)->cfg.judge, tid);
}

static void tl_begin(struct sink *k, const struct sink_begin *b)
{
	struct timeline_sink *t = (struct timeline_sink *)k;
	struct timeline_cfg cfg = { .topo = b->topo, .from_ns = t->cfg.from_ns,
				    .to_ns = t->cfg.to_ns, .emit = t->cfg.emit, .ctx = t->cfg.ctx,
				    .in_scope = in_scope, .scope_ctx = t, .judged = true };

	timeline_init(&t->tl, &cfg);
	t->on = true;
}

/* The timeline first, the analyzer after it: a task's last switch retires it in the
 * analyzer, which would then call it untracked (children are tracked from their fork). */
static void tl_consume(struct sink *k, const struct event *e)
{
	struct timeline_sink *t = (struct timeline_sink *)k;

	timeline_event(&t->tl, e);
	if (!t->told && t->tl.started) {
		t->told = true;
		if (t->cfg.started)
			t->cfg.started(t->cfg.ctx, t->tl.first_ns);
	}
}

static void tl_finish(struct sink *k)
{
	struct timeline_sink *t = (struct timeline_sink *)k;

	if (t->on)
		timeline_finish(&t->tl);
}

static void tl_release(struct sink *k)
{
	struct timeline_sink *t = (struct timeline_sink *)k;

	if (t->on)
		timeline_release(&t->tl);
	t->on = false;
}

static const struct sink_ops timeline_sink_ops = {
	.name = "the timeline",
	.every_event = true,
	.begin = tl_begin,
	.consume = tl_consume,
	.finish = tl_finish,
	.release = tl_release,
};

void timeline_sink_init(struct timeline_sink *t, const struct timeline_sink_cfg *cfg)
{
	memset(t, 0, sizeof(*t));
	t->k.ops = &timeline_sink_ops;
	t->k.types = SINK_SCHED;
	t->k.whole = true; /* it keeps what ran into its window itself */
	t->cfg = *cfg;
}

void timeline_sink_verdict(void *ctx, const struct idle_told *v)
{
	struct timeline_sink *t = ctx;

	if (t->on)
		timeline_verdict(&t->tl, v);
}

void timeline_sink_blame(void *ctx, const struct blame_told *b)
{
	struct timeline_sink *t = ctx;

	if (t->on)
		timeline_blame(&t->tl, b);
}

void timeline_sink_flush_held(struct timeline_sink *t)
{
	if (t->on)
		timeline_flush(&t->tl);
}
