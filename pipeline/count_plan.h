/*
 * count_plan.h - what a counting or tracing command (stat, run, top, record) asks of a
 * counting run, as its options gave it: the scope, the events, the outputs, where it traces
 * and with which collector; checked here, then made a run's and a source's configuration.
 */
#ifndef LOCUS_COUNT_PLAN_H
#define LOCUS_COUNT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../collectors/events.h"
#include "../model/caption.h"
#include "../model/topology.h"
#include "counting_run.h"
#include "source.h"

/* The scheduler collector's settings: run, the benchmark loop and top. */
struct collector_opts {
	int collector;		/* enum collector_kind */
	const char *btf;
	long delay_rate;	/* BPF: wakeups timed per second per CPU (0: all) */
	long max_tasks;		/* rows of the task table (0: the collector's default) */
	long max_pairs;		/* waker->wakee pairs kept (0: the collector's default) */
	bool bpf_only_set;	/* --btf or --delay-rate given: settings only BPF honors */
	bool delay_rate_set;	/* --delay-rate given (else the default of what is asked) */
	bool ipis;		/* --ipis: BPF attributes wakeups to IPIs too (the perf stream
				 * always reads them) */
};

/*
 * The BPF collector times 1 wakeup in LB_PACE_PEAK / this (two clock reads each), a
 * random sample fixed for the session: at most this many a second on a CPU waking up to
 * LB_PACE_PEAK (100,000) tasks a second. --delay-rate 0 times all.
 */
#define LOCUS_DELAY_RATE 5000
/*
 * The same where the kernel splits each timed wakeup's wait by cause (run --collector bpf
 * --sections blame): 1 in 4, for intervals a user can act on where waits are heavy-tailed
 * (1 in 20 gave a few hundred waits a second and "ahead 36.88% [0, 100]" beside a hog).
 */
#define LOCUS_BLAME_DELAY_RATE 25000

/* Where a tracing command (run, top, record) looks and how much it buffers. */
struct trace_opts {
	const char *sysfs_root;	/* the topology from here, not /sys */
	const char *tracefs;	/* NULL: found, or mounted */
	long pages;		/* ring buffer pages per CPU (0: the default) */
};

struct counting_opts {
	char *events;		/* -e lists, comma-joined */
	long repeat;
	bool all_cpus;
	char *cpu_list;
	long pid;		/* -p alone: attach to this process */
	const char *pid_list;	/* -p as given: with a command, PIDs added to the workload */
	pid_t added[8];		/* the processes added to the workload (validated) */
	int nadded;
	bool per_cpu;
	const char *json_path;
	const char *out_path;
	bool quiet;
	/* validated */
	int *cpus;
	int ncpus;
	struct event_desc *evs;
	int nevs;
};

/*
 * After every option, the workload argv (NULL or empty: none): -r's default, -p against
 * -a and -C, -p's list (beside a command its processes join the workload; without one the
 * first is attached), the processes alive, -r with a command, -C's CPUs and the events
 * resolved. 0, or -1 with why in a usage error's words.
 */
int counting_check(struct counting_opts *o, char **argv, char *why, size_t len);
void counting_release(struct counting_opts *o);
/* The CPU topology from sysfs_root (NULL: this machine's /sys) into t. 0, or -1 with why. */
int counting_topology(struct topology *t, const char *sysfs_root, char *why, size_t len);
/* A picture's caption of this command (argc words of argv, the command's name first) on
 * this machine, now. */
void counting_caption(struct svg_caption *c, int argc, char **argv);
/* Fill a counting run's configuration from validated options. */
void counting_run_cfg(const struct counting_opts *o, char **argv, struct run_cfg *cfg);
/*
 * The scheduler source's settings from the options of run, top and the benchmark
 * loop: their scope, ring buffers and collector; quiet as -q, memory sampling off.
 */
void traced_source_cfg(struct source_cfg *tc, const struct counting_opts *o,
		       const struct trace_opts *tr, const struct collector_opts *col,
		       const struct topology *topo);
/*
 * locus run's source: traced_source_cfg, then memory samples, who delayed the wakee (blame:
 * the irq tracepoints too) and callchains as asked. Where the BPF collector is asked for
 * by name, blame and stacks are taken in the kernel (the timed wakeups, sampled); the
 * default (auto) keeps every wakeup and callchain through perf's stream.
 */
void run_source_cfg(struct source_cfg *tc, const struct counting_opts *o,
		    const struct trace_opts *tr, const struct collector_opts *col,
		    const struct topology *topo, bool memory, bool blame, bool callchain);

#endif
