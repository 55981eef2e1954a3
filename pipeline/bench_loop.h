/*
 * bench_loop.h - the benchmark loop: each sweep value N times, one counting run each, the
 * metric found in the workload's output and the scheduler measures of every run.
 */
#ifndef LOCUS_BENCH_LOOP_H
#define LOCUS_BENCH_LOOP_H

#include <stdbool.h>

#include "../analyzers/metric.h"
#include "../model/sweep.h"
#include "bench_plan.h"
#include "counting_run.h"
#include "source.h"

struct bench_loop {
	/* set by the caller */
	struct sweep_set *set;		/* values, repeat and the metric's names; runs go here */
	const struct run_cfg *run;	/* every run's: its argv, output and repeat (1)
					    * are set here, its trace and live session too */
	const struct source_cfg *trace;	/* the scheduler's source (quiet after the first run) */
	bool quiet;			/* no line per run on stderr */
	bool show_output;		/* echo the workload's output to stderr */
	void (*run_done)(struct bench_loop *lp); /* after every run (the JSON file), or NULL */
	void *ctx;			/* run_done's */
	/* the outcome */
	int failures;
	int first_failure;	/* exit status to return */
	bool interrupted;
	bool noexec;		/* the command could not run: no point in the next runs */
	int interrupt_code;	/* the interrupted run's status */
	/* the loop's own: the metric to find, with set->have_metric (bench_loop_prepare) */
	struct metric metric;
};

/*
 * Before the loop, lp->set set: its values, repeat, environment and metric from bp (the
 * metric made here, lp's until bench_loop_release), the command cmdv on topo.
 */
void bench_loop_prepare(struct bench_loop *lp, const struct bench_plan *bp,
			const struct topology *topo, char **cmdv);
/*
 * Run cmdv once per value of lp->set, its {NAME} replaced by the value, set->repeat times,
 * each run added to lp->set as it ends; a run's failure is said on stderr. Stops at an
 * interruption or a command that cannot run.
 */
void bench_loop_run(struct bench_loop *lp, char **cmdv);
/*
 * After the loop: what its end says on stderr (failed runs, an interruption, a JSON file
 * at json_path that could not be written: json_failed), and the exit status, rc (the
 * reports') unless one of those says more.
 */
int bench_loop_status(const struct bench_loop *lp, const char *json_path, bool json_failed,
		      int rc);
/* What the loop made (its metric); lp->set stays the caller's. */
void bench_loop_release(struct bench_loop *lp);

#endif
