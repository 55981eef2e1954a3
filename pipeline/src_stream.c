/*
 * src_stream.c - the perf source: sched tracepoints through per-CPU ring
 * buffers, time-ordered by the reorder window into the wakeup analyzer, or
 * written as they come into a perf.data file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analyzers/reorder.h"
#include "../collectors/memsample.h"
#include "../collectors/procfs.h"
#include "../collectors/sched.h"
#include "../collectors/sched_record.h"
#include "../common/util.h"
#include "source.h"

struct stream {
	struct source s;	/* first: the interface */
	struct sched_collector col;
	struct reorder ro;
	struct wakeup_batch batch;	/* time-ordered events on their way to the analyzer */
	struct sched_record *rec;	/* recording: the file */
	struct mem_collector *mem;	/* recording: memory samples into it, or NULL */
};

static void analyze(void *ctx, const struct event *e)
{
	struct stream *st = ctx;

	wakeup_batch_add(&st->s.an, &st->batch, e);
}

static void enqueue(void *ctx, const struct event *e)
{
	struct stream *st = ctx;

	reorder_add(&st->ro, e, analyze, st);
}

static void counts(struct stream *st)
{
	st->s.events = st->col.samples;
	st->s.bytes = st->col.bytes;
	st->s.lost = st->col.lost;
	st->s.keep_pages = sched_pages_to_keep(&st->col);
	st->s.an.r.late = st->ro.late;
	st->s.an.r.undecodable = st->col.undecodable;
	if (st->rec) {
		st->s.write_err = st->rec->write_err;
		st->s.file_records = st->rec->w.records_on_disk;
		st->s.file_bytes = st->rec->w.data_size;
		st->s.file_mem_samples = st->rec->mem_samples;
	}
}

/*
 * Wakers the stream never saw switch (a task woken and woken by, never run on a
 * traced CPU) are named from /proc while they live: the busiest pairs only.
 */
static void name_wakers(struct sched_results *r)
{
	for (int i = 0; i < r->npairs && i < 100; i++) {
		struct pair_stat *p = &r->pairs[i];

		if (!p->waker_comm[0] && p->waker_tid > 0)
			proc_comm(p->waker_tid, p->waker_comm, sizeof(p->waker_comm));
		if (!p->wakee_comm[0] && p->wakee_tid > 0)
			proc_comm(p->wakee_tid, p->wakee_comm, sizeof(p->wakee_comm));
	}
}

/* The tasks' affinity, from /proc when each is first woken (changes after are not seen). */
static int affinity(void *ctx, int32_t tid, uint64_t *mask, int nwords)
{
	(void)ctx;
	return proc_affinity(tid, mask, nwords);
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

static int st_drain(struct source *s, char *err, size_t len)
{
	struct stream *st = (struct stream *)s;

	(void)err;
	(void)len;
	if (st->rec) {
		sched_record_drain(st->rec, &st->col, st->mem);
	} else {
		sched_read(&st->col, enqueue, st);
		reorder_round(&st->ro, analyze, st);
		wakeup_batch_flush(&s->an, &st->batch); /* all in before a snapshot reads them */
	}
	counts(st);
	return 0;
}

/* Under the reader's lock: a copy of the tables, nothing sorted (the reader waits). */
static void st_snapshot(struct source *s)
{
	wakeup_freeze(&s->an, &s->an.frozen); /* closes the CPUs' intervals: goes on */
	counts((struct stream *)s);
}

/* Without the lock: the copy sorted into tables, wakers named from /proc. */
static void st_snapshot_tables(struct source *s, struct sched_results *dst)
{
	wakeup_frozen_tables(&s->an.frozen, dst);
	name_wakers(dst);
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

	reorder_flush(&st->ro, analyze, st);
	wakeup_batch_flush(&s->an, &st->batch);
	if (st->rec)
		sched_record_finish(st->rec);
	wakeup_finish(&s->an);
	name_wakers(&s->an.r);
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
	free(st->rec);
	wakeup_release(&s->an);
	reorder_release(&st->ro);
	free(st);
}

static void st_track(struct source *s, pid_t tid)
{
	wakeup_track(&s->an, tid); /* before the reader runs: no lock needed */
}

static int st_add_records(struct source *s, const uint8_t *recs, size_t len)
{
	struct stream *st = (struct stream *)s;

	return st->rec ? sched_record_add(st->rec, recs, len) : -1;
}

static const struct source_ops stream_ops = {
	"perf", st_enable, st_wait, st_drain, st_snapshot, st_snapshot_tables, st_stop, st_finish,
	st_close, st_track,
	st_add_records,
};

struct source *source_open_stream(const struct source_cfg *cfg, char *err, size_t len)
{
	struct sched_opts so = { cfg->cpus, cfg->ncpus, cfg->tracefs, cfg->mmap_pages,
				 cfg->record_path != NULL };
	struct stream *st = xcalloc(1, sizeof(*st));
	struct wakeup_cfg wc = { 0 };

	if (cfg->btf && cfg->collector == COLLECTOR_PERF) {
		snprintf(err, len, "a kernel BTF file is for the BPF collector, not perf's ring buffers");
		free(st);
		return NULL;
	}
	if (sched_open(&st->col, &so, err, len) < 0) {
		free(st);
		return NULL;
	}
	st->s.ops = &stream_ops;
	st->s.streams = true;
	st->s.exclude[0] = (int32_t)getpid();
	st->s.exclude[1] = -1; /* the reader, once it runs */
	wc.topo = cfg->topo;
	wc.system_wide = cfg->system_wide;
	wc.exclude = st->s.exclude;
	wc.nexclude = 2;
	wc.waking_source = st->col.have_waking;
	wc.migrate_source = st->col.dec.fmt[EV_MIGRATE].id >= 0;
	wc.max_tasks = cfg->max_tasks;
	wc.max_pairs = cfg->max_pairs;
	wc.affinity = affinity;
	wakeup_init(&st->s.an, &wc);
	st->s.prov.affinity_known = true;
	/* kernels before 6.5 have no ipi_send_cpu; without sched_waking no IPI can be told
	 * a wakeup's (sched_wakeup may follow it) */
	if (st->col.dec.fmt[EV_IPI].id < 0 || !wc.waking_source)
		st->s.prov.unmeasured |= SM_BIT(wakeups_ipi) | SM_BIT(ipis_resched_other) |
					 SM_BIT(ipis_call_other);
	if (st->col.dec.fmt[EV_WAKE_IDLE].id < 0 || !wc.waking_source)
		st->s.prov.unmeasured |= SM_BIT(wakeups_no_ipi);
	for (int i = 0; i < cfg->ntrack; i++)
		wakeup_track(&st->s.an, cfg->track[i]);
	reorder_init(&st->ro);
	if (cfg->record_path) {
		struct sched_record_meta m = { cfg->topo, cfg->cmdline, cfg->workload_pid };

		st->rec = xcalloc(1, sizeof(*st->rec));
		if (cfg->memory) { /* where the PMU can: a file as perf c2c record writes it */
			st->mem = xcalloc(1, sizeof(*st->mem));
			if (mem_open(st->mem, cfg->cpus, cfg->ncpus, cfg->mmap_pages ?
				     cfg->mmap_pages : 64, true, st->s.mem_why,
				     sizeof(st->s.mem_why)) < 0) {
				free(st->mem);
				st->mem = NULL;
			}
		}
		if (sched_record_open(st->rec, &st->col, st->mem ? &st->mem->plan : NULL,
				      cfg->record_path, &m, err, len) < 0) {
			st_close(&st->s);
			return NULL;
		}
	}
	st->s.prov.delay = DELAY_LOGLIN;
	return &st->s;
}
