/*
 * src_bpf.c - the BPF source: programs on the sched tracepoints aggregate in
 * the kernel; a snapshot reads the maps into the results that stand in for the
 * wakeup sink's. Nothing streams: a sink that needs every event is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../collectors/bpf_sched.h"
#include "../common/util.h"
#include "source.h"

struct bpf_src {
	struct source s;	/* first: the interface */
	struct bpf_sched *bs;
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

static const struct source_ops bpf_ops = {
	"bpf", b_enable, b_wait, b_drain, b_snapshot, NULL, b_stop, b_finish, b_close, b_track,
};

/* A setting only the perf stream honors, in words (NULL: none asked for). */
static const char *stream_only(const struct stream_cfg *sc)
{
	if (sc->record_path)
		return "recording a perf.data file needs every record in user space";
	if (sc->callchain)
		return "callchains (-g) come with each event through perf's ring buffers";
	if (sc->blame)
		return "the irq tracepoints (--blame) are read through perf's ring buffers";
	return NULL;
}

struct source *source_open_bpf(const struct source_cfg *cfg, const struct sinks *sinks,
			       struct sched_results *results, char *err, size_t len)
{
	struct bpf_sched_cfg bc = { cfg->topo, cfg->system_wide, getpid(), cfg->bpf.btf,
				    cfg->bpf.delay_rate, cfg->cpus, cfg->ncpus, cfg->max_tasks,
				    cfg->max_pairs };
	const struct sink *every = sinks_refusing(sinks);
	const char *only = stream_only(&cfg->stream);
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
	return &b->s;
fail:
	bpf_sched_close(b->bs);
	free(b);
	return NULL;
}
