/* tracer.c - wires sched collector -> reorder -> wakeup analyzer on one reader thread. */
#define _GNU_SOURCE
#include "tracer.h"

#include "../collectors/pd_writer.h"
#include "../collectors/perfdata.h"
#include "../collectors/procfs.h"
#include "../analyzers/sched_delta.h"
#include "../collectors/tracing_data.h"
#include "../common/util.h"

#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
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

/* Recording: samples get the file's id for their tracepoint; task records go as they are. */
static void write_raw(void *ctx, const void *rec)
{
	struct tracer *t = ctx;
	const struct perf_event_header *h = rec;
	int err = 0;

	if (h->type == PERF_RECORD_SAMPLE) {
		uint8_t buf[65536];
		uint16_t tp;
		uint64_t id = 0;

		/* IDENTIFIER, TID, TIME, CPU, RAW: common_type leads the raw payload */
		if (h->size < 46)
			return;
		memcpy(buf, rec, h->size);
		memcpy(&tp, buf + 44, 2);
		for (int i = 0; i < t->col.nopened; i++)
			if (t->col.attrs[i].config == tp)
				id = (uint64_t)i + 1;
		memcpy(buf + 8, &id, 8);
		err = pd_writer_add(t->record, buf, h->size);
	} else if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_COMM ||
		   h->type == PERF_RECORD_FORK || h->type == PERF_RECORD_EXIT) {
		err = pd_writer_add(t->record, rec, h->size);
	} else {
		return;
	}
	if (err && !t->write_err)
		t->write_err = err;
	t->pass_records++;
}

static void mem_sink(void *ctx, const struct event *e)
{
	cacheline_add(&((struct tracer *)ctx)->cl, e);
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
	if (t->mem_on) {
		pthread_mutex_lock(&t->lock);
		mem_read(&t->mem, mem_sink, t);
		pthread_mutex_unlock(&t->lock);
		if (t->maps_pid > 0) /* the maps go with the process: read them while it lives */
			proc_maps(t->maps_pid, add_map, t);
	}
	if (t->bs)
		return; /* the scheduler is aggregated in the kernel */
	if (t->record) {
		const struct perf_event_header round = { PD_REC_FINISHED_ROUND, 0, 8 };

		t->pass_records = 0;
		sched_read_raw(&t->col, write_raw, t);
		/* perf sorts each round's records; a round ends with every ring drained */
		if (t->pass_records && !t->write_err)
			pd_writer_add(t->record, &round, sizeof(round));
		return;
	}
	pthread_mutex_lock(&t->lock);
	sched_read(&t->col, enqueue, t);
	reorder_round(&t->ro, analyze, t);
	pthread_mutex_unlock(&t->lock);
}

static void *reader_main(void *arg)
{
	struct tracer *t = arg;
	struct rusage ru;

	t->exclude[1] = (int32_t)gettid();
	while (!atomic_load(&t->stop)) {
		if (t->bs)
			usleep(READER_TICK_MS * 1000); /* memory samples only; SIGUSR1 cuts it */
		else
			sched_poll(&t->col, READER_TICK_MS);
		drain(t);
	}
	drain(t);
	reorder_flush(&t->ro, analyze, t);
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		t->reader_cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
				   (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
	return NULL;
}

static void wake_reader(int sig)
{
	(void)sig; /* only interrupts the reader's poll */
}

static int open_record(struct tracer *t, const struct tracer_cfg *cfg, char *err, size_t len)
{
	int r;

	for (int i = 0; i < t->col.nopened; i++) {
		snprintf(t->wnames[i], sizeof(t->wnames[i]), "sched:%s", event_type_name(t->col.opened[i]));
		t->wev[i] = (struct pd_writer_event){ t->col.attrs[i], (uint64_t)i + 1, t->wnames[i] };
	}
	t->record = xcalloc(1, sizeof(*t->record));
	r = pd_writer_open(t->record, cfg->record_path, t->wev, t->col.nopened);
	if (r < 0) {
		snprintf(err, len, "cannot write %s: %s", cfg->record_path, strerror(-r));
		free(t->record);
		t->record = NULL;
		return -1;
	}
	t->topo = cfg->topo;
	t->cmdline = cfg->cmdline;
	return 0;
}

/* Close the recording: formats, topology and the final header. */
static void finish_record(struct tracer *t)
{
	const char *names[EV_TYPE_NR];
	struct pd_writer_meta meta = { NULL, 0, t->topo, t->cmdline };
	uint8_t *td;
	size_t tdlen = 0;
	char err[256];
	int r;

	for (int i = 0; i < t->col.nopened; i++)
		names[i] = event_type_name(t->col.opened[i]);
	td = tracing_data_build(t->col.tracefs, names, t->col.nopened, &tdlen, err, sizeof(err));
	if (!td)
		locus_err("%s: the file will lack tracepoint formats", err);
	meta.tracing_data = td;
	meta.tracing_len = tdlen;
	r = pd_writer_finish(t->record, &meta);
	if (r < 0 && !t->write_err)
		t->write_err = r;
	free(td);
}

static void start_memory(struct tracer *t, const struct tracer_cfg *cfg)
{
	struct cacheline_cfg cc = { cfg->topo, 64, CL_SORT_TOTAL };

	if (mem_open(&t->mem, cfg->cpus, cfg->ncpus, cfg->mmap_pages ? cfg->mmap_pages : 64,
		     t->mem_why, sizeof(t->mem_why)) < 0)
		return;
	t->mem_on = true;
	t->maps_pid = cfg->ntrack ? cfg->track[0] : 0;
	cacheline_init(&t->cl, &cc);
	symbols_init(&t->syms);
	symbols_use_kallsyms(&t->syms, "/proc/kallsyms"); /* samples of this machine */
	mem_enable(&t->mem);
}

static void start_memory(struct tracer *t, const struct tracer_cfg *cfg);
static void *reader_main(void *arg);

/* The BPF collector: 0 when it runs, else -1 with why. */
static int start_bpf(struct tracer *t, const struct tracer_cfg *cfg, char *why, size_t len)
{
	struct bpf_sched_cfg bc = { cfg->topo, cfg->system_wide, getpid(), cfg->btf,
				    cfg->delay_rate, cfg->cpus, cfg->ncpus, cfg->max_tasks,
				    cfg->max_pairs };

	t->bs = bpf_sched_open(&bc, why, len);
	if (!t->bs)
		return -1;
	for (int i = 0; i < cfg->ntrack; i++)
		if (bpf_sched_track(t->bs, cfg->track[i], why, len) < 0)
			goto fail;
	if (bpf_sched_attach(t->bs, why, len) < 0)
		goto fail;
	return 0;
fail:
	bpf_sched_close(t->bs);
	t->bs = NULL;
	return -1;
}

static int start_reader(struct tracer *t, char *err, size_t len)
{
	if (pthread_create(&t->thread, NULL, reader_main, t) != 0) {
		snprintf(err, len, "cannot start the reader thread");
		return -1;
	}
	t->reader = true;
	return 0;
}

/* The rest of a session whose scheduler part runs in the kernel. */
static int start_bpf_session(struct tracer *t, const struct tracer_cfg *cfg, char *err,
			     size_t len)
{
	struct wakeup_cfg wc = { 0 };

	wc.topo = cfg->topo;
	wc.system_wide = cfg->system_wide;
	wc.waking_source = true;
	wakeup_init(&t->an, &wc); /* holds the results the maps are read into */
	reorder_init(&t->ro);
	t->prov.delay = DELAY_LOG2;
	t->prov.delay_rate = cfg->delay_rate;
	/* no records to lose, reorder or decode, and every switch is seen */
	t->prov.unmeasured |= SM_BIT(lost) | SM_BIT(late) | SM_BIT(undecodable) |
			      SM_BIT(switch_in_missed);
	tracer_stamp(t, &t->an.r);
	if (cfg->memory)
		start_memory(t, cfg);
	if (t->mem_on && start_reader(t, err, len) < 0) {
		bpf_sched_close(t->bs);
		t->bs = NULL;
		wakeup_release(&t->an);
		reorder_release(&t->ro);
		return -1;
	}
	t->started = true;
	return 0;
}

/* What is known of the measurement before it starts: the CPUs, the scope, the source. */
static void prov_init(struct tracer *t, const struct tracer_cfg *cfg)
{
	struct provenance *p = &t->prov;

	p->source = PROV_PERF;
	snprintf(p->why, sizeof(p->why), "%s", cfg->record_path ? "recording streams every event"
		 : cfg->collector == COLLECTOR_PERF ? "asked for" : "");
	prov_set_cpus(p, cfg->topo, cfg->cpus, cfg->ncpus);
	p->scope = cfg->system_wide ? SCOPE_SYSTEM : cfg->scope;
	p->scope_pid = cfg->scope_pid;
}

void tracer_stamp(struct tracer *t, struct sched_results *r)
{
	r->prov = t->prov;
	if (!t->mem_on)
		r->prov.unmeasured |= SM_BIT(mem_lost) | SM_BIT(mem_undecodable);
	if (!t->bs) {
		r->late = t->ro.late;
		r->undecodable = t->col.undecodable;
	}
	if (t->mem_on) {
		r->mem_lost = t->mem.lost;
		r->mem_undecodable = t->mem.undecodable;
	}
}

int tracer_start(struct tracer *t, const struct tracer_cfg *cfg, char *err, size_t len)
{
	struct sigaction sa = { .sa_handler = wake_reader };

	struct sched_opts so = { cfg->cpus, cfg->ncpus, cfg->tracefs, cfg->mmap_pages,
				 cfg->record_path != NULL };
	struct wakeup_cfg wc = { 0 };

	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: poll returns EINTR */
	prov_init(t, cfg);
	if (!cfg->record_path && cfg->collector != COLLECTOR_PERF) {
		char why[320];

		if (start_bpf(t, cfg, why, sizeof(why)) == 0) {
			t->prov.source = PROV_BPF;
			snprintf(t->prov.why, sizeof(t->prov.why), "%s",
				 cfg->collector == COLLECTOR_BPF ? "asked for" : "the default, where it loads");
			return start_bpf_session(t, cfg, err, len);
		}
		if (cfg->collector == COLLECTOR_BPF) {
			snprintf(err, len, "the BPF collector cannot run: %s", why);
			return -1;
		}
		if (!cfg->quiet)
			locus_err("BPF collector not used (%s): streaming through perf ring buffers",
				  why);
		snprintf(t->prov.why, sizeof(t->prov.why), "BPF not used: %s", why);
	}
	if (sched_open(&t->col, &so, err, len) < 0)
		return -1;
	t->exclude[0] = (int32_t)getpid();
	t->exclude[1] = -1;
	wc.topo = cfg->topo;
	wc.system_wide = cfg->system_wide;
	wc.exclude = t->exclude;
	wc.nexclude = 2;
	wc.waking_source = t->col.have_waking;
	wc.max_tasks = cfg->max_tasks;
	wc.max_pairs = cfg->max_pairs;
	wakeup_init(&t->an, &wc);
	for (int i = 0; i < cfg->ntrack; i++)
		wakeup_track(&t->an, cfg->track[i]);
	reorder_init(&t->ro);
	if (cfg->record_path && open_record(t, cfg, err, len) < 0) {
		sched_close(&t->col);
		wakeup_release(&t->an);
		reorder_release(&t->ro);
		return -1;
	}
	t->prov.delay = DELAY_LOGLIN;
	tracer_stamp(t, &t->an.r);
	if (cfg->memory)
		start_memory(t, cfg);
	sched_enable(&t->col);
	if (start_reader(t, err, len) < 0) {
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
	if (t->bs)
		bpf_sched_detach(t->bs);
	else
		sched_disable(&t->col);
	if (t->mem_on)
		mem_disable(&t->mem);
	atomic_store(&t->stop, 1);
	if (t->reader) {
		pthread_kill(t->thread, SIGUSR1); /* cut its poll short: answer now */
		pthread_join(t->thread, NULL);
		t->reader = false;
	}
	t->started = false;
	if (t->bs) {
		if (t->mem_on)
			cacheline_finish(&t->cl);
		bpf_sched_read(t->bs, &t->an.r, true);
		tracer_stamp(t, &t->an.r);
		t->col.samples = bpf_sched_events(t->bs);
		return;
	}
	if (t->record)
		finish_record(t);
	if (t->mem_on)
		cacheline_finish(&t->cl);
	wakeup_finish(&t->an);
	tracer_stamp(t, &t->an.r);
	locus_verbose("reader thread: %.1f ms of CPU for %llu events (%.0f ns each), %zu held at "
		      "most, %llu re-sorted within a CPU, %llu late",
		      (double)t->reader_cpu_ns / 1e6, (unsigned long long)t->col.samples,
		      t->col.samples ? (double)t->reader_cpu_ns / (double)t->col.samples : 0.0,
		      t->ro.peak, (unsigned long long)t->ro.unordered,
		      (unsigned long long)t->ro.late);
}

void tracer_snapshot(struct tracer *t, struct sched_results *dst, struct cl_summary *lines, int max,
		     int *nlines)
{
	pthread_mutex_lock(&t->lock);
	if (t->bs)
		bpf_sched_read(t->bs, &t->an.r, false); /* the maps as they are now */
	else
		wakeup_finish(&t->an); /* closes intervals up to the last event: goes on */
	tracer_stamp(t, &t->an.r);
	sched_results_copy_light(dst, &t->an.r); /* a live view shows no per-CPU delays */
	*nlines = 0;
	if (t->mem_on && max > 0)
		*nlines = cacheline_top(&t->cl, lines, max);
	pthread_mutex_unlock(&t->lock);
}

struct sched_results *tracer_results(struct tracer *t)
{
	return wakeup_results(&t->an);
}

void tracer_release(struct tracer *t)
{
	tracer_stop(t);
	free(t->record);
	if (t->mem_on) {
		mem_close(&t->mem);
		cacheline_release(&t->cl);
		symbols_release(&t->syms);
	}
	sched_close(&t->col);
	bpf_sched_close(t->bs);
	t->bs = NULL;
	wakeup_release(&t->an);
	reorder_release(&t->ro);
	pthread_mutex_destroy(&t->lock);
}
