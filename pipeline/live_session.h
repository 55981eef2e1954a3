/*
 * live_session.h - a live session (shared/DESIGN.md: a source and its sinks, fed in one
 * pass): a scheduler source and the sinks it feeds (sink_plan.h: the wakeup analyzer, who
 * delayed the wakee, the stacks; recording, the perf.data writer), memory samples into the
 * cacheline sink, and a reader thread that drains them.
 */
#ifndef LOCUS_LIVE_SESSION_H
#define LOCUS_LIVE_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../analyzers/blame_live.h"
#include "../analyzers/cacheline.h"
#include "../collectors/memsample.h"
#include "../collectors/symbols.h"
#include "../model/schedstat.h"
#include "sink_plan.h"
#include "source.h"

struct live_session {
	struct source *src;	/* the scheduler's events: perf stream or BPF */
	struct sink_plan plan;	/* what it feeds (BPF: fills in their stead), memory samples too */
	const struct topology *topo;	/* the configuration's */
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
	/* memory samples, into the plan's cacheline sink */
	bool mem_on;
	struct mem_collector mem;
	char mem_why[320];	/* why not, when asked for */
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
int live_session_start(struct live_session *t, const struct source_cfg *cfg, char *err, size_t len);
/* Stop collecting, drain every buffer, and finish the analysis. */
void live_session_stop(struct live_session *t);
/*
 * A copy of the results so far, taken while collection goes on (dst as for
 * sched_results_copy_light: no per-CPU delay histograms). Also the top cachelines by HITM when memory is
 * sampled: up to max of them into lines, their count in *nlines.
 */
void live_session_snapshot(struct live_session *t, struct sched_results *dst,
			   struct cl_summary *lines, int max, int *nlines);
/* Where the provenance and the drop counters go into results (after each read). */
void live_session_stamp(struct live_session *t, struct sched_results *r);
/* Who delayed the wakee (after live_session_stop), or NULL when not asked, or not read. */
const struct blame_results *live_session_blame(const struct live_session *t);
/* Its totals at the last live_session_snapshot (valid until the next), or NULL when not
 * asked, not split (the stream without it, BPF without --sections blame), or no snapshot yet.
 * On the BPF source: the kernel's split of the timed wakeups (in_kernel, sampled). */
const struct blame_live *live_session_blame_live(const struct live_session *t);
/* Whether the session splits the waits (who delayed the wakee), where its source does. */
bool live_session_blame_asked(const struct live_session *t);
/* The results (after live_session_stop), or NULL when tracing did not start. */
struct sched_results *live_session_results(struct live_session *t);

/* What a report shows of a live session (after live_session_stop), pointing into it. */
struct live_outputs {
	struct sched_results *res;	/* NULL when tracing did not start */
	uint64_t events, bytes;		/* what the source read (bytes: 0 when aggregated) */
	const struct schedstat *ss;	/* the run's /proc/schedstat deltas, or NULL */
	const char *ss_why;		/* why there are none */
	const struct blame_results *blame; /* who delayed the wakee, or NULL */
	const struct cacheline *cl;	/* the memory samples' cachelines, or NULL */
	const char *mem_why;		/* why there are none where asked ("": not known) */
	struct symbolizer sz;		/* their code and data named */
	const struct stacks *stacks;	/* -g: waker, blocked and off-wake stacks, or NULL */
	const struct stack_table *stack_tab; /* their callchains */
	struct stack_namer stack_nm;	/* their frames named: this machine's kallsyms, the
					 * binaries the tasks mapped */
};
void live_session_outputs(struct live_session *t, struct live_outputs *o);
/* Why there are no memory samples' cachelines (after live_session_stop): the sampler's reason,
 * else this machine's (no PMU that samples memory), else that the sampler runs with the
 * scheduler's tracing, which could not start. */
void live_session_mem_why(const struct live_session *t, char *why, size_t len);
/*
 * A recording's timeline of the same pass (source_cfg.stream.timeline), after live_session_stop:
 * its analyzer, the span of the events, the whole recording's results, the events and bytes
 * read, into t (its caption left empty). 0, or -1 with why in err (no sched event came; the
 * window begins past the last).
 */
int live_session_timeline(struct live_session *t, struct pass_timeline *h, char *err, size_t len);
/*
 * A recording's summary on stderr (writer_sink_summary): what was written, what the
 * kernel lost, the memory samples; a write error said even when quiet, and -1; else 0.
 */
int live_session_record_summary(struct live_session *t, bool quiet);
void live_session_release(struct live_session *t);

#endif
