/*
 * src_bpf.c - the BPF source: programs on the sched tracepoints aggregate in
 * the kernel; a snapshot reads the maps into the results that stand in for the
 * wakeup sink's. Nothing streams: a sink that needs every event is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analyzers/stacks.h"
#include "../collectors/bpf_sched.h"
#include "../collectors/bpf/sched_bpf.h"
#include "../collectors/bpf_stacks.h"
#include "../common/util.h"
#include "source.h"

_Static_assert(LB_STK_WAKERS == STACKS_WAKERS && LB_STK_BLOCKED == STACKS_BLOCKED &&
		       LB_STK_OFFWAKE == STACKS_OFFWAKE && LB_STK_NO_WAKEUP == STACKS_NO_WAKEUP,
	       "the programs' kinds and classes are the stacks analyzer's");

struct bpf_src {
	struct source s;	/* first: the interface */
	struct bpf_sched *bs;
	bool system_wide;
};

/* The programs count only the tasks they follow: every one asked is in scope. */
static bool followed(void *ctx, int32_t tid)
{
	(void)ctx, (void)tid;
	return true;
}

static void b_enable(struct source *s)
{
	(void)s; /* collecting since attach: before the workload is released */
}

static bool b_wait(struct source *s, int ms)
{
	(void)s;
	(void)ms;
	return false;
}

static int b_drain(struct source *s, char *err, size_t len)
{
	(void)err;
	(void)len;
	/* aggregated in the kernel; exited tasks' totals out of its tables (every tick of
	 * the reader, so that tasks coming and going do not fill them) */
	bpf_sched_retire(((struct bpf_src *)s)->bs);
	bpf_sched_stacks_poll(((struct bpf_src *)s)->bs); /* -g: new processes' maps, alive */
	bpf_sched_cost_tick(((struct bpf_src *)s)->bs);
	return 0;
}

static void b_snapshot(struct source *s)
{
	struct bpf_src *b = (struct bpf_src *)s;

	bpf_sched_read(b->bs, s->results, false); /* the maps as they are now */
	s->events = bpf_sched_events(b->bs);
	bpf_sched_cost(b->bs, &s->prov.cost);
}

static void b_stop(struct source *s)
{
	bpf_sched_detach(((struct bpf_src *)s)->bs);
}

static void b_finish(struct source *s)
{
	struct bpf_src *b = (struct bpf_src *)s;

	bpf_sched_read(b->bs, s->results, true); /* with the task table */
	s->events = bpf_sched_events(b->bs);
	bpf_sched_cost(b->bs, &s->prov.cost);
}

static void b_close(struct source *s)
{
	struct bpf_src *b = (struct bpf_src *)s;

	bpf_sched_close(b->bs);
	free(b);
}

static void b_track(struct source *s, pid_t tid)
{
	char err[160];

	if (bpf_sched_track(((struct bpf_src *)s)->bs, tid, err, sizeof(err)) < 0)
		locus_verbose("%s", err);
}

struct bpf_sched *source_bpf_collector(struct source *s)
{
	return s && s->ops->wait == b_wait ? ((struct bpf_src *)s)->bs : NULL;
}

int source_bpf_stacks(struct source *s, struct stacks *st, struct stack_table *tab,
		      struct symbols *syms)
{
	struct bpf_stack_row *rows;
	struct bpf_stack_stats ss;
	uint32_t n;

	if (!s || s->ops->wait != b_wait ||
	    bpf_sched_stacks(((struct bpf_src *)s)->bs, tab, syms, &rows, &n, &ss) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) /* the blocked and off-wake rows timed, each */
		stacks_add_counted(st, (enum stacks_kind)rows[i].kind, rows[i].stack,
				   rows[i].waker, rows[i].cls, rows[i].count, rows[i].time_ns,
				   rows[i].kind != STACKS_WAKERS);
	free(rows);
	st->sampled = (struct stacks_sampled){ ss.every_waker, ss.every_blocked, ss.taken_waker,
					       ss.taken_blocked, ss.taken_offwake, ss.eexist,
					       ss.enomem, ss.eother, ss.full, ss.lost, ss.tgids,
					       ss.tgids_gone };
	if (!((struct bpf_src *)s)->system_wide)
		st->in_scope = followed;
	st->wakings = ss.taken_waker;
	st->switches_voluntary = ss.taken_blocked;
	return 0;
}

static const struct source_ops bpf_ops = {
	"bpf", b_enable, b_wait, b_drain, b_snapshot, NULL, b_stop, b_finish, b_close, b_track,
};

/* A setting only the perf stream honors, in words (NULL: none asked for). */
static const char *stream_only(const struct source_cfg *cfg)
{
	const struct stream_cfg *sc = &cfg->stream;

	if (sc->record_path)
		return "recording a perf.data file needs every record in user space";
	if (sc->callchain && !cfg->bpf.stacks)
		return "callchains (-g) come with each event through perf's ring buffers";
	if (sc->blame && !cfg->bpf.blame)
		return "the irq tracepoints (--blame) are read through perf's ring buffers";
	return NULL;
}

struct source *source_open_bpf(const struct source_cfg *cfg, const struct sinks *sinks,
			       struct sched_results *results, char *err, size_t len)
{
	struct bpf_sched_cfg bc = { cfg->topo, cfg->system_wide, getpid(), cfg->bpf.btf,
				    cfg->bpf.delay_rate, cfg->cpus, cfg->ncpus, cfg->max_tasks,
				    cfg->max_pairs,
				    cfg->bpf.stacks ? bpf_sched_every(cfg->bpf.delay_rate) * LB_STACK_OF_TIMED :
						      0, cfg->bpf.blame };
	const struct sink *every = sinks_refusing(sinks);
	const char *only = stream_only(cfg);
	struct bpf_src *b;

	if (only) {
		snprintf(err, len, "%s: the BPF programs only count", only);
		return NULL;
	}
	if (every) {
		snprintf(err, len, "%s needs every event in user space: the BPF programs only count",
			 every->ops->name);
		return NULL;
	}
	b = xcalloc(1, sizeof(*b));
	b->bs = bpf_sched_open(&bc, err, len);
	if (!b->bs) {
		free(b);
		return NULL;
	}
	for (int i = 0; i < cfg->ntrack; i++)
		if (bpf_sched_track(b->bs, cfg->track[i], err, len) < 0)
			goto fail;
	if (bpf_sched_attach(b->bs, err, len) < 0)
		goto fail;
	b->s.ops = &bpf_ops;
	b->system_wide = cfg->system_wide;
	b->s.housekeeping = true;
	b->s.results = results; /* the maps are read into them */
	b->s.prov.delay = DELAY_LOGLIN; /* the stream's buckets, exact min and max */
	b->s.prov.delay_rate = cfg->bpf.delay_rate;
	b->s.prov.sample_every = bpf_sched_every(cfg->bpf.delay_rate) > 1 ?
					 bpf_sched_every(cfg->bpf.delay_rate) : 0;
	/* no records to lose, reorder or decode, and every switch is seen */
	b->s.prov.unmeasured |= SM_BIT(lost) | SM_BIT(late) | SM_BIT(undecodable) |
				SM_BIT(switch_in_missed);
	/* IPIs where the kernel lacks them; idle CPUs beyond the programs' masks */
	b->s.prov.unmeasured |= bpf_sched_unmeasured(b->bs);
	b->s.prov.affinity_known = true; /* each task's own mask, read when it runs */
	snprintf(err, len, "%s", bpf_sched_left_out(b->bs));
	return &b->s;
fail:
	bpf_sched_close(b->bs);
	free(b);
	return NULL;
}
