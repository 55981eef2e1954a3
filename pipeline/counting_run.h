/*
 * counting_run.h - the counting run of stat, run, top and record: launch the workload or
 * attach, count, repeat, collect the results; the scheduler traced beside it by a live
 * session (live_session.h: a source and its sinks) on the first run.
 */
#ifndef LOCUS_COUNTING_RUN_H
#define LOCUS_COUNTING_RUN_H

#include <stdbool.h>
#include <sys/types.h>

#include "../model/stat_result.h"
#include "../collectors/events.h"
#include "../collectors/proctree.h"
#include "live_session.h"

struct counter_set;

/* A watcher called while the workload runs (the dashboard). */
struct run_watch {
	int fd;			/* also call tick when this is readable (the terminal), or -1 */
	/*
	 * Returns the milliseconds until it wants to be called again, or -1 to
	 * end the run: the workload gets SIGTERM (SIGKILL 2 s later); an
	 * attached process or a system-wide run just stops.
	 */
	int (*tick)(void *ctx, struct counter_set *cs);
	void *ctx;
};

struct run_cfg {
	char **argv;		/* the workload, or NULL */
	pid_t pid;		/* -p: an existing process, or 0 */
	const pid_t *added;	/* -p beside a command: running processes traced with the workload */
	int nadded;
	bool system_wide;	/* -a */
	const int *cpus;	/* -C, or NULL */
	int ncpus;
	bool per_cpu;		/* -A */
	int repeat;		/* -r, at least 1 */
	const struct event_desc *evs;
	int nevs;
	const struct source_cfg *trace;	/* also trace the scheduler (first run), or NULL */
	bool derive_software;		/* when tracing a workload, take task-clock and
					 * page-faults from its rusage, context-switches
					 * and cpu-migrations from the trace: no counter
					 * then taxes every context switch */
	struct live_session *live;		/* where the tracing goes */
	const struct run_watch *watch;	/* or NULL */
	int output_fd;			/* the workload's stdout and stderr, or -1 (inherit) */
};

struct run_outcome {
	int exit_code;		/* the workload's status, 127 when it could not run */
	bool interrupted;	/* a signal cut the run short */
	int interrupt_signal;	/* which (SIGINT, SIGTERM, SIGHUP), when interrupted */
	bool stopped;		/* the watcher ended it (the user quit the dashboard) */
	bool failed;		/* locus failed (message printed); exit 1 */
	bool traced;		/* the scheduler was traced: results in cfg->live */
	pid_t pid;		/* the workload's (or the attached process's) pid, once known */
	char trace_reason[320];	/* why not, when tracing was asked for */
	struct proc_left left;	/* what the workload left running, ended (the last run's) */
	char left_line[400];	/* that in one line for the report, or "" */
};

/*
 * The counting run: every repeat launches (or attaches), counts and reaps.
 * res is initialised here and filled run by run; it is valid (possibly with
 * zero runs) whatever the outcome.
 */
void counting_run(const struct run_cfg *cfg, struct stat_result *res,
		  struct run_outcome *out);

/* "locus bench pingpong --loops 20000" style text of a command line. */
void run_command_text(char *const *argv, char *buf, size_t len);

#endif
