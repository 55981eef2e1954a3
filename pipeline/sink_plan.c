/* sink_plan.c - a session's sinks built and wired in one place (sink_plan.h). */
#include "sink_plan.h"

#include <stdio.h>
#include <string.h>

#include "../collectors/perfdata.h"

/* What a session's sinks are, decided from its options (live or a file's). */
struct spec {
	bool live;		/* a live source: it excludes its own threads, and the stacks
				 * follow the wakeup sink's tasks whatever the scope */
	bool aggregated;	/* the source stands in for the sinks it can (BPF) */
	const char *record_path; /* the writer */
	struct sched_record_meta meta;
	const struct timeline_sink_cfg *timeline;
	bool blame, blame_no_p99;
	bool stacks;
	bool cachelines;
	struct cacheline_cfg cl;
	struct wakeup_cfg wc;	/* the analyzer's: scope, table sizes */
	const int32_t *track;	/* the tasks followed from the start (with their children) */
	int ntrack;
	const int32_t *more;	/* and these (a file's -p A,B: B...) */
	int nmore;
	bool whole;		/* the whole file's results beside the window's */
	uint64_t from_ns, to_ns;
};

/* The wakeup analyzer's idle verdicts to the sinks that mark or count them. */
static void verdicts(void *ctx, const struct idle_told *v)
{
	struct sink_plan *p = ctx;

	if (p->timeline)
		timeline_sink_verdict(&p->tl, v);
	if (p->blame)
		blame_sink_verdict(&p->bl, v);
}

/* The sinks that consult the wakeup sink come before it (it tells them its verdicts after
 * each event; they finish after it, told its last ones); the stacks after it, asking which
 * tasks it follows. Each in the order it is fed. */
static void build(struct sink_plan *p, const struct spec *sp)
{
	struct wakeup_cfg wc = sp->wc;
	bool scoped = sp->live || sp->ntrack;

	memset(p, 0, sizeof(*p));
	p->list.from_ns = sp->from_ns;
	p->list.to_ns = sp->to_ns;
	if (sp->record_path) {
		writer_sink_init(&p->wr, sp->record_path, &sp->meta);
		sinks_add(&p->list, &p->wr.k);
		p->writing = true;
	}
	if (sp->timeline) { /* first: every event, told the analyzer's verdicts */
		timeline_sink_init(&p->tl, sp->timeline);
		p->tl.cfg.judge = &p->wk;
		sinks_add(&p->list, &p->tl.k);
		p->timeline = true;
	}
	if (sp->blame) {
		blame_sink_init(&p->bl, &p->wk);
		p->bl.no_p99 = sp->blame_no_p99;
		if (sp->timeline) { /* each wakeup's split on its flow, before its verdict */
			p->bl.told = timeline_sink_blame;
			p->bl.told_ctx = &p->tl;
		}
		sinks_add(&p->list, &p->bl.k);
		p->blame = true;
	}
	if (!sp->aggregated && (sp->timeline || sp->blame)) {
		wc.verdict = verdicts;
		wc.verdict_ctx = p;
	}
	/* one event at a time where a sink beside it asks what it tracks */
	wakeup_sink_init(&p->wk, &wc, sp->timeline || sp->blame || (sp->stacks && scoped));
	if (sp->record_path && !sp->timeline)
		p->wk.k.types = 0; /* a recording analyzes nothing its outputs do not show */
	sinks_add(&p->list, &p->wk.k);
	if (sp->whole) {
		wc.verdict = NULL;
		wakeup_sink_init(&p->whole, &wc, false);
		p->whole.k.whole = true;
		sinks_add(&p->list, &p->whole.k);
		p->two = true;
	}
	for (int i = 0; !sp->aggregated && i < sp->ntrack; i++)
		sink_plan_track(p, sp->track[i]);
	for (int i = 0; !sp->aggregated && sp->ntrack && i < sp->nmore; i++)
		sink_plan_track(p, sp->more[i]);
	if (sp->cachelines) {
		cacheline_sink_init(&p->cl, &sp->cl);
		sinks_add(&p->list, &p->cl.k);
		p->cachelines = true;
	}
	if (sp->stacks) {
		stacks_sink_init(&p->stk);
		if (scoped && !sp->aggregated) /* the report's tasks: the workload's tree, -p */
			stacks_sink_scope(&p->stk, &p->wk);
		sinks_add(&p->list, &p->stk.k);
		p->stacks = true;
	}
}

void sink_plan_live(struct sink_plan *p, const struct source_cfg *cfg, bool aggregated)
{
	const struct stream_cfg *sc = &cfg->stream;
	struct spec sp = { .live = true, .aggregated = aggregated };

	sp.wc.system_wide = cfg->system_wide;
	if (aggregated) { /* what the BPF programs stand in for */
		sp.blame = cfg->bpf.blame;
		sp.stacks = cfg->bpf.stacks;
	} else {
		sp.wc.max_tasks = cfg->max_tasks;
		sp.wc.max_pairs = cfg->max_pairs;
		sp.record_path = sc->record_path;
		sp.meta = (struct sched_record_meta){ .topo = cfg->topo, .cmdline = sc->cmdline,
						      .workload = cfg->workload_pid };
		for (int i = 0; i < cfg->nadded && i < PD_ADDED_MAX; i++)
			sp.meta.added[sp.meta.nadded++] = cfg->added[i];
		sp.blame = (sc->blame || sc->blame_if_streamed) && !sc->record_path;
		sp.blame_no_p99 = sc->blame_no_p99;
		sp.timeline = sc->timeline; /* a recording's, of the same pass */
		sp.from_ns = sc->timeline ? sc->timeline->from_ns : 0;
		sp.to_ns = sc->timeline ? sc->timeline->to_ns : 0;
		sp.whole = sp.from_ns || sp.to_ns;
		sp.stacks = sc->callchain && !sc->record_path;
		sp.track = cfg->track;
		sp.ntrack = cfg->ntrack;
	}
	/* a recording's stream writes the memory samples into its file */
	sp.cachelines = cfg->memory && !sc->record_path;
	sp.cl = (struct cacheline_cfg){ .topo = cfg->topo, .line_size = 64, .sort = CL_SORT_TOTAL,
					.min_samples = CL_MIN_SAMPLES };
	build(p, &sp);
}

void sink_plan_file(struct sink_plan *p, const struct replay *rp, const struct file_session_asks *a,
		    const struct timeline_sink_cfg *tl)
{
	const struct replay_opts *o = rp->o;
	struct spec sp = { .timeline = tl, .blame = a->blame, .cachelines = true };

	sp.wc.system_wide = o->pid == 0;
	sp.stacks = a->stacks || (a->stacks_if_recorded && pd_has_callchains(&rp->f));
	sp.cl = (struct cacheline_cfg){ .topo = &rp->topo, .line_size = o->line_size,
					.sort = o->sort, .min_samples = CL_MIN_SAMPLES };
	sp.track = o->pid ? &o->pid : NULL;
	sp.ntrack = o->pid ? 1 : 0;
	sp.more = o->more;
	sp.nmore = o->nmore;
	sp.from_ns = o->from_ns;
	sp.to_ns = o->to_ns;
	sp.whole = a->whole_results && (o->from_ns || o->to_ns);
	build(p, &sp);
}

void sink_plan_track(struct sink_plan *p, int32_t tid)
{
	wakeup_sink_track(&p->wk, tid);
	if (p->two)
		wakeup_sink_track(&p->whole, tid);
}

struct sched_results *sink_plan_results(struct sink_plan *p, const struct sink_begin *b)
{
	return wakeup_sink_results(p->two ? &p->whole : &p->wk, b);
}

const struct blame_results *sink_plan_blame(const struct sink_plan *p)
{
	return p->blame ? blame_sink_results(&p->bl) : NULL;
}

const struct blame_live *sink_plan_blame_live(const struct sink_plan *p)
{
	return p->blame ? blame_sink_live(&p->bl) : NULL;
}

const struct stacks *sink_plan_stacks(struct sink_plan *p, const struct stack_table **tab,
				      struct stack_namer *nm)
{
	return p->stacks ? stacks_sink_results(&p->stk, tab, nm) : NULL;
}

struct cacheline *sink_plan_cachelines(struct sink_plan *p)
{
	return p->cachelines ? &p->cl.cl : NULL;
}

struct timeline_sink *sink_plan_timeline(struct sink_plan *p)
{
	return p->timeline ? &p->tl : NULL;
}

int sink_plan_pass_timeline(struct sink_plan *p, const struct sink_begin *b,
			    struct pass_timeline *t, char *err, size_t len)
{
	const struct sinks *l = &p->list;

	memset(t, 0, sizeof(*t));
	if (!p->timeline || !l->have_first) {
		snprintf(err, len, "no sched events in the file: no timeline to write");
		return -1;
	}
	t->span_ns = l->last_ns > l->first_ns ? l->last_ns - l->first_ns : 0;
	if (l->from_ns > t->span_ns) {
		snprintf(err, len, "--from is past the recording's end (it lasts %.3f s): no "
			 "timeline written", (double)t->span_ns / 1e9);
		return -1;
	}
	t->tl = &p->tl.tl;
	t->r = sink_plan_results(p, b);
	return 0;
}

struct writer_sink *sink_plan_writer(struct sink_plan *p)
{
	return p->writing ? &p->wr : NULL;
}

void sink_plan_release(struct sink_plan *p)
{
	sinks_release(&p->list);
	memset(p, 0, sizeof(*p));
}
