/*
 * source.h - where scheduler events come from, behind one interface. Three
 * implementations: the perf ring-buffer stream (analyzed, or recorded to a
 * file), the BPF programs that aggregate in the kernel, and a perf.data file
 * (pipeline/replay.c). The tracer and the commands drive any of them alike:
 * open (a constructor per kind, given the configuration and CPU list), enable,
 * wait and drain, snapshot, stop, close. A source that cannot honor a setting
 * refuses it at open with a reason.
 */
#ifndef LOCUS_SOURCE_H
#define LOCUS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../analyzers/wakeup.h"
#include "../model/provenance.h"

struct topology;

enum collector_kind { COLLECTOR_AUTO, COLLECTOR_PERF, COLLECTOR_BPF };

/* What a live session collects and how: the tracer's configuration. */
struct source_cfg {
	const struct topology *topo;
	const int *cpus;	/* NULL: every online CPU */
	int ncpus;
	const char *tracefs;	/* NULL: find or mount it */
	int mmap_pages;		/* 0: default */
	bool system_wide;	/* every task but locus's own */
	const pid_t *track;	/* tasks to follow with their future children */
	int ntrack;
	const char *record_path; /* write the raw records to this perf.data, not analyze */
	const char *cmdline;	/* the locus command line, for the file's header */
	bool memory;		/* also sample memory accesses (cachelines), where the PMU can */
	enum collector_kind collector;	/* auto: BPF where it loads, else perf; record: perf */
	const char *btf;	/* kernel BTF for the BPF collector (NULL: the running kernel's) */
	long delay_rate;	/* BPF: wakeups timed per second per CPU at most (0: all) */
	bool quiet;		/* no note when auto falls back to perf */
	int max_tasks;		/* rows of the task table (0: the source's default) */
	int max_pairs;		/* waker->wakee pairs kept (0: the source's default) */
	enum prov_scope scope;	/* whose events (the session sets it) */
	pid_t workload_pid;	/* the command's pid (the session sets it), or 0 */
	int32_t added[PROV_ADDED_MAX];	/* processes traced with the workload (-p beside it) */
	int nadded;
	int32_t scope_pid;	/* -p */
};

struct source;

struct source_ops {
	const char *name;
	/* Events flow from now on. */
	void (*enable)(struct source *s);
	/* Wait up to ms for events to drain; false when there is nothing to wait on. */
	bool (*wait)(struct source *s, int ms);
	/* Hand what arrived to the analysis (or the file). 0, or -1 with why when it cannot go on. */
	int (*drain)(struct source *s, char *err, size_t len);
	/* Bring the results up to now while collection goes on (no per-task table). */
	void (*snapshot)(struct source *s);
	/* After snapshot, without the reader's lock: the task and pair tables into dst
	 * (NULL: snapshot left them in the results already). */
	void (*snapshot_tables)(struct source *s, struct sched_results *dst);
	/* No more events. */
	void (*stop)(struct source *s);
	/* After the last drain: complete the results. */
	void (*finish)(struct source *s);
	void (*close)(struct source *s);
	/* Follow one more task (and its children) from now on; NULL: a file, nothing to follow. */
	void (*track)(struct source *s, pid_t tid);
	/* Recording: whole perf.data records into the file (while no reader runs); NULL or
	 * -1 when the source writes no file. */
	int (*add_records)(struct source *s, const uint8_t *recs, size_t len);
};

struct source {
	const struct source_ops *ops;
	struct provenance prov;	/* what it measures and how; the results get a copy */
	struct wakeup an;	/* the results live in an.r (the BPF source only reads into it) */
	bool streams;		/* events reach user space: a reader must drain them */
	bool housekeeping;	/* no stream, but drain has work to do between reads */
	int32_t exclude[2];	/* locus's own threads: its main thread and the reader */
	uint64_t events;	/* events seen, every type */
	uint64_t bytes;		/* bytes read from ring buffers (0 when none are) */
	uint64_t lost;		/* records the kernel dropped */
	int keep_pages;		/* the -m that would have kept them (0: none lost, or unknown) */
	int write_err;		/* recording: the first write error (-errno) */
	uint64_t file_records;	/* recording: whole records in the file */
	uint64_t file_bytes;	/* recording: bytes of them */
	uint64_t file_mem_samples; /* recording: memory samples among them */
	char mem_why[256];	/* recording with memory asked for: why none are sampled */
};

/* The perf ring-buffer stream (or, with cfg->record_path, a recording). NULL with why. */
struct source *source_open_stream(const struct source_cfg *cfg, char *err, size_t len);
/* The BPF programs. NULL with why it cannot run here. */
struct source *source_open_bpf(const struct source_cfg *cfg, char *err, size_t len);

#endif
