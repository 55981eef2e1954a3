/*
 * src_bpf.c - the BPF source: programs on the sched tracepoints aggregate in
 * the kernel; a snapshot reads the maps into the results of the sinks it stands in
 * for (stand_in.h: the wakeup analyzer's, and as asked who delayed the wakee and the
 * stacks). Nothing streams: a sink that needs every event is refused.
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
#include "src_bpf.h"
#include "stand_in.h"

_Static_assert(LB_STK_WAKERS == STACKS_WAKERS && LB_STK_BLOCKED == STACKS_BLOCKED &&
		       LB_STK_OFFWAKE == STACKS_OFFWAKE && LB_STK_NO_WAKEUP == STACKS_NO_WAKEUP,
	       "the programs' kinds and classes are the stacks analyzer's");

struct bpf_src {
	struct source s;	/* first: the interface */
	struct bpf_sched *bs;
	bool system_wide;
	struct sink_stand_in si; /* where the sinks it stands in for want their results */
};

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
	struct stand_in_blame *bl = b->si.blame;

	bpf_sched_read(b->bs, b->si.sched, false); /* the maps as they are now */
	s->events = bpf_sched_events(b->bs);
	bpf_sched_cost(b->bs, &s->prov.cost);
	if (bl) /* the kernel's split so far; after the end, the one read then */
		bl->live_on = bpf_src_blame_live(b->bs, bl->on ? &bl->r : NULL, b->si.sched,
						 &bl->live) == 0;
}

static void b_stop(struct source *s)
{
	bpf_sched_detach(((struct bpf_src *)s)->bs);
}

/* The programs count only the tasks they follow: every one asked is in scope. */
static bool followed(void *ctx, int32_t tid)
{
	(void)ctx, (void)tid;
	return true;
}

/* -g: the stacks sampled in the kernel, their callchains and the sampled processes'
 * mappings into the stacks sink's stand-in. 0, or -1 when the programs took none. */
static int read_stacks(struct bpf_src *b, struct stand_in_stacks *sk)
{
	struct stacks *st = sk->st;
	struct bpf_stack_row *rows;
	struct bpf_stack_stats ss;
	uint32_t n;

	if (bpf_sched_stacks(b->bs, &sk->tab, &sk->syms, &rows, &n, &ss) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) /* the blocked and off-wake rows timed, each */
		stacks_add_counted(st, (enum stacks_kind)rows[i].kind, rows[i].stack,
				   rows[i].waker, rows[i].cls, rows[i].count, rows[i].time_ns,
				   rows[i].kind != STACKS_WAKERS);
	free(rows);
	st->sampled = (struct stacks_sampled){ ss.every_waker, ss.every_blocked, ss.taken_waker,
					       ss.taken_blocked, ss.taken_offwake, ss.enomem,
					       ss.eother, ss.full, ss.lost, ss.tgids, ss.tgids_gone };
	if (!b->system_wide)
		st->in_scope = followed;
	st->wakings = ss.taken_waker;
	st->switches_voluntary = ss.taken_blocked;
	return 0;
}

/* After the stop: the results with the task table, then the split of the waits and the
 * stacks where the sinks asked for them, read once. */
static void b_finish(struct source *s)
{
	struct bpf_src *b = (struct bpf_src *)s;

	bpf_sched_read(b->bs, b->si.sched, true); /* with the task table */
	s->events = bpf_sched_events(b->bs);
	bpf_sched_cost(b->bs, &s->prov.cost);
	if (b->si.blame && !b->si.blame->on)
		b->si.blame->on = bpf_src_blame(b->bs, b->si.sched, &b->si.blame->r) == 0;
	if (b->si.stacks && !b->si.stacks->on)
		b->si.stacks->on = read_stacks(b, b->si.stacks) == 0;
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

static const struct source_ops bpf_ops = {
	.name = "bpf",
	.enable = b_enable,
	.wait = b_wait,
	.drain = b_drain,
	.snapshot = b_snapshot,
	.stop = b_stop,
	.finish = b_finish,
	.close = b_close,
	.track = b_track,
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

struct source *source_open_bpf(const struct source_cfg *cfg, struct sinks *sinks, char *err,
			       size_t len)
{
	/* the results it stands in for, begun as the analyzer's would be: its wakeups are
	 * sched_waking's */
	const struct sink_begin begin = { .topo = cfg->topo, .waking_source = true };
	struct bpf_sched_cfg bc = {
		.topo = cfg->topo, .system_wide = cfg->system_wide, .exclude_tgid = getpid(),
		.btf_path = cfg->bpf.btf, .delay_rate = cfg->bpf.delay_rate, .cpus = cfg->cpus,
		.ncpus = cfg->ncpus, .max_tasks = cfg->max_tasks, .max_pairs = cfg->max_pairs,
		.stack_every = cfg->bpf.stacks ?
			bpf_sched_every(cfg->bpf.delay_rate) * LB_STACK_OF_TIMED : 0,
		.blame = cfg->bpf.blame, .ipis = cfg->ipis,
	};
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
	b->s.sinks = sinks;
	b->system_wide = cfg->system_wide;
	b->s.housekeeping = true;
	sinks_stand_in(sinks, &b->si, &begin); /* the maps are read into their results */
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
	b->s.prov.ipis_not_asked = !cfg->ipis;
	snprintf(err, len, "%s", bpf_sched_left_out(b->bs));
	return &b->s;
fail:
	bpf_sched_close(b->bs);
	free(b);
	return NULL;
}
