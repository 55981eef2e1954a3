/*
 * provenance.h - how a result was measured: which source and why, the CPUs asked for
 * and honored, whose events, the resolution and sampling of delays. The drop counters
 * are MF_DROP measures of the results (sched_measures.def). Every report reads it
 * from here: text header, JSON, the loop's JSON, the dashboard header, locus diff.
 */
#ifndef LOCUS_PROVENANCE_H
#define LOCUS_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The BPF programs keep idle CPUs up to this many (beyond, not measured). */
#define PROV_BPF_IDLE_CPUS 1024

enum prov_source {
	PROV_NONE,	/* nothing collected */
	PROV_PERF,	/* perf ring buffers, streamed and analyzed in user space */
	PROV_BPF,	/* BPF programs aggregating in the kernel */
	PROV_REPLAY,	/* a perf.data file replayed */
	PROV_NR
};

#define PROV_ADDED_MAX 8
#define PROV_COST_PROGS 16	/* programs whose cost is counted, at most */

enum prov_scope {
	SCOPE_WORKLOAD,	/* the workload's task tree (and the processes -p added to it) */
	SCOPE_PID,	/* -p: an existing process and its future children */
	SCOPE_SYSTEM,	/* -a: every task but locus */
	SCOPE_ALL,	/* a file's every task */
	SCOPE_NR
};

/* Whether a replayed file is whole. */
enum prov_end {
	PROV_END_WHOLE,	/* read to its end */
	PROV_END_CUT,	/* the recording never finished (killed, a crash): read to its last
			 * whole record */
	PROV_END_WRITE,	/* a write failed while recording (a full disk): the file says so */
	PROV_END_COPY,	/* a finished file cut short since (a partial copy, a full disk
			 * while copying): its header's data runs past the file's end */
};

enum prov_delay {
	DELAY_NONE,	/* no delays measured */
	DELAY_LOGLIN,	/* exact ns, kept in log-linear buckets (hist.h: 16 a power of two) */
	DELAY_LOG2,	/* power-of-two buckets (the BPF collector): percentiles are midpoints */
	DELAY_NR
};

/*
 * The collector's own cost, measured while it ran: the BPF programs' runs and time in
 * them from the kernel's run-time statistics, kept in windows (a systematic sample of
 * the time the programs were attached).
 * Not measured (measured false): why says why, or nothing where it does not apply
 * (the perf stream's cost is the kernel's writing of records, not counted anywhere).
 */
struct prov_cost {
	bool measured;
	uint64_t runs;		/* program runs in the windows, every program of the collector */
	uint64_t run_ns;	/* ns spent in them */
	uint64_t window_ns;	/* wall time the statistics were kept: a uniform sample of span */
	uint64_t span_ns;	/* wall time the programs were attached */
	uint32_t prog_ids[PROV_COST_PROGS];	/* the kernel's ids of the programs counted */
	int nprogs;
	char why[240];
};

struct provenance {
	enum prov_source source;
	char why[320];		/* why this source ("asked for", "BPF did not load: ...") */
	char cpus_asked[256];	/* -C as given, or "all" */
	char cpus_honored[256];	/* CPUs whose events were read, as a list ("0-3,8") */
	int ncpus_honored;
	char affinity[256];	/* the CPUs the workload was allowed when it started (its
				 * launcher's mask, or -p's process's), "" where unknown or
				 * not one workload (-a, a file) */
	enum prov_scope scope;
	int32_t scope_pid;	/* SCOPE_PID, or a file's --pid */
	int32_t added[PROV_ADDED_MAX];	/* SCOPE_WORKLOAD: running processes added (-p beside a command) */
	int nadded;
	enum prov_delay delay;
	long delay_rate;	/* the BPF collector's timing limit per CPU per s; 0: every wakeup */
	unsigned sample_every;	/* wakeups timed: 1 in this many on average, every wakeup the
				 * same chance (timed figures are a sample); 0: every one */
	bool affinity_known;	/* each task's affinity mask is known (else idle CPUs passed
				 * over are not judged) */
	bool affinity_calls;	/* and its changes through sched_setaffinity (the perf
				 * stream, a locus recording: traced syscalls) */
	bool ipis_not_asked;	/* a live collector without --ipis: no IPI tracepoint read
				 * (else a source that measured none had none to read) */
	uint64_t unmeasured;	/* bit 1 << SM_<field>: a measure this source does not count
				 * (JSON null, left out of text: never a made-up 0) */
	int keep_pages;		/* the perf stream lost records: the -m that would have kept
				 * them (0: none lost, or not the perf stream) */
	struct prov_cost cost;	/* the collector's own cost (BPF) */
	enum prov_end end;	/* a replayed file whose end is missing: */
	double end_at_s;	/* its last sample, seconds after its first */
	uint64_t end_records;	/* whole records read */
	int end_errno;		/* PROV_END_WRITE: the error (ENOSPC: disk full) */
	uint64_t end_unwritten;	/* PROV_END_WRITE: records the recorder could not write */
	uint64_t end_data_bytes, end_data_want;	/* PROV_END_COPY: data bytes read, and
					 * the size its header says */
	uint32_t not_recorded;	/* bit 1 << EV_<type>: a sched tracepoint a file lacks (a
				 * replay): the sections it feeds say "not in this file" */
};

/* "perf ring buffers", "BPF in the kernel", "perf.data replay", "none" */
const char *prov_source_name(enum prov_source s);
/* The JSON words: "perf", "bpf", "replay", "none" (and back: -1 when unknown). */
const char *prov_source_key(enum prov_source s);
int prov_source_by_key(const char *key);
const char *prov_scope_key(enum prov_scope s);
int prov_scope_by_key(const char *key);
const char *prov_delay_key(enum prov_delay d);
int prov_delay_by_key(const char *key);
/* "the workload's tasks", "process 123 and its children", ... into buf. */
const char *prov_scope_text(const struct provenance *p, char *buf, size_t len);
/*
 * "cut short at 3.02 s: 123,456 records read (...)", "the end is missing: disk
 * full at 2.41 s (...)" or "the file is cut short at 0.27 s: ..." into buf; "" for a
 * whole file.
 */
const char *prov_end_text(const struct provenance *p, char *buf, size_t len);
/* "exact, in log-linear buckets of 6.25%", "power-of-two buckets (midpoints)", "none" */
const char *prov_delay_text(enum prov_delay d);

struct topology;
/* The CPUs asked for (cpus[0..n), or NULL: "all", every CPU online in topo) and honored. */
void prov_set_cpus(struct provenance *p, const struct topology *topo, const int *cpus, int n);

/* How two sides of a comparison were measured differently. */
enum prov_diff {
	PDIFF_DELAYS = 1 << 0,	/* delay resolution or sampling differ: delay measures differ in meaning */
	PDIFF_COUNTS = 1 << 1,	/* CPUs or scope differ: counts differ in meaning */
	PDIFF_SOURCE = 1 << 2,	/* another collector (informational unless the above) */
};
/*
 * Compare a and b; returns the enum prov_diff bits and, when any, one line saying
 * what differs in why ("base: BPF in the kernel, power-of-two delays; new: ...").
 */
unsigned prov_compare(const struct provenance *a, const struct provenance *b, char *why,
		      size_t len);

/*
 * Whether the two workloads were allowed other CPUs (a condition of the experiment: said
 * beside a comparison, never a reason to refuse one): "new: affinity 0 (base 0-1)" into
 * buf when they were, "" and false when not or when either is unknown.
 */
bool prov_affinity_differs(const struct provenance *base, const struct provenance *cur, char *buf,
			   size_t len);

#endif
