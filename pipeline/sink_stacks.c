/* sink_stacks.c - the stacks analyzer behind the sink interface (sink_stacks.h). */
#include "sink_stacks.h"

#include <string.h>

static void st_begin(struct sink *k, const struct sink_begin *b)
{
	((struct stacks_sink *)k)->st.topo = b->topo;
}

static void st_consume(struct sink *k, const struct event *e)
{
	stacks_add(&((struct stacks_sink *)k)->st, e);
}

static void st_finish(struct sink *k)
{
	stacks_finish(&((struct stacks_sink *)k)->st);
}

static void st_release(struct sink *k)
{
	struct stacks_sink *s = (struct stacks_sink *)k;

	stacks_release(&s->st);
	memset(s, 0, sizeof(*s));
}

static const struct sink_ops stacks_sink_ops = {
	.name = "stacks",
	.every_event = true, /* every waking and switch with its callchain: no BPF stand-in */
	.begin = st_begin,
	.consume = st_consume,
	.finish = st_finish,
	.release = st_release,
};

void stacks_sink_init(struct stacks_sink *s)
{
	memset(s, 0, sizeof(*s));
	s->k.ops = &stacks_sink_ops;
	s->k.types = 1u << EV_WAKING | 1u << EV_SWITCH;
	stacks_init(&s->st, NULL);
}

static bool tracked(void *ctx, int32_t tid)
{
	return wakeup_sink_tracks(ctx, tid);
}

void stacks_sink_scope(struct stacks_sink *s, struct wakeup_sink *wk)
{
	s->st.in_scope = tracked;
	s->st.scope_ctx = wk;
}
