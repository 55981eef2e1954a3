/*
 * source.h - where scheduler events come from, behind one interface. Three
 * implementations: the perf ring-buffer stream, the BPF programs that aggregate
 * in the kernel, and a perf.data file (pipeline/replay.c). The live session and the
 * commands drive any of them alike: open (a constructor per kind, given the
 * configuration and CPU list), enable, wait and drain, snapshot, stop, close. A
 * source that cannot honor a setting refuses it at open with a reason.
 *
 * Sources produce, sinks consume (sink.h): a source owns no analyzer and no file.
 * The stream hands its events, in time order, to the session's sinks (or, recording,
 * its whole records to the writer sink), and at its end the callchains of their stacks
 * and what names them (sink_end); the BPF source fills the results of the sinks it
 * stands in for (stand_in.h: the wakeup analyzer's, who delayed the wakee, the stacks;
 * its provenance says they were counted in the kernel).
 */
#ifndef LOCUS_SOURCE_H
#define LOCUS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../model/provenance.h"
#include "sink.h"

struct topology;
struct sched_results;
struct timeline_sink_cfg;

enum collector_kind { COLLECTOR_AUTO, COLLECTOR_PERF, COLLECTOR_BPF };

/* What only the perf ring-buffer stream honors (the BPF source refuses them, with why). */
struct stream_cfg {
	const char *tracefs;	/* NULL: find or mount it */
	const char *record_path; /* write the raw records to this perf.data, not analyze */
	const char *cmdline;	/* the locus command line, for the file's header */
	bool callchain;		/* -g: callchains on sched_waking and sched_switch */
	bool blame;		/* the irq tracepoints too: who delayed the wakee */
	bool blame_if_streamed;	/* the same where the stream is the source, no reason to
				 * refuse BPF (locus top's antagonists pane) */
	bool blame_no_p99;	/* no record of each wakeup (p99 share): a live dashboard */
	/* recording: a timeline of the same pass (--trace, --svg-timeline of locus record),
	 * its window from_ns to to_ns; its heads carry the whole recording's results */
	const struct timeline_sink_cfg *timeline;
};

/* What only the BPF programs honor (the stream refuses a BTF file asked of it). */
struct bpf_src_cfg {
	const char *btf;	/* kernel BTF (NULL: the running kernel's) */
	long delay_rate;	/* wakeups timed per second per CPU at most (0: all) */
	bool stacks;		/* -g: stacks sampled in the kernel (the stream's callchain
				 * setting then honored, 1 in the timing's period) */
	bool blame;		/* --sections blame split in the kernel, the timed wakeups (the
				 * stream's blame setting then honored) */
};

/* What a live session collects and how: its configuration (live_session_start). */
struct source_cfg {
	/* every source's: whose events, on which CPUs, how much is kept */
	const struct topology *topo;
	const int *cpus;	/* NULL: every online CPU */
	int ncpus;
	int mmap_pages;		/* ring buffer pages per CPU, the stream's and the memory
				 * sampler's (0: default) */
	bool system_wide;	/* every task but locus's own */
	const pid_t *track;	/* tasks to follow with their future children */
	int ntrack;
	bool memory;		/* also sample memory accesses (cachelines), where the PMU can */
	enum collector_kind collector;	/* auto: BPF where it loads, else perf; record: perf */
	bool quiet;		/* no note when auto falls back to perf */
	int max_tasks;		/* rows of the task table (0: the source's default) */
	int max_pairs;		/* waker->wakee pairs kept (0: the source's default) */
	bool ipis;		/* --ipis: which remote wakeups sent an IPI (ipi_send_cpu and
				 * sched_wake_idle_without_ipi: their cost, docs/cost.md);
				 * a recording reads them always */
	enum prov_scope scope;	/* whose events (the session sets it) */
	pid_t workload_pid;	/* the command's pid (the session sets it), or 0 */
	int32_t added[PROV_ADDED_MAX];	/* processes traced with the workload (-p beside it) */
	int nadded;
	int32_t scope_pid;	/* -p */
	/* each source's own */
	struct stream_cfg stream;
	struct bpf_src_cfg bpf;
};

struct source;

struct source_ops {
	const char *name;
	/* Events flow from now on. */
	void (*enable)(struct source *s);
	/* Wait up to ms for events to drain; false when there is nothing to wait on. */
	bool (*wait)(struct source *s, int ms);
	/* Hand what arrived to the sinks. 0, or -1 with why when it cannot go on. */
	int (*drain)(struct source *s, char *err, size_t len);
	/* Its counts up to now while collection goes on; an aggregating source: the results
	 * too (no per-task table). */
	void (*snapshot)(struct source *s);
	/* What the source knows of the tasks in r (the stream: wakers' names from /proc);
	 * NULL: nothing. */
	void (*annotate)(struct source *s, struct sched_results *r);
	/* No more events. */
	void (*stop)(struct source *s);
	/* After the last drain: what it still holds to the sinks (or into the results). */
	void (*finish)(struct source *s);
	void (*close)(struct source *s);
	/* Follow one more task (and its children) from now on, where the source itself
	 * chooses the tasks (BPF); NULL: its sinks do. */
	void (*track)(struct source *s, pid_t tid);
};

struct source {
	const struct source_ops *ops;
	struct provenance prov;	/* what it measures and how; the results get a copy */
	struct sinks *sinks;	/* the session's: a streaming source's events go there, an
				 * aggregating one fills the results of those it stands in for */
	bool streams;		/* events reach user space: a reader must drain them */
	bool housekeeping;	/* no stream, but drain has work to do between reads */
	int32_t exclude[2];	/* locus's own threads: its main thread and the reader */
	uint64_t events;	/* events seen, every type */
	uint64_t bytes;		/* bytes read from ring buffers (0 when none are) */
	uint64_t lost;		/* records the kernel dropped */
	int keep_pages;		/* the -m that would have kept them (0: none lost, or unknown) */
	uint64_t late;		/* events behind the reorder window, left out */
	uint64_t undecodable;	/* samples it could not decode */
	char mem_why[256];	/* recording with memory asked for: why none are sampled */
};

/*
 * The perf ring-buffer stream into sinks, begun here (sink.h): a sink with raw records
 * (the writer, cfg->record_path) takes the rings' records whole; the others, events in
 * time order. NULL with why.
 */
struct source *source_open_stream(const struct source_cfg *cfg, struct sinks *sinks, char *err,
				  size_t len);
/*
 * The BPF programs, aggregating in the kernel into the results of the sinks they stand in
 * for (sinks_stand_in: the wakeup analyzer's, begun here; who delayed the wakee and the
 * stacks, as cfg->bpf asks). A sink that needs every event, and a setting of cfg->stream
 * (a recording, callchains, the irq tracepoints), are refused. NULL with why it cannot run;
 * else err holds what this kernel's programs leave out and why ("" when nothing).
 */
struct source *source_open_bpf(const struct source_cfg *cfg, struct sinks *sinks, char *err,
			       size_t len);

#endif
