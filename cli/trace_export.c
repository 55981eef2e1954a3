/* trace_export.c - a recording replayed into a Chrome trace (trace_export.h). */
#include "trace_export.h"

#include <stdlib.h>
#include <string.h>

#include "../analyzers/timeline.h"
#include "../common/util.h"
#include "../report/trace_json.h"

struct tap {
	struct timeline tl;
	struct trace_json tj;
	bool on;
	const struct topology *topo;
	struct trace_export *x;
};

/* The timeline starts with the first sched event, once the topology is known. */
static void tap_event(void *ctx, const struct event *e)
{
	struct tap *t = ctx;

	if (!t->on) {
		struct timeline_cfg cfg = { t->topo, t->x->from_ns, t->x->to_ns, trace_json_item,
					    &t->tj };

		timeline_init(&t->tl, &cfg);
		t->on = true;
	}
	timeline_event(&t->tl, e);
}

int trace_export_write(const struct replay_opts *o, struct trace_export *x, FILE *f)
{
	struct replay_opts ro = *o;
	struct replay *rp = xcalloc(1, sizeof(*rp));
	struct tap t = { .x = x };
	int rc = -1;

	ro.tap = tap_event;
	ro.tap_ctx = &t;
	ro.progress = NULL;
	if (replay_open(rp, &ro, x->err, sizeof(x->err)) < 0)
		goto out;
	t.topo = &rp->topo;
	trace_json_begin(&t.tj, f, rp->topo.ncpus, x->limit, o->path);
	if (replay_run(rp, x->err, sizeof(x->err)) < 0) {
		trace_json_end(&t.tj); /* what was read, as valid JSON */
		goto out;
	}
	if (t.on)
		timeline_finish(&t.tl);
	trace_json_end(&t.tj);
	x->bytes = t.tj.bytes;
	x->events = t.tj.events;
	x->dropped = t.tj.dropped;
	x->slices = t.tl.slices;
	x->flows = t.tl.flows;
	x->migrations = t.tl.migrations;
	x->counters = t.tl.counters;
	x->switches_in_window = t.tl.switches_in_window;
	rc = 0;
out:
	if (t.on)
		timeline_release(&t.tl);
	replay_release(rp);
	free(rp);
	return rc;
}
