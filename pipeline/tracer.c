/*
 * tracer.c - a live session: opens the scheduler source (BPF where it loads,
 * else the perf stream; the stream when recording), samples memory where the
 * PMU can, drains both on a reader thread, and hands out snapshots.
 */
#define _GNU_SOURCE
#include "tracer.h"

#include "../analyzers/sched_delta.h"
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

static void mem_sink(void *ctx, const struct event *e)
{
	struct sink *k = &((struct tracer *)ctx)->cl.k;

	k->ops->consume(k, e);
}

static void add_map(void *ctx, uint64_t start, uint64_t end, uint64_t off, const char *path)
{
	struct tracer *t = ctx;

	for (int i = 0; i < t->syms.nreg; i++)
		if (t->syms.reg[i].start == start && !strcmp(t->syms.reg[i].path, path))
			return;
	symbols_add_map(&t->syms, (uint32_t)t->maps_pid, start, end - start, off, path);
}

static void drain(struct tracer *t)
{
	char err[320];
	uint64_t t0;

	if (t->mem_on) {
		pthread_mutex_lock(&t->lock);
		mem_read(&t->mem, mem_sink, t);
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
	struct tracer *t = arg;
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

static void start_memory(struct tracer *t, const struct source_cfg *cfg)
{
	struct cacheline_cfg cc = { cfg->topo, 64, CL_SORT_TOTAL, CL_MIN_SAMPLES };

	if (mem_open(&t->mem, cfg->cpus, cfg->ncpus, cfg->mmap_pages ? cfg->mmap_pages : 64, false,
		     t->mem_why, sizeof(t->mem_why)) < 0)
		return;
	t->mem_on = true;
	t->maps_pid = cfg->ntrack ? cfg->track[0] : 0;
	cacheline_sink_init(&t->cl, &cc);
	symbols_init(&t->syms);
	symbols_use_kallsyms(&t->syms, "/proc/kallsyms"); /* samples of this machine */
	mem_enable(&t->mem);
}

/* What is known of the measurement before it starts: the CPUs, the scope, the source. */
/* A recording: the snapshot into the file as perf's SCHEDSTAT records (else nothing). */
static void store_schedstat(struct tracer *t, const struct schedstat *ss)
{
	uint8_t *recs;
	size_t n;

	if (!t->ss_store || !t->writing)
		return;
	n = ss_records_encode(ss, &recs);
	if (writer_sink_add(&t->wr, recs, n) < 0)
		locus_err("the schedstat snapshot could not be written to the file");
	free(recs);
}

static void prov_init(struct tracer *t, const struct source_cfg *cfg)
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
static void prov_join(struct tracer *t)
{
	const struct provenance *s = &t->src->prov;

	t->prov.delay = s->delay;
	t->prov.delay_rate = s->delay_rate;
	t->prov.sample_every = s->sample_every;
	t->prov.affinity_known = s->affinity_known;
	t->prov.unmeasured |= s->unmeasured;
}

/* Aggregated in the kernel: the results stand in for the wakeup sink's. NULL with why. */
static struct source *open_bpf(struct tracer *t, const struct source_cfg *cfg, char *err,
			       size_t len)
{
	struct wakeup_cfg wc = { 0 };
	struct sink_begin b = { cfg->topo, true, false, NULL, 0, NULL, false };
	struct source *s;

	wc.system_wide = cfg->system_wide;
	wakeup_sink_init(&t->wk, &wc, false);
	sinks_add(&t->sinks, &t->wk.k);
	s = source_open_bpf(cfg, &t->sinks, wakeup_sink_results(&t->wk, &b), err, len);
	if (!s)
		sinks_release(&t->sinks);
	t->bpf_stacks = s && cfg->bpf.stacks;
	t->bpf_blame = s && cfg->bpf.blame;
	return s;
}

/* The perf stream into the wakeup sink (recording: the writer first). NULL with why. */
static struct source *open_stream(struct tracer *t, const struct source_cfg *cfg, char *err,
				  size_t len)
{
	struct wakeup_cfg wc = { 0 };
	struct source *s;

	if (cfg->stream.record_path) {
		struct sched_record_meta m = { .topo = cfg->topo, .cmdline = cfg->stream.cmdline,
					       .workload = cfg->workload_pid };

		for (int i = 0; i < cfg->nadded && i < PD_ADDED_MAX; i++)
			m.added[m.nadded++] = cfg->added[i];

		writer_sink_init(&t->wr, cfg->stream.record_path, &m);
		sinks_add(&t->sinks, &t->wr.k);
		t->writing = true;
	}
	wc.system_wide = cfg->system_wide;
	wc.max_tasks = cfg->max_tasks;
	wc.max_pairs = cfg->max_pairs;
	t->blame = (cfg->stream.blame || cfg->stream.blame_if_streamed) && !cfg->stream.record_path;
	if (t->blame) { /* before the analyzer, told its verdicts; it then takes one by one */
		blame_sink_init(&t->bl, &t->wk);
		t->bl.no_p99 = cfg->stream.blame_no_p99;
		sinks_add(&t->sinks, &t->bl.k);
		wc.verdict = blame_sink_verdict;
		wc.verdict_ctx = &t->bl;
	}
	t->stacks = cfg->stream.callchain && !cfg->stream.record_path;
	/* one by one where a sink beside it asks what it tracks */
	wakeup_sink_init(&t->wk, &wc, t->blame || t->stacks);
	sinks_add(&t->sinks, &t->wk.k);
	if (t->stacks) { /* after the analyzer: the tasks it tracks, forks seen */
		stacks_sink_init(&t->stk);
		stacks_sink_scope(&t->stk, &t->wk);
		sinks_add(&t->sinks, &t->stk.k);
	}
	s = source_open_stream(cfg, &t->sinks, err, len);
	if (!s) {
		sinks_release(&t->sinks);
		t->writing = false;
		t->blame = false;
		t->stacks = false;
		return NULL;
	}
	for (int i = 0; i < cfg->ntrack; i++)
		wakeup_sink_track(&t->wk, cfg->track[i]);
	return s;
}

/* The BPF source where it loads (or is asked for); else the perf stream. */
static int open_source(struct tracer *t, const struct source_cfg *cfg, char *err, size_t len)
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
			snprintf(t->prov.why, sizeof(t->prov.why), "%s",
				 cfg->collector == COLLECTOR_BPF ? "asked for" : "the default, where it loads");
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

const struct blame_results *tracer_blame(const struct tracer *t)
{
	if (t->bpf_blame_read)
		return &t->bpf_bl;
	return t->blame ? blame_sink_results(&t->bl) : NULL;
}

const struct blame_live *tracer_blame_live(const struct tracer *t)
{
	if (t->bpf_blame)
		return t->bpf_live_on ? &t->bpf_live : NULL;
	return t->blame ? blame_sink_live(&t->bl) : NULL;
}

/* The BPF source's sampled stacks, read once into the stacks sink's results. */
static const struct stacks *bpf_stacks(struct tracer *t, const struct stack_table **tab,
				       struct stack_namer *nm)
{
	if (!t->stack_syms_on) {
		symbols_init(&t->stack_syms);
		symbols_use_kallsyms(&t->stack_syms, "/proc/kallsyms"); /* this machine's */
		t->stack_syms_on = true;
		stack_table_init(&t->bpf_tab);
		stacks_init(&t->stk.st, NULL); /* counted in the kernel: no classing here */
		t->bpf_read = true;
		if (source_bpf_stacks(t->src, &t->stk.st, &t->bpf_tab, &t->stack_syms) < 0)
			t->bpf_stacks = false;
	}
	if (!t->bpf_stacks)
		return NULL;
	*tab = &t->bpf_tab;
	*nm = symbols_stack_namer(&t->stack_syms);
	return &t->stk.st;
}

const struct stacks *tracer_stacks(struct tracer *t, const struct stack_table **tab,
				   struct stack_namer *nm)
{
	const struct sched_collector *c = t->stacks ? source_stream_collector(t->src) : NULL;

	if (t->bpf_stacks)
		return bpf_stacks(t, tab, nm);

	if (!c)
		return NULL;
	if (!t->stack_syms_on) { /* the mappings and forks the stream saw, once */
		symbols_init(&t->stack_syms);
		symbols_use_kallsyms(&t->stack_syms, "/proc/kallsyms"); /* this machine's */
		for (int i = 0; i < c->nmaps; i++) {
			const struct sched_map *m = &c->maps[i];

			if (m->path)
				symbols_add_map(&t->stack_syms, m->pid, m->start, m->len, m->pgoff,
						m->path);
			else
				symbols_add_fork(&t->stack_syms, m->pid, m->ppid);
		}
		t->stack_syms_on = true;
	}
	*tab = &c->stacks;
	*nm = symbols_stack_namer(&t->stack_syms);
	return &t->stk.st;
}

void tracer_stamp(struct tracer *t, struct sched_results *r)
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
static void tracer_track(struct tracer *t, pid_t tid)
{
	if (t->src->ops->track)
		t->src->ops->track(t->src, tid);
	else
		wakeup_sink_track(&t->wk, tid); /* before the reader runs: no lock needed */
}

int tracer_start(struct tracer *t, const struct source_cfg *cfg, char *err, size_t len)
{
	struct sigaction sa = { .sa_handler = wake_reader };

	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: poll returns EINTR */
	prov_init(t, cfg);
	if (open_source(t, cfg, err, len) < 0)
		return -1;
	prov_join(t);
	tracer_stamp(t, tracer_results(t));
	if (cfg->memory && !cfg->stream.record_path) /* a recording's source writes them to its file */
		start_memory(t, cfg);
	/* scheduler-domain counters: a snapshot now, the deltas at the stop */
	if (schedstat_enable(&t->ss_restore, t->ss_why, sizeof(t->ss_why)) < 0 ||
		   schedstat_read(SCHEDSTAT_PATH, &t->ss_before, t->ss_why,
				  sizeof(t->ss_why)) < 0) {
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
			tracer_track(t, tids[k]);
		free(tids);
	}
	if ((t->src->streams || t->mem_on || t->src->housekeeping) &&
	    pthread_create(&t->thread, NULL, reader_main, t) != 0) {
		snprintf(err, len, "cannot start the reader thread");
		t->src->ops->stop(t->src);
		t->src->ops->close(t->src);
		t->src = NULL;
		sinks_release(&t->sinks);
		t->writing = false;
		if (t->mem_on) {
			mem_close(&t->mem);
			t->cl.k.ops->release(&t->cl.k);
			symbols_release(&t->syms);
			t->mem_on = false;
		}
		return -1;
	}
	t->reader = t->src->streams || t->mem_on || t->src->housekeeping;
	t->started = true;
	return 0;
}

void tracer_stop(struct tracer *t)
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
	schedstat_restore(t->ss_restore);
	t->ss_restore = false;
	if (t->mem_on)
		t->cl.k.ops->finish(&t->cl.k);
	t->src->ops->finish(t->src);
	if (t->src->streams) /* BPF filled the results in the sinks' stead: nothing to finish */
		sinks_finish(&t->sinks);
	if (t->src->ops->annotate)
		t->src->ops->annotate(t->src, tracer_results(t));
	tracer_stamp(t, tracer_results(t));
	if (t->bpf_blame && !t->bpf_blame_read) /* split in the kernel: read once, at the end */
		t->bpf_blame_read = source_bpf_blame(t->src, tracer_results(t), &t->bpf_bl) == 0;
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

void tracer_snapshot(struct tracer *t, struct sched_results *dst, struct cl_summary *lines, int max,
		     int *nlines)
{
	uint64_t held;

	*nlines = 0;
	if (!t->src)
		return; /* tracing did not start: dst stays as it was (empty) */
	pthread_mutex_lock(&t->lock);
	held = now_ns();
	t->src->ops->snapshot(t->src);
	if (t->src->streams)
		sinks_snapshot(&t->sinks);
	tracer_stamp(t, tracer_results(t));
	sched_results_copy_light(dst, tracer_results(t)); /* a live view: no per-CPU delays */
	if (t->bpf_blame) /* the kernel's split so far; after the stop, the one read then */
		t->bpf_live_on = source_bpf_blame_live(t->src, t->bpf_blame_read ? &t->bpf_bl : NULL,
						       tracer_results(t), &t->bpf_live) == 0;
	*nlines = 0;
	if (t->mem_on && max > 0)
		*nlines = cacheline_top(&t->cl.cl, lines, max);
	held = now_ns() - held;
	if (held > t->snapshot_lock_max_ns)
		t->snapshot_lock_max_ns = held;
	pthread_mutex_unlock(&t->lock);
	if (t->src->streams) /* sorting and naming: the reader goes on meanwhile */
		sinks_snapshot_tables(&t->sinks, dst);
	if (t->src->streams && t->src->ops->annotate)
		t->src->ops->annotate(t->src, dst);
}

struct sched_results *tracer_results(struct tracer *t)
{
	return t->src ? wakeup_sink_results(&t->wk, NULL) : NULL;
}

void tracer_release(struct tracer *t)
{
	tracer_stop(t);
	if (t->mem_on) {
		mem_close(&t->mem);
		t->cl.k.ops->release(&t->cl.k);
		symbols_release(&t->syms);
		t->mem_on = false;
	}
	if (t->src)
		t->src->ops->close(t->src);
	t->src = NULL;
	sinks_release(&t->sinks);
	t->writing = false;
	t->stacks = false;
	if (t->bpf_read) { /* not a sink: the BPF source's stacks, read at the end */
		stacks_release(&t->stk.st);
		stack_table_release(&t->bpf_tab);
	}
	t->bpf_read = t->bpf_stacks = false;
	if (t->bpf_blame_read)
		source_bpf_blame_release(&t->bpf_bl);
	t->bpf_blame_read = t->bpf_blame = false;
	blame_live_release(&t->bpf_live);
	t->bpf_live_on = false;
	if (t->stack_syms_on)
		symbols_release(&t->stack_syms);
	t->stack_syms_on = false;
	schedstat_release(&t->ss_before);
	schedstat_release(&t->ss_delta);
	free(t->ss_cpus);
	schedstat_restore(t->ss_restore);
	pthread_mutex_destroy(&t->lock);
}
