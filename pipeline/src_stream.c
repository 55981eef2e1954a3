/*
 * src_stream.c - the perf source: sched tracepoints through per-CPU ring buffers,
 * time-ordered by the reorder window into the session's sinks; recording, each record
 * read once: whole to the sink that takes records (the writer), decoded into events for
 * the others where there are any (a recording's timeline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../collectors/memsample.h"
#include "../collectors/procfs.h"
#include "../collectors/sched.h"
#include "../common/util.h"
#include "../model/sched_results.h"
#include "reorder.h"
#include "source.h"

struct stream {
	struct source s;	/* first: the interface */
	struct sched_collector col;
	struct reorder ro;
	struct sink *raw;	/* the sink of whole records (the writer), or NULL */
	bool events;		/* a sink takes events (without the writer, the wakeup sink) */
	struct mem_collector *mem;	/* memory samples into the raw sink, or NULL */
};

static void deliver(void *ctx, const struct event *e)
{
	sinks_consume(((struct stream *)ctx)->s.sinks, e);
}

static void enqueue(void *ctx, const struct event *e)
{
	struct stream *st = ctx;

	reorder_add(&st->ro, e, deliver, st);
}

static void counts(struct stream *st)
{
	st->s.events = st->col.samples;
	st->s.bytes = st->col.bytes;
	st->s.lost = st->col.lost;
	st->s.keep_pages = sched_pages_to_keep(&st->col);
	st->s.late = st->ro.late;
	st->s.undecodable = st->col.undecodable;
}

/*
 * Wakers the stream never saw switch (a task woken and woken by, never run on a
 * traced CPU) are named from /proc while they live: the busiest pairs only.
 */
static void st_annotate(struct source *s, struct sched_results *r)
{
	(void)s;
	for (int i = 0; i < r->npairs && i < 100; i++) {
		struct pair_stat *p = &r->pairs[i];

		if (!p->waker_comm[0] && p->waker_tid > 0)
			proc_comm(p->waker_tid, p->waker_comm, sizeof(p->waker_comm));
		if (!p->wakee_comm[0] && p->wakee_tid > 0)
			proc_comm(p->wakee_tid, p->wakee_comm, sizeof(p->wakee_comm));
	}
}

static void st_enable(struct source *s)
{
	struct stream *st = (struct stream *)s;

	sched_enable(&st->col);
	sched_visit_cpus(&st->col); /* every CPU shows whether it is idle */
	if (st->mem)
		mem_enable(st->mem);
}

static bool st_wait(struct source *s, int ms)
{
	sched_poll(&((struct stream *)s)->col, ms);
	return true;
}

/* Recording: an event derived from the rings (a task's mask: EV_AFFINITY) to the writer as
 * it is read, for the file to hold it beside its call, and in time order to the others. */
static void take_derived(void *ctx, const struct event *e)
{
	struct stream *st = ctx;

	if (e->type == EV_AFFINITY)
		st->raw->ops->derived(st->raw, e);
	if (st->events)
		enqueue(st, e);
}

/* Recording: a sched ring's record whole to the writer, and as events to the others (else
 * only what the file needs derived: the mask a sched_setaffinity call set). */
static void take_record(void *ctx, const void *rec)
{
	struct stream *st = ctx;
	struct event a;

	st->raw->ops->record(st->raw, rec, false, -1);
	if (st->events)
		sched_decode(&st->col, rec, take_derived, st);
	else if (sched_affinity_of(&st->col, rec, &a))
		st->raw->ops->derived(st->raw, &a);
}

static void take_mem_record(void *ctx, const void *rec, int idx)
{
	struct stream *st = ctx;

	st->raw->ops->record(st->raw, rec, true, idx);
}

static int st_drain(struct source *s, char *err, size_t len)
{
	struct stream *st = (struct stream *)s;

	(void)err;
	(void)len;
	if (st->raw) { /* each record read once, whatever takes it */
		sched_affinity_start(&st->col, take_derived, st); /* every task's mask, first */
		sched_read_raw(&st->col, take_record, st);
		if (st->mem)
			mem_read_raw(st->mem, take_mem_record, st);
		st->raw->ops->round(st->raw);
	} else {
		sched_read(&st->col, enqueue, st);
	}
	if (st->events) {
		reorder_round(&st->ro, deliver, st);
		sinks_flush(s->sinks); /* all in before a snapshot reads them */
	}
	counts(st);
	return 0;
}

/* Under the reader's lock: the counts (the sinks freeze their own tables). */
static void st_snapshot(struct source *s)
{
	counts((struct stream *)s);
}

static void st_stop(struct source *s)
{
	struct stream *st = (struct stream *)s;

	sched_disable(&st->col);
	if (st->mem)
		mem_disable(st->mem);
}

static void st_finish(struct source *s)
{
	struct stream *st = (struct stream *)s;

	reorder_flush(&st->ro, deliver, st);
	sinks_flush(s->sinks);
	/* the callchains of the events' stack ids, and the mappings that name their frames */
	sinks_end(s->sinks, &(const struct sink_end){ .stacks = &st->col.stacks,
						      .maps = st->col.maps,
						      .nmaps = st->col.nmaps });
	counts(st);
	locus_verbose("stream: %llu events, %zu held at most, %llu re-sorted within a CPU, %llu late",
		      (unsigned long long)st->col.samples, st->ro.peak,
		      (unsigned long long)st->ro.unordered, (unsigned long long)st->ro.late);
}

static void st_close(struct source *s)
{
	struct stream *st = (struct stream *)s;

	sched_close(&st->col);
	if (st->mem) {
		mem_close(st->mem);
		free(st->mem);
	}
	reorder_release(&st->ro);
	free(st);
}

static const struct source_ops stream_ops = {
	.name = "perf",
	.enable = st_enable,
	.wait = st_wait,
	.drain = st_drain,
	.snapshot = st_snapshot,
	.annotate = st_annotate,
	.stop = st_stop,
	.finish = st_finish,
	.close = st_close,
	/* no track: the sinks follow tasks */
};

/* How the stream measures, into its provenance. */
static void stream_prov(struct stream *st, bool waking, bool ipis)
{
	st->s.prov.affinity_known = true; /* EV_AFFINITY: at the start, and each change */
	st->s.prov.affinity_calls = st->col.affinity_calls;
	/* the stream follows every fork it receives: the BPF collector's own drops */
	st->s.prov.unmeasured |= SM_BIT(tasks_unfollowed) | SM_BIT(runs_missed);
	/* kernels before 6.5 have no ipi_send_cpu; without sched_waking no IPI can be told
	 * a wakeup's (sched_wakeup may follow it); without --ipis they are not read */
	if (st->col.dec.fmt[EV_IPI].id < 0 || !waking || !ipis)
		st->s.prov.unmeasured |= SM_BIT(wakeups_ipi) | SM_BIT(ipis_resched_other) |
					 SM_BIT(ipis_call_other);
	if (st->col.dec.fmt[EV_WAKE_IDLE].id < 0 || !waking || !ipis)
		st->s.prov.unmeasured |= SM_BIT(wakeups_no_ipi);
	st->s.prov.ipis_not_asked = !ipis;
	st->s.prov.delay = DELAY_LOGLIN;
}

/* A recording's tasks named from the start, as its file names them (time 0, before every
 * sample): for the sinks beside the writer, as a reader of the file would see them. */
static void early_comm(void *ctx, pid_t pid, pid_t tid, const char *comm)
{
	struct event e = { .type = EV_COMM, .pid = pid, .tid = tid };

	snprintf(e.comm.comm, sizeof(e.comm.comm), "%s", comm);
	enqueue(ctx, &e);
}

/* Recording: memory samples where the PMU can (a file as perf c2c record writes it), and
 * the writer's file. 0, or -1 with why. */
static int open_raw(struct stream *st, const struct source_cfg *cfg, char *err, size_t len)
{
	struct sink_raw r = { &st->col, NULL };

	if (cfg->memory) {
		st->mem = xcalloc(1, sizeof(*st->mem));
		if (mem_open(st->mem, cfg->cpus, cfg->ncpus, cfg->mmap_pages ? cfg->mmap_pages : 64,
			     true, st->s.mem_why, sizeof(st->s.mem_why)) < 0) {
			free(st->mem);
			st->mem = NULL;
		}
	}
	r.mem = st->mem;
	return st->raw->ops->raw_open(st->raw, &r, err, len);
}

struct source *source_open_stream(const struct source_cfg *cfg, struct sinks *sinks, char *err,
				  size_t len)
{
	struct sink *raw = sinks_raw(sinks);
	struct sched_opts so = { .cpus = cfg->cpus, .ncpus = cfg->ncpus,
				 .tracefs = cfg->stream.tracefs, .mmap_pages = cfg->mmap_pages,
				 .record = raw != NULL, .callchain = cfg->stream.callchain,
				 .irq = cfg->stream.blame || cfg->stream.blame_if_streamed,
				 /* a file holds them always: perf script shows them, and a
				  * report of it tells IPIs without a second recording */
				 .ipis = cfg->ipis || raw != NULL };
	struct stream *st = xcalloc(1, sizeof(*st));
	struct sink_begin b = { 0 };

	if (cfg->bpf.btf && cfg->collector == COLLECTOR_PERF) {
		snprintf(err, len, "a kernel BTF file is for the BPF collector, not perf's ring buffers");
		free(st);
		return NULL;
	}
	if (sched_open(&st->col, &so, err, len) < 0) {
		free(st);
		return NULL;
	}
	st->s.ops = &stream_ops;
	st->s.sinks = sinks;
	st->raw = raw;
	st->s.streams = true;
	st->s.exclude[0] = (int32_t)getpid();
	st->s.exclude[1] = -1; /* the reader, once it runs */
	b = (struct sink_begin){ .topo = cfg->topo, .waking_source = st->col.have_waking,
				 .migrate_source = st->col.dec.fmt[EV_MIGRATE].id >= 0,
				 .irq_source = st->col.irq, .exclude = st->s.exclude,
				 .nexclude = 2, .affinity_events = true };
	sinks_begin(sinks, &b);
	stream_prov(st, b.waking_source, so.ipis);
	reorder_init(&st->ro);
	st->events = !raw; /* recording, only where a sink beside the writer takes events */
	for (int i = 0; i < sinks->n; i++)
		st->events |= sinks->k[i]->types != 0;
	if (raw && open_raw(st, cfg, err, len) < 0) {
		st_close(&st->s);
		return NULL;
	}
	if (raw && st->events)
		proc_each_task(early_comm, st);
	return &st->s;
}
