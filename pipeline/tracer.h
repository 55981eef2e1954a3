/* tracer.h - the sched collector, the reorder window and the wakeup analyzer on a reader thread. */
#ifndef LOCUS_TRACER_H
#define LOCUS_TRACER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../analyzers/reorder.h"
#include "../analyzers/wakeup.h"
#include "../analyzers/cacheline.h"
#include "../collectors/memsample.h"
#include "../collectors/pd_writer.h"
#include "../collectors/symbols.h"
#include "../collectors/sched.h"
#include "../collectors/bpf_sched.h"

enum collector_kind { COLLECTOR_AUTO, COLLECTOR_PERF, COLLECTOR_BPF };

struct tracer_cfg {
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
	int32_t scope_pid;	/* -p */
};

struct tracer {
	struct sched_collector col;
	struct reorder ro;
	struct wakeup an;
	struct bpf_sched *bs;	/* the BPF collector, when it runs */
	struct provenance prov;	/* how the results are measured: copied into them at each read */
	pthread_t thread;
	pthread_mutex_t lock;	/* the analyzers, between the reader and snapshots */
	atomic_int stop;
	bool started;
	bool reader;		/* the reader thread runs */
	int32_t exclude[2];	/* locus's main thread and the reader */
	uint64_t reader_cpu_ns;	/* CPU time the reader thread used */
	struct pd_writer *record;
	struct pd_writer_event wev[EV_TYPE_NR];
	char wnames[EV_TYPE_NR][64];
	const struct topology *topo;
	const char *cmdline;
	uint64_t pass_records;	/* records written in the current pass */
	int write_err;		/* first write error (-errno) while recording */
	/* memory samples */
	bool mem_on;
	struct mem_collector mem;
	char mem_why[320];	/* why not, when asked for */
	struct cacheline cl;
	struct symbols syms;	/* the workload's maps, read while it runs */
	pid_t maps_pid;
};

/*
 * Open the tracepoints on every CPU and start reading them on a thread of
 * their own. Call before the workload is released. Returns 0, or -1 with a
 * one-line reason in err (nothing is left running then).
 */
int tracer_start(struct tracer *t, const struct tracer_cfg *cfg, char *err, size_t len);
/* Stop collecting, drain every buffer, and finish the analysis. */
void tracer_stop(struct tracer *t);
/*
 * A copy of the results so far, taken while collection goes on (dst as for
 * sched_results_copy_light: no per-CPU delay histograms). Also the top cachelines by HITM when memory is
 * sampled: up to max of them into lines, their count in *nlines.
 */
void tracer_snapshot(struct tracer *t, struct sched_results *dst, struct cl_summary *lines, int max,
		     int *nlines);
/* Where the provenance and the drop counters go into results (after each read). */
void tracer_stamp(struct tracer *t, struct sched_results *r);
/* The results (after tracer_stop). */
struct sched_results *tracer_results(struct tracer *t);
void tracer_release(struct tracer *t);

#endif
