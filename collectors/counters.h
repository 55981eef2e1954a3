/* counters.h - a set of counting events opened through libperf, per task or per CPU. */
#ifndef LOCUS_COUNTERS_H
#define LOCUS_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events.h"

struct perf_evsel;
struct perf_cpu_map;
struct perf_thread_map;

/* What to count: tasks (with their future children), or whole CPUs. */
struct count_target {
	const pid_t *tids;	/* tasks to follow (inherit to children); NULL: system-wide */
	int ntids;
	const int *cpus;	/* CPUs for system-wide or per-CPU counting; NULL: all online */
	int ncpus;
	bool per_cpu;		/* keep one value per CPU (task mode opens one fd per CPU) */
	bool enable_on_exec;	/* start counting when the (held) task execs */
};

struct counter {
	struct event_desc ev;
	struct perf_evsel *evsel;
	bool open;		/* opened; otherwise see reason */
	char reason[240];
	bool user_only;		/* fell back to user-space only (paranoid) */
	bool counted;		/* ran at least once (running time > 0) */
	double value;		/* summed over CPUs and tasks, scaled for multiplexing */
	uint64_t enabled_ns, running_ns;
	double *cpu_value;	/* per CPU index when per_cpu, else NULL */
	const char *source;	/* NULL: perf_event; else where the value came from */
};

struct counter_set {
	struct counter *c;
	int n;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	int ncpus;		/* entries in cpu_ids / cpu_value */
	int *cpu_ids;		/* CPU number of each index when per_cpu */
	bool per_cpu;
};

/* Initialise libperf once (it also learns the page size). */
void counters_lib_init(void);

/* A libperf CPU map of cpus (NULL: every online CPU). The caller puts it. */
struct perf_cpu_map *cpu_map_new(const int *cpus, int n);

/*
 * Open every event in evs (copied) on target. An event that fails to open is
 * kept with open false and a reason; only a failure that concerns them all
 * (no memory, bad target) returns -errno.
 */
int counters_open(struct counter_set *cs, const struct event_desc *evs, int n,
		  const struct count_target *t);
void counters_enable(struct counter_set *cs);
void counters_disable(struct counter_set *cs);
/* Read and scale every open counter into value/cpu_value. */
void counters_read(struct counter_set *cs);
/* Close and free everything; cs may be reused by counters_open. */
void counters_close(struct counter_set *cs);

/* Number of file descriptors counters_open will need for n events. */
long counters_fds_needed(int n, const struct count_target *t);

#endif
