/* sink_cacheline.c - the cacheline analyzer behind the sink interface (sink_cacheline.h). */
#include "sink_cacheline.h"

#include <string.h>

static void cl_consume(struct sink *k, const struct event *e)
{
	cacheline_add(&((struct cacheline_sink *)k)->cl, e);
}

static void cl_finish(struct sink *k)
{
	cacheline_finish(&((struct cacheline_sink *)k)->cl);
}

static void cl_release(struct sink *k)
{
	struct cacheline_sink *c = (struct cacheline_sink *)k;

	cacheline_release(&c->cl);
	memset(c, 0, sizeof(*c));
}

static const struct sink_ops cacheline_sink_ops = {
	.name = "cacheline analysis",
	.consume = cl_consume,
	.finish = cl_finish,
	.release = cl_release,
};

void cacheline_sink_init(struct cacheline_sink *c, const struct cacheline_cfg *cfg)
{
	memset(c, 0, sizeof(*c));
	c->k.ops = &cacheline_sink_ops;
	c->k.types = 1u << EV_MEM;
	cacheline_init(&c->cl, cfg);
}
