/* sched.c - the sched tracepoint collector: per-CPU rings (rings.c) decoded by libtraceevent. */
#define _GNU_SOURCE
#include "sched.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <tracefs/tracefs.h>
#include <traceevent/event-parse.h>

#include "../common/bench_pause.h"
#include "../common/util.h"
#include "counters.h"
#include "probe.h"
#include "procfs.h"

/*
 * The default rings hold RING_HOLD_MS of a CPU at RING_RATE bytes/s: a CPU switching
 * and waking as fast as a pinned ping-pong drives it on this VM (~125k records/s of
 * ~100 bytes), for half a second of a reader starved by the workload (hackbench with
 * busy loops beside it lost a third of its records with 1 MiB rings, none with 8 MiB).
 */
#define RING_RATE (12500000L)
#define RING_HOLD_MS 500L
#define RING_TOTAL_MAX (256L << 20)	/* every CPU's rings together, at most */
#define RING_MIN_PAGES 16
#define RING_CALLCHAIN_SCALE 4L	/* -g: records about four times as large */

/* Whether this process has CAP_IPC_LOCK (locked memory beyond the limits). */
static bool cap_ipc_lock(void)
{
	char line[256];
	bool has = false;
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long caps;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			has = caps >> 14 & 1; /* CAP_IPC_LOCK */
	fclose(f);
	return has;
}

long sched_mlock_limit(int online)
{
	struct rlimit rl;
	char buf[32];
	long kb;

	if (probe_paranoid() < 0 || cap_ipc_lock())
		return -1; /* the kernel does not check: perf_event_paranoid -1 or CAP_IPC_LOCK */
	if (read_text_file("/proc/sys/kernel/perf_event_mlock_kb", buf, sizeof(buf)) < 0 ||
	    parse_long(buf, 0, 1L << 40, &kb) < 0)
		kb = 516; /* the kernel's default */
	/* perf_mmap: perf_event_mlock_kb per online CPU, then RLIMIT_MEMLOCK beyond it */
	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0)
		rl.rlim_cur = 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return -1;
	return kb * 1024 * (online > 0 ? online : 1) + (long)rl.rlim_cur;
}

static int default_pages(int ncpus, long scale)
{
	long want = RING_RATE * RING_HOLD_MS / 1000 * scale, total = RING_TOTAL_MAX, limit;
	long ram = sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
	int pages = RING_MIN_PAGES;

	if (ncpus < 1)
		ncpus = 1;
	if (ram > 0 && ram / 32 < total)
		total = ram / 32; /* locked memory: a small share of the machine's */
	limit = sched_mlock_limit((int)sysconf(_SC_NPROCESSORS_ONLN));
	if (limit >= 0 && limit < total)
		total = limit;
	while ((long)pages * 4096 < want) /* a power of two that holds it */
		pages *= 2;
	/* within the budget, with each ring's header page */
	while (pages > RING_MIN_PAGES && (long)(pages + 1) * 4096 * ncpus > total)
		pages /= 2;
	return pages;
}

int sched_default_pages(int ncpus)
{
	return default_pages(ncpus, 1);
}

int sched_default_pages_callchain(int ncpus)
{
	return default_pages(ncpus, RING_CALLCHAIN_SCALE);
}

static void explain_open(int err, char *buf, size_t len)
{
	if (err == EACCES || err == EPERM)
		snprintf(buf, len, "cannot open sched tracepoints: permission denied "
			 "(perf_event_paranoid is %d: run as root, grant CAP_PERFMON, or "
			 "sysctl kernel.perf_event_paranoid=-1)", probe_paranoid());
	else if (err == EMFILE || err == ENFILE)
		snprintf(buf, len, "cannot open sched tracepoints: out of file descriptors "
			 "(one per CPU and tracepoint; raise ulimit -n)");
	else
		snprintf(buf, len, "cannot open sched tracepoints: %s", strerror(err));
}

/*
 * The sched_setaffinity syscall's tracepoints into tep (where the kernel traces
 * syscalls): read alone, not the whole syscalls system (hundreds of formats).
 */
static void add_affinity_formats(struct tep_handle *tep, const char *dir)
{
	static const char *const names[] = { "sys_enter_sched_setaffinity",
					     "sys_exit_sched_setaffinity" };
	char path[512], buf[8192];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/events/syscalls/%s/format", dir, names[i]);
		if (read_text_file(path, buf, sizeof(buf)) == 0)
			tep_parse_event(tep, buf, strlen(buf), "syscalls");
	}
}

/* The rings of the tracepoints set up (s->attrs), one per CPU. 0, or -1 with why. */
static int open_rings(struct sched_collector *s, char *err, size_t len)
{
	int n = perf_cpu_map__nr(s->cpus), *cpus = xcalloc((size_t)n + 1, sizeof(int));
	const char *what;
	int r;

	for (int i = 0; i < n; i++)
		cpus[i] = perf_cpu_map__cpu(s->cpus, i).cpu;
	r = rings_open(&s->rings, cpus, n, s->attrs, s->nopened, s->pages, &what);
	free(cpus);
	if (r == 0) {
		s->open = true;
		return 0;
	}
	if (!strcmp(what, "open"))
		explain_open(errno, err, len);
	else if (errno == EPERM || errno == ENOMEM)
		snprintf(err, len, "cannot map %d KiB ring buffers per CPU: %s (lower -m, "
			 "or raise kernel.perf_event_mlock_kb)", s->pages * 4, strerror(errno));
	else
		snprintf(err, len, "cannot map the ring buffers: %s", strerror(errno));
	sched_close(s);
	return -1;
}

int sched_open(struct sched_collector *s, const struct sched_opts *o, char *err, size_t len)
{
	/* ipi: which wakeups sent one; irq: the handlers that delayed a wakee (o->irq) */
	const char *systems[] = { "sched", "ipi", "irq", NULL };
	char why[240];
	const char *dir = o->tracefs;

	memset(s, 0, sizeof(*s));
	counters_lib_init();
	if (!dir && !(dir = probe_tracefs(why, sizeof(why)))) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	snprintf(s->tracefs, sizeof(s->tracefs), "%s", dir);
	s->tep = tracefs_local_events_system(dir, systems);
	if (!s->tep) {
		snprintf(err, len, "cannot read the sched tracepoint formats under %s/events "
			 "(tracefs missing or not readable: run as root)", dir);
		return -1;
	}
	add_affinity_formats(s->tep, dir);
	aff_init(&s->aff);
	if (tp_decoder_init(&s->dec, s->tep, why, sizeof(why)) < 0 ||
	    tp_decoder_require(&s->dec, why, sizeof(why)) < 0) {
		snprintf(err, len, "%s", why);
		sched_close(s);
		return -1;
	}
	s->have_waking = s->dec.fmt[EV_WAKING].id >= 0;
	/* both halves of the call, or neither */
	s->affinity_calls = s->dec.fmt[EV_SETAFFINITY].id >= 0 &&
			    s->dec.fmt[EV_SETAFFINITY_RET].id >= 0;
	if (o->irq && tp_decoder_require_irq(&s->dec, why, sizeof(why)) < 0) {
		snprintf(err, len, "%s", why);
		sched_close(s);
		return -1;
	}
	s->irq = o->irq;
	s->cpus = cpu_map_new(o->cpus, o->ncpus);
	if (!s->cpus) {
		snprintf(err, len, "out of memory setting up sched tracepoints");
		sched_close(s);
		return -1;
	}
	s->callchain = o->callchain;
	s->record = o->record;
	s->pages = o->mmap_pages ? o->mmap_pages :
		   o->callchain ? sched_default_pages_callchain(perf_cpu_map__nr(s->cpus)) :
				  sched_default_pages(perf_cpu_map__nr(s->cpus));
	locus_verbose("ring buffers: %d pages (%d KiB) per CPU%s", s->pages, s->pages * 4,
		      o->mmap_pages ? " (-m)" : ", sized for this machine");
	for (int t = 0; t < EV_TYPE_NR; t++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_TRACEPOINT,
			.size = sizeof(attr),
			.sample_period = 1,
			/* live, a sample's CPU is its ring's (sched_read_raw): 8 bytes a
			 * record fewer to write and read; a file carries it for perf */
			.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW |
				       (o->record ? PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU : 0),
			.disabled = 1,
			.watermark = 1,
		};
		if (s->dec.fmt[t].id < 0 || (!o->irq && (EV_IRQ_TYPES >> t & 1)) ||
		    (!o->ipis && (EV_IPI_TYPES >> t & 1)) ||
		    (!s->affinity_calls && (EV_SYSCALL_TYPES >> t & 1)))
			continue;
		/* with sched_waking, the chosen CPU comes from sched_migrate_task or the
		 * switch-in; sched_wakeup would only add a third of the events (as perf
		 * sched record, which leaves it out too) */
		if (t == EV_WAKEUP && s->have_waking)
			continue;
		attr.config = (unsigned long long)s->dec.fmt[t].id;
		if (o->callchain) {
			/* as perf record -g: kernel and user stacks, but only where locus reads
			 * them, and in a file IP (the tracepoint's caller) as perf's samples have
			 * it: perf script -F prints no callchain without (live, nothing reads
			 * it); the others carry an empty chain (nr 0, no stack walked: the
			 * kernel's perf_callchain with both excluded) and keep one layout */
			attr.sample_type |= PERF_SAMPLE_CALLCHAIN | (o->record ? PERF_SAMPLE_IP : 0);
			attr.exclude_callchain_kernel = attr.exclude_callchain_user =
				t != EV_WAKING && t != EV_SWITCH;
		}
		if (o->record && t == EV_SWITCH) {
			/* task and comm records, so perf script can name the tasks */
			attr.comm = 1;
			attr.comm_exec = 1;
			attr.task = 1;
			/* with callchains, the executable mappings, so that user frames can be
			 * named (locus report, perf script) */
			attr.mmap = attr.mmap2 = o->callchain;
		} else if (o->callchain && t == EV_SWITCH) {
			/* live: the mappings and forks, to name user frames at the end */
			attr.mmap = attr.mmap2 = attr.task = 1;
		}
		/* recording: task records carry time (and id) too, so perf orders a fork
		 * before the child's first sample; every attr must agree on it */
		attr.sample_id_all = o->record;
		/* wake the reader when half the ring is full: few wakeups, room to spare */
		attr.wakeup_watermark = (unsigned int)(s->pages * 4096 / 2);
		s->opened[s->nopened] = t;
		s->attrs[s->nopened++] = attr;
		sample_layout_of(&s->layout, &attr);
	}
	return open_rings(s, err, len);
}

static void keep_start(void *ctx, const struct event *e)
{
	struct sched_collector *s = ctx;

	if (s->naff_start == s->cap_aff_start) {
		s->cap_aff_start = s->cap_aff_start ? 2 * s->cap_aff_start : 256;
		s->aff_start = xrealloc(s->aff_start, (size_t)s->cap_aff_start * sizeof(*e));
	}
	s->aff_start[s->naff_start++] = *e;
}

/* LOCUS_BENCH_PAUSE's command (common/bench_pause.h): the tracepoints off or on again. */
static int pause_set(void *ctx, bool on)
{
	struct sched_collector *s = ctx;

	if (on)
		rings_enable(&s->rings);
	else
		rings_disable(&s->rings);
	return 0;
}

void sched_enable(struct sched_collector *s)
{
	rings_enable(&s->rings);
	/* on now: a task started from here is a fork the rings hold (its parent's mask) */
	aff_scan(&s->aff, keep_start, s);
	s->pause = bench_pause_start(pause_set, s);
}

int sched_affinity_start(struct sched_collector *s, void (*fn)(void *ctx, const struct event *e),
			 void *ctx)
{
	int n = s->naff_start;

	for (int i = 0; i < n; i++)
		fn(ctx, &s->aff_start[i]);
	free(s->aff_start);
	s->aff_start = NULL;
	s->naff_start = s->cap_aff_start = 0;
	return n;
}

bool sched_is_affinity_call(const struct sched_collector *s, uint64_t tp)
{
	return s->affinity_calls && ((int64_t)tp == s->dec.fmt[EV_SETAFFINITY].id ||
				     (int64_t)tp == s->dec.fmt[EV_SETAFFINITY_RET].id);
}

void sched_visit_cpus(const struct sched_collector *s)
{
	int n = perf_cpu_map__nr(s->cpus), *cpus = xcalloc((size_t)n + 1, sizeof(int));

	for (int i = 0; i < n; i++)
		cpus[i] = perf_cpu_map__cpu(s->cpus, i).cpu;
	visit_cpus(cpus, n);
	free(cpus);
}

void sched_disable(struct sched_collector *s)
{
	bench_pause_stop(s->pause); /* before the rings: it may turn them on again */
	s->pause = NULL;
	rings_disable(&s->rings);
}

void sched_poll(struct sched_collector *s, int timeout_ms)
{
	rings_poll(&s->rings, timeout_ms);
}

/* A tracepoint sample (TID | TIME | RAW; IDENTIFIER and CPU when recording) into an event:
 * without CPU, the CPU of the ring it came from. */
static int parse_sample(struct sched_collector *s, const union perf_event *ev, struct event *e)
{
	struct pd_sample smp;

	if (sample_decode(&s->layout, (const uint8_t *)ev + sizeof(ev->header),
			  ev->header.size - sizeof(ev->header), &smp) < 0 ||
	    !(smp.present & PERF_SAMPLE_RAW))
		return -1;
	memset(e, 0, sizeof(*e));
	e->pid = (int32_t)smp.pid;
	e->tid = (int32_t)smp.tid;
	e->time_ns = smp.time;
	e->cpu = (smp.present & PERF_SAMPLE_CPU) ? (int32_t)smp.cpu : s->ring_cpu;
	if (tp_decode(&s->dec, smp.raw, smp.raw_size, e) != 0)
		return -1;
	if (smp.callchain_nr && (e->type == EV_WAKING || e->type == EV_SWITCH)) {
		uint32_t id = stack_intern(&s->stacks, e->pid, smp.callchain, smp.callchain_nr);

		if (e->type == EV_WAKING)
			e->wake.stack = id;
		else
			e->sw.stack = id;
	}
	return 0;
}

/* MMAP2: pid tid start len pgoff, 32 bytes, the path; FORK: pid ppid tid ptid. */
static void keep_map(struct sched_collector *s, const union perf_event *ev)
{
	struct sched_map m = { 0 };
	size_t n;

	if (ev->header.type == PERF_RECORD_FORK) {
		if (ev->fork.pid == ev->fork.ppid)
			return; /* a thread: its process's mappings */
		m.pid = ev->fork.pid;
		m.ppid = ev->fork.ppid;
	} else {
		if (ev->header.size <= 72 || ev->mmap2.filename[0] != '/')
			return;
		n = strnlen(ev->mmap2.filename, ev->header.size - 72);
		m.pid = ev->mmap2.pid;
		m.start = ev->mmap2.start;
		m.len = ev->mmap2.len;
		m.pgoff = ev->mmap2.pgoff;
		m.path = xmalloc(n + 1);
		memcpy(m.path, ev->mmap2.filename, n);
		m.path[n] = '\0';
	}
	if (s->nmaps == s->capmaps) {
		s->capmaps = s->capmaps ? 2 * s->capmaps : 64;
		s->maps = xrealloc(s->maps, (size_t)s->capmaps * sizeof(*s->maps));
	}
	s->maps[s->nmaps++] = m;
}

/* The trailer's bytes sample_id_all ends a recording's other records with: pid and tid,
 * time, cpu and res, IDENTIFIER (the samples' TID | TIME | CPU | IDENTIFIER). */
#define RECORD_TRAILER 32

/*
 * A recording's PERF_RECORD_COMM (a task named at exec, or renamed) as EV_COMM, its time
 * and CPU from the trailer: as the perf.data reader makes it of the same record. 0, or -1
 * when malformed.
 */
static int parse_comm(const union perf_event *ev, struct event *e)
{
	const uint8_t *p = (const uint8_t *)ev;
	size_t size = ev->header.size, n;
	uint32_t cpu;

	if (size < 16 + 8 + RECORD_TRAILER)
		return -1;
	memset(e, 0, sizeof(*e));
	e->type = EV_COMM;
	e->pid = (int32_t)ev->comm.pid;
	e->tid = (int32_t)ev->comm.tid;
	memcpy(&e->time_ns, p + size - 24, 8);
	memcpy(&cpu, p + size - 16, 4);
	e->cpu = cpu > INT32_MAX ? -1 : (int32_t)cpu;
	n = strnlen(ev->comm.comm, size - 16 - RECORD_TRAILER);
	memcpy(e->comm.comm, ev->comm.comm, n < TASK_COMM_LEN ? n : TASK_COMM_LEN - 1);
	e->comm.exec = !!(ev->header.misc & PERF_RECORD_MISC_COMM_EXEC);
	return 0;
}

void sched_decode(struct sched_collector *s, const void *rec, event_fn fn, void *ctx)
{
	const union perf_event *ev = rec;
	struct event e;

	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (parse_sample(s, ev, &e) < 0) {
			s->undecodable++;
		} else if (EV_SYSCALL_TYPES >> e.type & 1) {
			struct event a;

			if (aff_on_call(&s->aff, &e, &a))
				fn(ctx, &a);
		} else {
			fn(ctx, &e);
		}
	} else if (ev->header.type == PERF_RECORD_MMAP2 || ev->header.type == PERF_RECORD_FORK) {
		keep_map(s, ev);
	} else if (ev->header.type == PERF_RECORD_LOST) {
		memset(&e, 0, sizeof(e));
		e.type = EV_LOST;
		e.lost.lost = ev->lost.lost;
		fn(ctx, &e);
	} else if (ev->header.type == PERF_RECORD_COMM && s->record && parse_comm(ev, &e) == 0) {
		fn(ctx, &e);
	}
}

struct decode_ctx {
	struct sched_collector *s;
	event_fn fn;
	void *ctx;
};

static void decode_raw(void *arg, const void *rec)
{
	const struct decode_ctx *d = arg;

	sched_decode(d->s, rec, d->fn, d->ctx);
}

void sched_read(struct sched_collector *s, event_fn fn, void *ctx)
{
	struct decode_ctx d = { s, fn, ctx };

	sched_affinity_start(s, fn, ctx);
	sched_read_raw(s, decode_raw, &d);
}

bool sched_affinity_call(struct sched_collector *s, const void *rec, struct event *out)
{
	struct event e;

	return parse_sample(s, rec, &e) == 0 && aff_on_call(&s->aff, &e, out);
}

bool sched_affinity_of(struct sched_collector *s, const void *rec, struct event *out)
{
	const struct perf_event_header *h = rec;
	struct pd_sample smp;
	uint16_t tp;

	/* the recording's layout (IDENTIFIER, TID, TIME, CPU, RAW): common_type leads RAW */
	if (!s->affinity_calls || h->type != PERF_RECORD_SAMPLE ||
	    sample_decode(&s->layout, h + 1, h->size - sizeof(*h), &smp) < 0 || smp.raw_size < 2)
		return false;
	memcpy(&tp, smp.raw, 2);
	return sched_is_affinity_call(s, tp) && sched_affinity_call(s, rec, out);
}

struct raw_ctx {
	struct sched_collector *s;
	void (*fn)(void *ctx, const void *rec);
	void *ctx;
};

static void count_raw(void *arg, int cpu, const void *rec)
{
	struct raw_ctx *r = arg;
	struct sched_collector *s = r->s;
	const union perf_event *ev = rec;

	s->ring_cpu = cpu;
	s->bytes += ev->header.size;
	s->records++;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		s->samples++;
	} else if (ev->header.type == PERF_RECORD_LOST) {
		s->lost += ev->lost.lost;
		if (ev->lost.lost > s->lost_max)
			s->lost_max = ev->lost.lost;
	}
	r->fn(r->ctx, rec);
}

void sched_read_raw(struct sched_collector *s, void (*fn)(void *ctx, const void *rec), void *ctx)
{
	struct raw_ctx r = { s, fn, ctx };

	rings_read(&s->rings, count_raw, &r);
}

int sched_pages_to_keep(const struct sched_collector *s)
{
	double mean = s->records ? (double)s->bytes / (double)s->records : 128.0;
	double need = (double)s->pages * 4096 + 2.0 * (double)s->lost_max * mean;
	long pages = s->pages > 0 ? s->pages : 1;

	if (!s->lost)
		return 0;
	while ((double)pages * 4096 < need && pages < (1L << 24))
		pages *= 2;
	return (int)pages;
}

void sched_close(struct sched_collector *s)
{
	bench_pause_stop(s->pause);
	if (s->open)
		rings_close(&s->rings);
	if (s->cpus)
		perf_cpu_map__put(s->cpus);
	if (s->tep)
		tep_free(s->tep);
	stack_table_release(&s->stacks);
	aff_release(&s->aff);
	free(s->aff_start);
	for (int i = 0; i < s->nmaps; i++)
		free(s->maps[i].path);
	free(s->maps);
	memset(s, 0, sizeof(*s));
}
