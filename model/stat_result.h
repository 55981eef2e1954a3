/*
 * stat_result.h - counting results over one or more runs: the contract between the counting
 * collectors, which fill it run by run, and the reports, which render it
 * (analyzers/stat.h computes its means and derived figures).
 */
#ifndef LOCUS_STAT_RESULT_H
#define LOCUS_STAT_RESULT_H

#include <stdbool.h>
#include <stdint.h>

/* One counter's reading in one run, as a collector delivers it. */
struct stat_reading {
	bool supported;		/* the event opened */
	bool counted;		/* it ran (running time > 0) */
	double value;		/* scaled for multiplexing */
	uint64_t enabled_ns, running_ns;
	const double *cpu_value; /* per CPU index, or NULL */
	const char *source;	/* NULL: a perf_event counter; else "rusage", "sched trace" */
};

struct stat_counter {
	char name[96];
	char encoding[192];
	bool hardware;
	bool supported;		/* opened in every run */
	char reason[240];	/* why not, when !supported */
	bool user_only;
	const char *source;	/* NULL: perf_event; else where the value came from (static) */
	int counted_runs;	/* runs in which it ran */
	double *values;		/* per counted run */
	double mean, stddev;
	double running_fraction; /* mean running/enabled (1 = never multiplexed) */
	double *cpu_mean;	/* per CPU index when per-CPU, mean over runs */
};

/* How the voluntary/involuntary split was counted (its own method and scope). */
enum stat_split_source {
	SPLIT_RUSAGE,		/* wait4's rusage of the workload and the children it reaped */
	SPLIT_PROCFS,		/* /proc of an attached process's threads, before and after */
	SPLIT_TRACE,		/* sched_switch's prev_state, every traced task */
};

struct stat_result {
	int ncounters;
	struct stat_counter *c;
	int ncpus;		/* per-CPU entries, 0 when aggregated */
	int *cpu_ids;
	int runs;		/* completed runs */
	int runs_cap;
	double *elapsed_ns;	/* per run */
	double elapsed_mean, elapsed_stddev;
	/* context switches split voluntary/involuntary, counted as split_source says */
	bool split_supported;
	enum stat_split_source split_source;
	char split_reason[160];
	double *voluntary, *involuntary; /* per run */
	double voluntary_mean, involuntary_mean;
	/* the workload's own rusage split of the last run, kept when the split above is
	 * another count (the trace's): an oracle of the same run for scripts */
	bool rusage_kept;
	double rusage_voluntary, rusage_involuntary;
};

/* Prepare for counters named names[i] (encodings may be NULL). cpu_ids may be NULL. */
void stat_init(struct stat_result *r, int ncounters, const char *const *names,
	       const char *const *encodings, const bool *hardware, int ncpus, const int *cpu_ids);
/* Add one run: readings[i] for counter i, the run's elapsed time. */
void stat_add_run(struct stat_result *r, const struct stat_reading *readings, double elapsed_ns);
/* Record why counter i is not supported (first reason wins). */
void stat_set_unsupported(struct stat_result *r, int i, const char *reason);
void stat_set_user_only(struct stat_result *r, int i);
/* Add the run's voluntary/involuntary switch split (call after stat_add_run), counted by src. */
void stat_add_split(struct stat_result *r, double voluntary, double involuntary,
		    enum stat_split_source src);
/* Keep the workload's rusage split of this run beside a split counted otherwise. */
void stat_keep_rusage(struct stat_result *r, double voluntary, double involuntary);
/* Say why there is no split (system-wide counting, ...). */
void stat_no_split(struct stat_result *r, const char *reason);
void stat_release(struct stat_result *r);

/* Index of the counter called name, or -1. */
int stat_find(const struct stat_result *r, const char *name);

/* A derived figure printed beside a counter ("0.98 CPUs utilized"). */
struct stat_derived {
	bool valid;
	double value;
	const char *unit;	/* "CPUs utilized", "/sec", "insn per cycle", ... */
};

#endif
