/*
 * tracer.h - a live session: a scheduler source and the sinks it feeds (the wakeup
 * analyzer; recording, the perf.data writer), memory samples into the cacheline sink,
 * and a reader thread that drains them.
 */
#ifndef LOCUS_TRACER_H
#define LOCUS_TRACER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../analyzers/blame_live.h"
#include "../analyzers/cacheline.h"
#include "../collectors/memsample.h"
#include "../model/schedstat.h"
#include "../collectors/symbols.h"
#include "sink_blame.h"
#include "sink_cacheline.h"
#include "sink_stacks.h"
#include "sink_wakeup.h"
#include "sink_writer.h"
#include "source.h"

struct tracer {
	struct source *src;	/* the scheduler's events: perf stream or BPF */
	struct sinks sinks;	/* what the stream feeds */
	struct wakeup_sink wk;	/* the scheduler's results (BPF: filled in its stead) */
	struct writer_sink wr;	/* recording: the file */
	bool writing;		/* wr is one of the sinks */
	bool blame;		/* bl is one of the sinks (--sections blame, streamed) */
	struct blame_sink bl;	/* who delayed the wakee */
	bool bpf_blame;		/* --sections blame on the BPF source: split in the kernel */
	bool bpf_blame_read;	/* bpf_bl holds its split (after tracer_stop) */
	struct blame_results bpf_bl;
	bool bpf_live_on;	/* bpf_live holds the kernel's split at the last snapshot */
	struct blame_live bpf_live;	/* (locus top's antagonists pane on the BPF source) */
	bool stacks;		/* stk is one of the sinks (-g, streamed) */
	struct stacks_sink stk;	/* waker, blocked and off-wake stacks of the tracked tasks */
	bool bpf_stacks;	/* -g on the BPF source: stk.st and bpf_tab filled at the end */
	struct stack_table bpf_tab;	/* their callchains */
	bool bpf_read;		/* stk.st and bpf_tab hold them (released here) */
	bool stack_syms_on;	/* stack_syms holds the stream's mappings */
	struct symbols stack_syms; /* for the stacks' frames: /proc/kallsyms, the MMAP2 seen */
	struct provenance prov;	/* how the results are measured: copied into them at each read */
	pthread_t thread;
	pthread_mutex_t lock;	/* the analyzers, between the reader and snapshots */
	atomic_int stop;
	bool started;
	bool reader;		/* the reader thread runs */
	uint64_t reader_cpu_ns;	/* CPU time the reader thread used */
	uint64_t reader_wakeups;	/* times the reader's wait returned (a ring past its
					 * watermark, the tick, or a snapshot's signal) */
	uint64_t reader_faults;	/* page faults the reader thread took (minor and major) */
	uint64_t process_cpu_ns;	/* CPU time of the whole process (every thread) at the stop */
	uint64_t reader_wait_max_ns;	/* the longest the reader waited for the lock (a snapshot
				 * holding it): events pile up in the ring buffers meanwhile */
	uint64_t snapshot_lock_max_ns;	/* the longest a snapshot held it */
	/* memory samples */
	bool mem_on;
	struct mem_collector mem;
	char mem_why[320];	/* why not, when asked for */
	struct cacheline_sink cl;	/* the memory samples' results (cl.cl) */
	struct symbols syms;	/* the workload's maps, read while it runs */
	pid_t maps_pid;
	/* /proc/schedstat: a snapshot at the start, the deltas at the stop */
	struct schedstat ss_before, ss_delta;
	bool ss_ok;		/* ss_delta holds the run's deltas */
	bool ss_store;		/* recording: the snapshots go into the file */
	bool ss_restore;	/* put kernel.sched_schedstats back to 0 */
	int *ss_cpus, ss_ncpus;	/* -C: the CPUs whose counters are reported (NULL: all) */
	char ss_why[320];	/* why there are none */
};

/*
 * Open the tracepoints on every CPU and start reading them on a thread of
 * their own. Call before the workload is released. Returns 0, or -1 with a
 * one-line reason in err (nothing is left running then).
 */
int tracer_start(struct tracer *t, const struct source_cfg *cfg, char *err, size_t len);
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
/* Who delayed the wakee (after tracer_stop), or NULL when not asked or not streamed. */
const struct blame_results *tracer_blame(const struct tracer *t);
/* Its totals at the last tracer_snapshot (valid until the next), or NULL when not asked,
 * not split (the stream without it, BPF without --sections blame), or no snapshot yet.
 * On the BPF source: the kernel's split of the timed wakeups (in_kernel, sampled). */
const struct blame_live *tracer_blame_live(const struct tracer *t);
/*
 * The stacks (after tracer_stop), their stack table in *tab and names for their frames
 * in *nm (this machine's kallsyms, the binaries the tasks mapped); NULL when not asked
 * for (-g) or not streamed.
 */
const struct stacks *tracer_stacks(struct tracer *t, const struct stack_table **tab,
				   struct stack_namer *nm);
/* The results (after tracer_stop), or NULL when tracing did not start. */
struct sched_results *tracer_results(struct tracer *t);
void tracer_release(struct tracer *t);

#endif
