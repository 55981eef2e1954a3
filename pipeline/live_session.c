/*
 * live_session.c - a live session: opens the scheduler source (BPF where it loads,
 * else the perf stream; the stream when recording), samples memory where the
 * PMU can, drains both on a reader thread, and hands out snapshots.
 */
#define _GNU_SOURCE
#include "live_session.h"

#include "../analyzers/sched_delta.h"
#include "../collectors/probe.h"
#include "../collectors/procfs.h"
#include "../collectors/schedstat_read.h"
#include "../collectors/schedstat_record.h"
#include "../common/util.h"

#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#define SCHEDSTAT_PATH "/proc/schedstat"

/* How long the reader sleeps when no ring buffer reaches its watermark. */
#define READER_TICK_MS 200

/* A memory sample to the sinks that take them (the cacheline sink). */
static void take_mem(void *ctx, const struct event *e)
{
	sinks_consume(&((struct live_session *)ctx)->plan.list, e);
}

static void add_map(void *ctx, uint64_t start, uint64_t end, uint64_t off, const char *path)
{
	struct live_session *t = ctx;

	for (int i = 0; i < t->syms.nreg; i++)
		if (t->syms.reg[i].start == start && !strcmp(t->syms.reg[i].path, path))
			return;
	symbols_add_map(&t->syms, (uint32_t)t->maps_pid, start, end - start, off, path);
}

static void drain(struct live_session *t)
{
	char err[320];
	uint64_t t0;

	if (t->mem_on) {
		pthread_mutex_lock(&t->lock);
		mem_read(&t->mem, take_mem, t);
		pthread_mutex_unlock(&t->lock);
		if (t->maps_pid > 0) /* the maps go with the process: read them while it lives */
			proc_maps(t->maps_pid, add_map, t);
	}
	if (!t->src->streams && !t->src->housekeeping)
		return;
	t0 = now_ns();
	pthread_mutex_lock(&t->lock);
	t0 = now_ns() - t0;
	if (t0 > t->reader_wait_max_ns)
		t->reader_wait_max_ns = t0;
	if (t->src->ops->drain(t->src, err, sizeof(err)) < 0)
		locus_err("%s", err);
	pthread_mutex_unlock(&t->lock);
}

static uint64_t rusage_ns(const struct rusage *ru)
{
	return (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ull;
}

static void *reader_main(void *arg)
{
	struct live_session *t = arg;
	struct rusage ru;

	t->src->exclude[1] = (int32_t)gettid();
	prctl(PR_SET_NAME, "locus-reader"); /* its comm record names it in a recording */
	while (!atomic_load(&t->stop)) {
		if (!t->src->ops->wait(t->src, READER_TICK_MS))
			usleep(READER_TICK_MS * 1000); /* memory samples only; SIGUSR1 cuts it */
		t->reader_wakeups++;
		drain(t);
	}
	drain(t);
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		t->reader_cpu_ns = rusage_ns(&ru);
		t->reader_faults = (uint64_t)(ru.ru_minflt + ru.ru_majflt);
	}
	return NULL;
}

static void wake_reader(int sig)
{
	(void)sig; /* only interrupts the reader's poll */
}

static void start_memory(struct live_session *t, const struct source_cfg *cfg)
{
	if (mem_open(&t->mem, cfg->cpus, cfg->ncpus, cfg->mmap_pages ? cfg->mmap_pages : 64, false,
		     t->mem_why, sizeof(t->mem_why)) < 0)
		return;
	t->mem_on = true;
	t->maps_pid = cfg->ntrack ? cfg->track[0] : 0;
	symbols_init(&t->syms);
	symbols_use_kallsyms(&t->syms, "/proc/kallsyms"); /* samples of this machine */
	mem_enable(&t->mem);
}

/* A recording: the snapshot into the file as perf's SCHEDSTAT records (else nothing). */
static void store_schedstat(struct live_session *t, const struct schedstat *ss)
{
	struct writer_sink *w = sink_plan_writer(&t->plan);
	uint8_t *recs;
	size_t n;

	if (!t->ss_store || !w)
		return;
	n = ss_records_encode(ss, &recs);
	if (writer_sink_add(w, recs, n) < 0)
		locus_err("the schedstat snapshot could not be written to the file");
	free(recs);
}

/* What is known of the measurement before it starts: the CPUs, the scope, the source. */
static void prov_init(struct live_session *t, const struct source_cfg *cfg)
{
	struct provenance *p = &t->prov;

	p->source = PROV_PERF;
	snprintf(p->why, sizeof(p->why), "%s", cfg->stream.record_path ? "recording streams every event"
		 : cfg->collector == COLLECTOR_PERF ? "asked for" : "");
	prov_set_cpus(p, cfg->topo, cfg->cpus, cfg->ncpus);
	p->scope = cfg->system_wide ? SCOPE_SYSTEM : cfg->scope;
	p->scope_pid = cfg->scope_pid;
	p->nadded = cfg->nadded;
	memcpy(p->added, cfg->added, sizeof(p->added));
	/* the CPUs the workload may use as it starts (the command held before exec: locus's
	 * own mask, as taskset gave it; -p: the process's) */
	if (!cfg->system_wide && (cfg->workload_pid || cfg->scope_pid) &&
	    proc_affinity_list(cfg->workload_pid ? cfg->workload_pid : cfg->scope_pid, p->affinity,
			       sizeof(p->affinity)) < 0)
		p->affinity[0] = '\0';
}

/* The source's own knowledge of how it measures joins what the session knows. */
static void prov_join(struct live_session *t)
{
	const struct provenance *s = &t->src->prov;

	t->prov.delay = s->delay;
	t->prov.delay_rate = s->delay_rate;
	t->prov.sample_every = s->sample_every;
	t->prov.affinity_known = s->affinity_known;
	t->prov.affinity_calls = s->affinity_calls;
	t->prov.ipis_not_asked = s->ipis_not_asked;
	t->prov.unmeasured |= s->unmeasured;
}

/* Aggregated in the kernel: the BPF programs fill the results in the sinks' stead (the
 * plan's, built for them). NULL with why. */
static struct source *open_bpf(struct live_session *t, const struct source_cfg *cfg, char *err,
			       size_t len)
{
	struct source *s;

	sink_plan_live(&t->plan, cfg, true);
	s = source_open_bpf(cfg, &t->plan.list, err, len);
	if (!s)
		sink_plan_release(&t->plan);
	return s;
}

/* The perf stream into the plan's sinks (recording: the writer first). NULL with why. */
static struct source *open_stream(struct live_session *t, const struct source_cfg *cfg, char *err,
				  size_t len)
{
	struct source *s;

	sink_plan_live(&t->plan, cfg, false);
	s = source_open_stream(cfg, &t->plan.list, err, len);
	if (!s)
		sink_plan_release(&t->plan);
	return s;
}

/* The BPF source where it loads (or is asked for); else the perf stream. */
static int open_source(struct live_session *t, const struct source_cfg *cfg, char *err, size_t len)
{
	char why[320];
	bool no_bpf = false;

	if (cfg->stream.tracefs && cfg->collector == COLLECTOR_BPF) { /* a setting it cannot honor */
		snprintf(err, len, "--tracefs is for the perf stream: the BPF collector attaches by "
			 "BTF and reads no tracefs (use --collector perf)");
		return -1;
	}
	if (cfg->mmap_pages && cfg->collector == COLLECTOR_BPF) {
		snprintf(err, len, "-m sizes the perf stream's ring buffers: the BPF collector "
			 "counts in kernel maps and has none (use --collector perf)");
		return -1;
	}
	if ((cfg->stream.tracefs || cfg->mmap_pages) && !cfg->stream.record_path &&
	    cfg->collector == COLLECTOR_AUTO) { /* asked for the stream's settings: the stream */
		snprintf(why, sizeof(why), "%s is for the perf stream",
			 cfg->stream.tracefs ? "--tracefs" : "-m");
		snprintf(t->prov.why, sizeof(t->prov.why), "BPF not used: %s", why);
		no_bpf = true;
	} else if (!cfg->stream.record_path && cfg->collector != COLLECTOR_PERF) {
		t->src = open_bpf(t, cfg, why, sizeof(why));
		if (t->src) {
			t->prov.source = PROV_BPF;
			snprintf(t->prov.why, sizeof(t->prov.why), "%s%s%s",
				 cfg->collector == COLLECTOR_BPF ? "asked for" : "the default, where it loads",
				 why[0] ? "; this kernel's programs leave out " : "", why);
			if (why[0] && !cfg->quiet)
				locus_err("the BPF collector leaves out %s", why);
			return 0;
		}
		if (cfg->collector == COLLECTOR_BPF) {
			snprintf(err, len, "the BPF collector cannot run: %s", why);
			return -1;
		}
		snprintf(t->prov.why, sizeof(t->prov.why), "BPF not used: %s", why);
		no_bpf = true;
	}
	t->src = open_stream(t, cfg, err, len);
	if (!t->src && no_bpf) { /* neither: one story, both reasons */
		char stream[320];

		snprintf(stream, sizeof(stream), "%s", err);
		snprintf(err, len, "the scheduler cannot be traced here: BPF: %s; perf ring buffers: "
			 "%s", why, stream);
		return -1;
	}
	if (t->src && no_bpf && !cfg->quiet)
		locus_err("BPF collector not used (%s): streaming through perf ring buffers", why);
	return t->src ? 0 : -1;
}

const struct blame_results *live_session_blame(const struct live_session *t)
{
	return t->src ? sink_plan_blame(&t->plan) : NULL;
}

const struct blame_live *live_session_blame_live(const struct live_session *t)
{
	return t->src ? sink_plan_blame_live(&t->plan) : NULL;
}

bool live_session_blame_asked(const struct live_session *t)
{
	return t->src && t->plan.blame;
}

void live_session_stamp(struct live_session *t, struct sched_results *r)
{
	r->prov = t->prov;
	r->prov.keep_pages = t->src ? t->src->keep_pages : 0;
	if (t->src && t->src->streams) { /* the stream's own counts */
		r->late = t->src->late;
		r->undecodable = t->src->undecodable;
	}
	if (t->src)
		r->prov.cost = t->src->prov.cost; /* the source's own, as of its last read */
	if (!t->mem_on)
		r->prov.unmeasured |= SM_BIT(mem_lost) | SM_BIT(mem_undecodable);
	if (t->mem_on) {
		r->mem_lost = t->mem.lost;
		r->mem_undecodable = t->mem.undecodable;
	}
}

/* Follow one more task from now on: the source where it chooses the tasks, else the sinks. */
static void live_session_track(struct live_session *t, pid_t tid)
{
	if (t->src->ops->track)
		t->src->ops->track(t->src, tid);
	else
		sink_plan_track(&t->plan, tid); /* before the reader runs: no lock needed */
}

int live_session_start(struct live_session *t, const struct source_cfg *cfg, char *err, size_t len)
{
	struct sigaction sa = { .sa_handler = wake_reader };

	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: poll returns EINTR */
	prov_init(t, cfg);
	t->topo = cfg->topo;
	if (open_source(t, cfg, err, len) < 0)
		return -1;
	prov_join(t);
	live_session_stamp(t, live_session_results(t));
	if (cfg->memory && !cfg->stream.record_path) /* a recording's source writes them to its file */
		start_memory(t, cfg);
	/* scheduler-domain counters: a snapshot now, the deltas at the stop. Read before they
	 * are switched on and after they are switched off again: where kernel.sched_schedstats
	 * was 0 the delta is all they counted, the same as a snapshot taken by anyone before
	 * and after the run (the lab's schedstat check) */
	if (schedstat_read(SCHEDSTAT_PATH, &t->ss_before, t->ss_why, sizeof(t->ss_why)) < 0 ||
	    schedstat_enable(&t->ss_restore, t->ss_why, sizeof(t->ss_why)) < 0) {
		schedstat_release(&t->ss_before);
	} else if (cfg->cpus) { /* -C: the counters of those CPUs only */
		t->ss_ncpus = cfg->ncpus;
		t->ss_cpus = xmalloc((size_t)cfg->ncpus * sizeof(int) + 1);
		memcpy(t->ss_cpus, cfg->cpus, (size_t)cfg->ncpus * sizeof(int));
		schedstat_keep_cpus(&t->ss_before, t->ss_cpus, t->ss_ncpus);
	}
	t->ss_store = cfg->stream.record_path != NULL;
	if (t->ss_before.version)
		store_schedstat(t, &t->ss_before); /* as perf sched stats record does */
	t->src->ops->enable(t->src);
	/* threads an added process started while the source opened: events flow now, so
	 * any later thread comes with a fork event */
	for (int i = 0; i < cfg->nadded; i++) {
		pid_t *tids = NULL;
		int n = proc_tids(cfg->added[i], &tids);

		for (int k = 0; k < n; k++)
			live_session_track(t, tids[k]);
		free(tids);
	}
	if ((t->src->streams || t->mem_on || t->src->housekeeping) &&
	    pthread_create(&t->thread, NULL, reader_main, t) != 0) {
		snprintf(err, len, "cannot start the reader thread");
		t->src->ops->stop(t->src);
		t->src->ops->close(t->src);
		t->src = NULL;
		sink_plan_release(&t->plan);
		if (t->mem_on) {
			mem_close(&t->mem);
			symbols_release(&t->syms);
			t->mem_on = false;
		}
		return -1;
	}
	t->reader = t->src->streams || t->mem_on || t->src->housekeeping;
	t->started = true;
	return 0;
}

void live_session_stop(struct live_session *t)
{
	struct rusage ru;

	if (!t->started)
		return;
	t->src->ops->stop(t->src);
	if (t->mem_on)
		mem_disable(&t->mem);
	atomic_store(&t->stop, 1);
	if (t->reader) {
		pthread_kill(t->thread, SIGUSR1); /* cut its poll short: answer now */
		pthread_join(t->thread, NULL);
		t->reader = false;
	}
	t->started = false;
	schedstat_restore(t->ss_restore); /* counters off, then the last snapshot */
	t->ss_restore = false;
	if (t->ss_before.version) {
		struct schedstat after;

		if (schedstat_read(SCHEDSTAT_PATH, &after, t->ss_why, sizeof(t->ss_why)) == 0) {
			if (t->ss_cpus)
				schedstat_keep_cpus(&after, t->ss_cpus, t->ss_ncpus);
			store_schedstat(t, &after); /* a recording: the end snapshot too */
			t->ss_ok = schedstat_delta(&t->ss_before, &after, &t->ss_delta, t->ss_why,
						   sizeof(t->ss_why)) == 0;
			schedstat_release(&after);
		}
		schedstat_release(&t->ss_before);
	}
	t->src->ops->finish(t->src);
	sinks_finish(&t->plan.list); /* those a source stood in for are its to complete */
	if (t->src->ops->annotate)
		t->src->ops->annotate(t->src, live_session_results(t));
	live_session_stamp(t, live_session_results(t));
	if (getrusage(RUSAGE_SELF, &ru) == 0) /* every thread of ours, not the workload's */
		t->process_cpu_ns = rusage_ns(&ru);
	locus_verbose("reader thread: %.1f ms of CPU for %llu events (%.0f ns each), %llu wakeups, "
		      "%llu page faults; it waited at most %.2f ms for the lock, a snapshot held it "
		      "at most %.2f ms; the process: %.1f ms of CPU",
		      (double)t->reader_cpu_ns / 1e6, (unsigned long long)t->src->events,
		      t->src->events ? (double)t->reader_cpu_ns / (double)t->src->events : 0.0,
		      (unsigned long long)t->reader_wakeups, (unsigned long long)t->reader_faults,
		      (double)t->reader_wait_max_ns / 1e6,
		      (double)t->snapshot_lock_max_ns / 1e6, (double)t->process_cpu_ns / 1e6);
}

void live_session_snapshot(struct live_session *t, struct sched_results *dst,
			   struct cl_summary *lines, int max, int *nlines)
{
	uint64_t held;

	*nlines = 0;
	if (!t->src)
		return; /* tracing did not start: dst stays as it was (empty) */
	pthread_mutex_lock(&t->lock);
	held = now_ns();
	t->src->ops->snapshot(t->src);
	sinks_snapshot(&t->plan.list);
	live_session_stamp(t, live_session_results(t));
	sched_results_copy_light(dst, live_session_results(t)); /* a live view: no per-CPU delays */
	if (t->mem_on && max > 0)
		*nlines = cacheline_top(sink_plan_cachelines(&t->plan), lines, max);
	held = now_ns() - held;
	if (held > t->snapshot_lock_max_ns)
		t->snapshot_lock_max_ns = held;
	pthread_mutex_unlock(&t->lock);
	sinks_snapshot_tables(&t->plan.list, dst); /* sorting, naming: the reader goes on */
	if (t->src->streams && t->src->ops->annotate)
		t->src->ops->annotate(t->src, dst);
}

struct sched_results *live_session_results(struct live_session *t)
{
	return t->src ? sink_plan_results(&t->plan, NULL) : NULL;
}

void live_session_outputs(struct live_session *t, struct live_outputs *o)
{
	*o = (struct live_outputs){
		.res = live_session_results(t),
		.events = t->src ? t->src->events : 0,
		.bytes = t->src ? t->src->bytes : 0,
		.ss = t->ss_ok ? &t->ss_delta : NULL,
		.ss_why = t->ss_why,
		.blame = live_session_blame(t),
		.cl = t->mem_on ? sink_plan_cachelines(&t->plan) : NULL,
		.mem_why = t->mem_why,
		.sz = symbols_symbolizer(&t->syms),
	};
	if (t->src)
		o->stacks = sink_plan_stacks(&t->plan, &o->stack_tab, &o->stack_nm);
}

void live_session_mem_why(const struct live_session *t, char *why, size_t len)
{
	if (t->mem_why[0])
		snprintf(why, len, "%s", t->mem_why);
	else if (probe_memory_sampling(why, len))
		snprintf(why, len, "memory sampling runs with the scheduler tracing, which could "
			 "not start");
}

int live_session_timeline(struct live_session *t, struct pass_timeline *h, char *err, size_t len)
{
	if (!t->src) {
		snprintf(err, len, "no sched events in the file: no timeline to write");
		return -1;
	}
	if (sink_plan_pass_timeline(&t->plan, NULL, h, err, len) < 0)
		return -1;
	h->topo = t->topo;
	h->events = t->src->events;
	h->bytes = t->src->bytes;
	return 0;
}

int live_session_record_summary(struct live_session *t, bool quiet)
{
	struct writer_sink *w = sink_plan_writer(&t->plan);

	return w ? writer_sink_summary(w, t->src, quiet) : 0;
}

void live_session_release(struct live_session *t)
{
	live_session_stop(t);
	if (t->mem_on) {
		mem_close(&t->mem);
		symbols_release(&t->syms);
		t->mem_on = false;
	}
	if (t->src)
		t->src->ops->close(t->src);
	t->src = NULL;
	sink_plan_release(&t->plan);
	schedstat_release(&t->ss_before);
	schedstat_release(&t->ss_delta);
	free(t->ss_cpus);
	schedstat_restore(t->ss_restore);
	pthread_mutex_destroy(&t->lock);
}
