/* tracer.c - wires sched collector -> reorder -> wakeup analyzer on one reader thread. */
#define _GNU_SOURCE
#include "tracer.h"

#include "../common/util.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* How long the reader sleeps when no ring buffer reaches its watermark. */
#define READER_TICK_MS 200

static void analyze(void *ctx, const struct event *e)
{
	struct tracer *t = ctx;

	wakeup_add(&t->an, e);
}

static void enqueue(void *ctx, const struct event *e)
{
	struct tracer *t = ctx;

	reorder_add(&t->ro, e, analyze, t);
}

static void *reader_main(void *arg)
{
	struct tracer *t = arg;
	struct rusage ru;

	t->exclude[1] = (int32_t)gettid();
	while (!atomic_load(&t->stop)) {
		sched_poll(&t->col, READER_TICK_MS);
		sched_read(&t->col, enqueue, t);
		reorder_round(&t->ro, analyze, t);
	}
	sched_read(&t->col, enqueue, t);
	reorder_flush(&t->ro, analyze, t);
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		t->reader_cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
				   (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
	return NULL;
}

int tracer_start(struct tracer *t, const struct tracer_cfg *cfg, char *err, size_t len)
{
	struct sched_opts so = { cfg->cpus, cfg->ncpus, cfg->tracefs, cfg->mmap_pages };
	struct wakeup_cfg wc = { 0 };

	memset(t, 0, sizeof(*t));
	if (sched_open(&t->col, &so, err, len) < 0)
		return -1;
	t->exclude[0] = (int32_t)getpid();
	t->exclude[1] = -1;
	wc.topo = cfg->topo;
	wc.system_wide = cfg->system_wide;
	wc.exclude = t->exclude;
	wc.nexclude = 2;
	wc.waking_source = t->col.have_waking;
	wakeup_init(&t->an, &wc);
	for (int i = 0; i < cfg->ntrack; i++)
		wakeup_track(&t->an, cfg->track[i]);
	reorder_init(&t->ro);
	t->cpus_traced = cfg->cpus ? cfg->ncpus : (int)sysconf(_SC_NPROCESSORS_ONLN);
	sched_enable(&t->col);
	if (pthread_create(&t->thread, NULL, reader_main, t) != 0) {
		snprintf(err, len, "cannot start the reader thread");
		sched_close(&t->col);
		wakeup_release(&t->an);
		reorder_release(&t->ro);
		return -1;
	}
	t->started = true;
	return 0;
}

void tracer_stop(struct tracer *t)
{
	if (!t->started)
		return;
	sched_disable(&t->col);
	atomic_store(&t->stop, 1);
	pthread_join(t->thread, NULL);
	t->started = false;
	wakeup_finish(&t->an);
	t->an.r.late = t->ro.late;
	locus_verbose("reader thread: %.1f ms of CPU for %llu events (%.0f ns each), %zu held at most",
		      (double)t->reader_cpu_ns / 1e6, (unsigned long long)t->col.samples,
		      t->col.samples ? (double)t->reader_cpu_ns / (double)t->col.samples : 0.0,
		      t->ro.peak);
	t->an.r.undecodable = t->col.undecodable;
}

struct sched_results *tracer_results(struct tracer *t)
{
	return wakeup_results(&t->an);
}

void tracer_release(struct tracer *t)
{
	tracer_stop(t);
	sched_close(&t->col);
	wakeup_release(&t->an);
	reorder_release(&t->ro);
}
