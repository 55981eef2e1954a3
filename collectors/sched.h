/* sched.h - sched tracepoints sampled per CPU through perf ring buffers, decoded to events. */
#ifndef LOCUS_SCHED_H
#define LOCUS_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "../model/event.h"
#include "../model/stack.h"
#include "affinity.h"
#include "rings.h"
#include "sample.h"
#include "tp_decode.h"

struct perf_cpu_map;

struct sched_opts {
	const int *cpus;	/* CPUs to open on, NULL: all online */
	int ncpus;
	const char *tracefs;	/* tracefs mount point, NULL: find (or mount) it */
	int mmap_pages;		/* ring buffer pages per CPU (power of two), 0: default */
	bool record;		/* samples carry PERF_SAMPLE_IDENTIFIER and CPU (IP with
				 * callchains), and task and comm records are asked for:
				 * what a perf.data file needs */
	bool callchain;		/* -g: kernel and user callchains on sched_waking and
				 * sched_switch (every other tracepoint carries an empty one,
				 * so that all samples keep one layout) */
	bool irq;		/* the irq tracepoints too (who delayed the wakee) */
	bool ipis;		/* ipi_send_cpu and sched_wake_idle_without_ipi too (which
				 * remote wakeups sent an IPI): each a sample on the waker's
				 * path to its wakee, so not without asking */
};

/* A PERF_RECORD_MMAP2 (path set) or a FORK of a process (path NULL: pid from ppid). */
struct sched_map {
	uint32_t pid, ppid;
	uint64_t start, len, pgoff;
	char *path;
};

struct sched_collector {
	struct rings rings;	/* one ring per CPU of cpus, each tracepoint's events in it */
	bool open;		/* rings opened */
	struct perf_cpu_map *cpus;
	struct tep_handle *tep;
	struct tp_decoder dec;
	bool have_waking;	/* wakeups come from sched_waking */
	bool irq;		/* the irq tracepoints are opened */
	struct sample_layout layout; /* the samples' (every tracepoint's is the same) */
	int32_t ring_cpu;	/* the CPU of the ring being read (live samples carry none) */
	char tracefs[256];	/* where the formats were read */
	int nopened;		/* tracepoints opened */
	int opened[EV_TYPE_NR];	/* their event types */
	struct perf_event_attr attrs[EV_TYPE_NR]; /* and attributes */
	int pages;
	bool callchain;		/* samples carry PERF_SAMPLE_CALLCHAIN */
	bool record;		/* opened for a recording (sched_opts.record) */
	struct stack_table stacks; /* live: the callchains of the events decoded (their ids) */
	struct sched_map *maps;	/* live, with callchains: MMAP2 and FORK records seen (the
				 * tasks' executable mappings, for naming user frames) */
	int nmaps, capmaps;
	uint64_t samples;	/* samples decoded */
	uint64_t undecodable;	/* samples that were not ours or malformed */
	uint64_t lost;		/* records the kernel dropped */
	uint64_t lost_max;	/* the most one LOST record reported (one ring, one overflow) */
	uint64_t records;	/* records read from the ring buffers */
	uint64_t bytes;		/* bytes read from the ring buffers */
	bool affinity_calls;	/* sched_setaffinity is traced (syscall tracepoints) */
	struct aff_watch aff;	/* the tasks' affinity (EV_AFFINITY) */
	struct event *aff_start; /* every task's when tracing began, not yet handed on */
	int naff_start, cap_aff_start;
	struct bench_pause *pause; /* LOCUS_BENCH_PAUSE (make bench only), or NULL */
};

/*
 * Ring buffer pages per CPU when not chosen: half a second of a busy CPU's records
 * (8 MiB) on small machines, less where the total would pass 256 MiB or 1/32 of
 * memory, or the locked-memory limit of an unprivileged user (sched_mlock_limit).
 */
int sched_default_pages(int ncpus);
/*
 * The same with callchains (-g): records about four times as large (a waking or switch
 * of hackbench carries 20-40 kernel and user frames, 8 bytes each), so four times the
 * pages within the same budget.
 */
int sched_default_pages_callchain(int ncpus);
/*
 * Bytes of perf ring buffers this process may map (perf_event_mlock_kb per online
 * CPU plus RLIMIT_MEMLOCK), or -1 when the kernel does not check (root, CAP_IPC_LOCK,
 * perf_event_paranoid -1).
 */
long sched_mlock_limit(int online);

/*
 * Open sched_waking (or, without it, sched_wakeup), sched_wakeup_new,
 * sched_switch, sched_migrate_task, sched_process_fork and
 * sched_process_exit on every CPU, and the sched_setaffinity syscall's entry and
 * exit where the kernel traces syscalls, and map their ring buffers. Returns 0,
 * or -1 with a one-line reason (and how to fix it) in err.
 */
int sched_open(struct sched_collector *s, const struct sched_opts *o, char *err, size_t len);
/* Start, then read every task's affinity (handed on before the first record read). */
void sched_enable(struct sched_collector *s);
/*
 * The affinity of every task when tracing began (sched_enable), as EV_AFFINITY of time
 * 0, to fn, once: the first sched_read does it itself; a recording calls it before its
 * first sched_read_raw. Returns how many.
 */
int sched_affinity_start(struct sched_collector *s, void (*fn)(void *ctx, const struct event *e),
			 void *ctx);
/* Whether a sample of tracepoint id tp is a sched_setaffinity call's entry or exit. */
bool sched_is_affinity_call(const struct sched_collector *s, uint64_t tp);
/*
 * A raw sample of one (recording): true when it completes a call that changed a mask,
 * with the EV_AFFINITY in *out (aff_on_call).
 */
bool sched_affinity_call(struct sched_collector *s, const void *rec, struct event *out);
/* Any raw record of the rings (recording, nothing else decoded): the same for a call's
 * sample, false at once for any other (only its tracepoint read). */
bool sched_affinity_of(struct sched_collector *s, const void *rec, struct event *out);
/*
 * Run the calling thread once on each CPU the collector reads, then put its
 * affinity back: each CPU then records a switch, which shows whether it was
 * idle (a CPU idle throughout records none). Call after sched_enable.
 */
void sched_visit_cpus(const struct sched_collector *s);
void sched_disable(struct sched_collector *s);
/* Wait up to timeout_ms for a ring buffer to pass its watermark. */
void sched_poll(struct sched_collector *s, int timeout_ms);
/* Drain every ring once, handing decoded events (not yet in time order) to fn: the sched
 * and irq tracepoints', and EV_AFFINITY for each task's mask when tracing began (the first
 * time) and each change (never the syscall events themselves). */
void sched_read(struct sched_collector *s, event_fn fn, void *ctx);
/*
 * One raw record of its rings as sched_read decodes it: a sample or a lost count to fn as
 * an event, a mapping or fork kept (callchains); opened for a recording, a COMM record too
 * (EV_COMM, as the perf.data reader makes it of the same record).
 */
void sched_decode(struct sched_collector *s, const void *rec, event_fn fn, void *ctx);
/* Drain every ring once, handing each raw record to fn (for recording). */
void sched_read_raw(struct sched_collector *s, void (*fn)(void *ctx, const void *rec), void *ctx);
void sched_close(struct sched_collector *s);
/*
 * The -m (pages per CPU, a power of two) that would have kept the records lost so
 * far, had the reader been as late: the ring plus twice the largest overflow (the
 * reader is woken at half the ring) at the mean record size. 0 when none were lost.
 */
int sched_pages_to_keep(const struct sched_collector *s);

#endif
