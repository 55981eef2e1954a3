/* run.c - `locus run`: wrap a workload and report everything this machine can measure. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../model/topology.h"
#include "../common/exitcodes.h"
#include "../common/outfile.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "commands.h"
#include "counting.h"
#include "trace_export.h"
#include "../pipeline/bench_loop.h"
#include "../pipeline/bench_plan.h"
#include "../report/sweep_report.h"

enum { OPT_SECTIONS = OPT_COUNTING_END, OPT_SVG, OPT_SWEEP, OPT_METRIC,
       OPT_DIRECTION, OPT_SHOW_OUTPUT };

static const struct cli_opt run_opts[] = {
	{ "event", 'e', "LIST", "counters to use: libpfm4 or perf names, sys:tracepoint, hitm" },
	{ "all-cpus", 'a', NULL, "collect system-wide on every CPU (every task but locus)" },
	{ "cpu", 'C', "LIST", "collect system-wide on these CPUs only (0-3,8)" },
	{ "pid", 'p', "PID,...", "also trace these running processes and their new children with "
				 "the command (a benchmark's server: tbench_srv, postgres); "
				 "without one, attach to them until they exit or Ctrl-C" },
	{ "per-cpu", 'A', NULL, "also show each counter per CPU" },
	{ "repeat", 'r', "N", "run the command N times: a table of every run, mean, stddev" },
	{ "sweep", OPT_SWEEP, "NAME=V1,V2", "run once per value (times -r), {NAME} in the command "
					  "replaced by it" },
	{ "metric", OPT_METRIC, "PRESET|REGEX", "the benchmark's figure of merit from its output: "
						"tbench, hackbench, pgbench, sysbench, netperf, "
						"schbench, pingpong, or a regex with one group" },
	{ "direction", OPT_DIRECTION, "higher|lower", "which way the --metric regex is better" },
	{ "show-output", OPT_SHOW_OUTPUT, NULL, "with -r/--sweep/--metric, echo the workload's "
					       "output to stderr" },
	{ "sections", OPT_SECTIONS, "LIST", "report only these: counters, wakeups, latency, pairs, "
					      "migrations, switches, cpus, cachelines, comma-separated (default all); "
					      "blame adds why woken tasks waited (perf stream, irq "
					      "tracepoints too; --collector bpf: split in the kernel, "
					      "the timed wakeups)" },
	{ "call-graph", 'g', NULL, "kernel and user callchains on sched_waking and sched_switch "
				   "(perf stream; --collector bpf: sampled in the kernel, 1 in the "
				   "timing's period): the top waker, blocked and off-wake stacks in "
				   "the report and JSON" },
	{ "folded", OPT_ST_FOLDED, "KIND=FILE", "with -g: write every stack of KIND as folded "
						 "stacks (flamegraph.pl, speedscope): wakers, "
						 "blocked, offwake, blocked-time, offwake-time" },
	{ "json", OPT_JSON, "FILE", "also write the results as JSON (- for stdout)" },
	{ "svg", OPT_SVG, "FILE", "draw the wakeup heatmap (waker x target CPU) as SVG; with "
				  "-r/--sweep, the metric per value and class shares" },
	{ "output", 'o', "FILE", "write the text report to FILE instead of stdout" },
	COLLECTOR_OPT_ROWS,
	TRACE_OPT_ROWS,
	TAIL_OPT_ROWS,
	{ 0 },
};

static const struct cli_cmd run_cmd = {
	.name = "run",
	.usage = "[options] [-- COMMAND [ARGS...]]",
	.summary = "Run a workload and report its counters and its scheduling: where wakeups\n"
		   "landed relative to the waker and the previous CPU (same CPU, SMT, LLC, node,\n"
		   "remote), wake-to-run delay, migrations, context switches and CPU use.\n"
		   "Without a command, runs the built-in workload 'locus bench pingpong'.\n"
		   "With -r, --sweep or --metric it runs the benchmark loop instead: each sweep\n"
		   "value N times, the benchmark's metric next to switches/s, migrations/s, class\n"
		   "shares, p99 wake-to-run and HITM/s per run; --json keeps every run for 'locus\n"
		   "diff'.",
	.opts = run_opts,
};

/* What the command line asks for. */
struct run_plan {
	struct counting_opts o;
	struct bench_plan bp;	/* -r, --sweep, --metric, --direction: the benchmark loop */
	bool show_output;	/* echo the workload's output to stderr */
	struct trace_opts tr;	/* where the sessions trace, and the topology's root */
	struct collector_opts col;
	unsigned sections;
	const char *svg;
	bool callchain;		/* -g */
	struct stacks_plan stk;	/* --folded: folded text only (no --flame) */
	char **cmdv;		/* the workload: the command given, or the built-in one */
	char *builtin[4];	/* locus bench pingpong */
	bool loop;		/* -r, --sweep or --metric: the benchmark loop */
};

/* One option into the plan: 1 when taken, 0 when not one of run's, -1 after a usage error. */
static int run_take(void *ctx, int c, const char *arg)
{
	struct run_plan *pl = ctx;
	char bad[64];
	int took;

	switch (c) {
	case OPT_SECTIONS:
		if (report_sections_parse(arg, &pl->sections, bad, sizeof(bad)) < 0) {
			cli_usage_error(&run_cmd, "unknown section '%s' (counters, wakeups, latency, "
					"pairs, migrations, switches, cpus, cachelines, all, blame)",
					bad);
			return -1;
		}
		return 1;
	case OPT_SVG:
		pl->svg = arg;
		return 1;
	case OPT_SWEEP:
		pl->bp.sweep = arg;
		return 1;
	case OPT_METRIC:
		pl->bp.metric = arg;
		return 1;
	case OPT_DIRECTION:
		pl->bp.direction = arg;
		return 1;
	case OPT_SHOW_OUTPUT:
		pl->show_output = true;
		return 1;
	case 'g':
		pl->callchain = true;
		return 1;
	case OPT_ST_FOLDED:
		return stacks_take(&pl->stk, &run_cmd, c, arg);
	}
	took = trace_take(&pl->tr, &run_cmd, c, arg);
	if (!took)
		took = collector_take(&pl->col, &run_cmd, c, arg);
	return took ? took : counting_take(&pl->o, &run_cmd, c, arg);
}

/* -r, --sweep and --metric: a command, the values and the metric checked. 0, or -1 on usage. */
static int run_loop_check(const struct bench_plan *bp, char **cmdv)
{
	char why[320];

	if (!cmdv || !cmdv[0]) {
		cli_usage_error(&run_cmd, "-r, --sweep and --metric need a command after --");
		return -1;
	}
	if (bench_plan_check(bp, cmdv, why, sizeof(why)) < 0) {
		cli_usage_error(&run_cmd, "%s", why);
		return -1;
	}
	return 0;
}

/* After every option: the workload, then every setting checked. 0, or -1 after a usage error. */
static int run_validate(struct run_plan *pl)
{
	struct counting_opts *o = &pl->o;

	if (!pl->cmdv[0] && !o->all_cpus && !o->cpu_list && !o->pid) {
		pl->cmdv = pl->builtin;
		if (!o->quiet)
			fprintf(stderr, "locus: no command given: running the built-in workload "
					"'locus bench pingpong'\n");
	}
	if (counting_finish(o, &run_cmd, pl->cmdv) < 0 ||
	    collector_finish(&pl->col, &pl->tr, &run_cmd) < 0 ||
	    cli_check_output(&run_cmd, pl->svg) < 0)
		return -1;
	pl->loop = o->repeat > 1 || pl->bp.sweep || pl->bp.metric || pl->bp.direction;
	if (pl->loop && pl->callchain) {
		cli_usage_error(&run_cmd, "-g reports the stacks of one run: not with -r, --sweep "
				"or --metric (locus record -g, then locus report --folded)");
		return -1;
	}
	if (pl->stk.n && !pl->callchain) {
		cli_usage_error(&run_cmd, "--folded writes the stacks -g collects: add -g");
		return -1;
	}
	if (pl->loop && run_loop_check(&pl->bp, pl->cmdv) < 0)
		return -1;
	return 0;
}

/* --folded: every stack of each kind asked for. 0, or -1 after saying why. */
static int run_folded(const struct run_plan *pl, struct traced_report *rr)
{
	struct stacks_frames fr = rr->ls.stacks_fr;

	if (pl->stk.n && !rr->ls.stacks) {
		locus_err("no stacks to write to %s: the stacks were not collected (-g needs "
			  "--sections sched and a collector that traced)", pl->stk.out[0].path);
		return -1;
	}
	fr.addresses = pl->stk.addresses; /* as report's: by address, or named */
	fr.keep_unknown = pl->stk.keep_unknown;
	return stacks_out_write(pl->stk.out, pl->stk.n, rr->ls.stacks, &fr, NULL, NULL);
}

/* The counters, the traced sections and the heatmap of a session. The exit status. */
static int run_report(const struct run_plan *pl, struct live_session *live, bool traced,
		      const struct stat_result *res, const struct run_outcome *out)
{
	struct traced_report rr;
	struct report_extra extra;
	struct svg_caption cap;
	int rc = out->exit_code;

	if (traced && !out->traced && !out->failed && res->runs > 0 && !pl->o.quiet)
		locus_err("%s; reporting counters only", out->trace_reason);
	traced_report_init(&rr, live, out, pl->sections);
	extra = traced_report_extra(&rr);
	if (res->runs > 0 && counting_report(&pl->o, res, out, pl->cmdv, &extra) != 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (res->runs > 0 && pl->svg && rr.res) {
		counting_caption(&cap, pl->bp.argc, pl->bp.argv);
		if (out->interrupted) /* the picture says so, as the JSON does */
			snprintf(cap.ended, sizeof(cap.ended), "interrupted by %s: the counts stop "
				 "there", out->interrupt_signal == SIGINT ? "SIGINT (Ctrl-C)" :
				 out->interrupt_signal == SIGTERM ? "SIGTERM" :
				 out->interrupt_signal == SIGHUP ? "SIGHUP" : "a signal");
		if (write_heatmap_svg(pl->svg, rr.res, &cap) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	}
	if (res->runs > 0 && run_folded(pl, &rr) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	return rc;
}

/* One session of the workload, traced as the sections ask, and its report. The exit status. */
static int run_session(const struct run_plan *pl, const struct topology *topo)
{
	struct run_cfg cfg;
	struct run_outcome out;
	struct stat_result res;
	struct live_session live;
	struct source_cfg tc;
	int rc;

	counting_run_cfg(&pl->o, pl->cmdv, &cfg);
	if (!(pl->sections & SEC_COUNTERS))
		cfg.nevs = 0; /* counters cost every context switch something: open none */
	cfg.derive_software = !pl->o.events; /* the default set: cheap sources where they exist */
	run_source_cfg(&tc, &pl->o, &pl->tr, &pl->col, topo, (pl->sections & SEC_CACHELINES) != 0,
		       (pl->sections & SEC_BLAME) != 0, pl->callchain);
	memset(&live, 0, sizeof(live));
	if (pl->sections & (SEC_SCHED | SEC_CACHELINES | SEC_BLAME)) {
		cfg.trace = &tc;
		cfg.live = &live;
	}
	counting_run(&cfg, &res, &out);
	rc = run_report(pl, &live, cfg.trace != NULL, &res, &out);
	if (cfg.trace)
		live_session_release(&live);
	stat_release(&res);
	return rc;
}

/* The JSON file the loop's runs go to as they end. */
struct run_json {
	const char *path;	/* --json, or NULL; "-" waits for the end */
	bool failed;		/* it could not be written (said once) */
};

static void run_done(struct bench_loop *lp)
{
	struct run_json *sj = lp->ctx;

	/* every run goes to the file as soon as it is done: a later failure loses nothing */
	if (sj->path && strcmp(sj->path, "-") && !sj->failed &&
	    sweep_report_json_file(sj->path, lp->set) < 0)
		sj->failed = true;
}

/* The benchmark loop (-r, --sweep, --metric) and its report. The exit status. */
static int run_loop(struct run_plan *pl, const struct topology *topo)
{
	const struct counting_opts *o = &pl->o;
	struct sweep_set set = { 0 };
	struct run_json sj = { o->json_path, false };
	struct run_cfg cfg;
	struct source_cfg tc;
	struct bench_loop lp;
	int rc;

	pl->bp.repeat = (int)o->repeat;
	counting_run_cfg(o, pl->cmdv, &cfg);
	cfg.derive_software = !o->events;
	traced_source_cfg(&tc, o, &pl->tr, &pl->col, topo);
	lp = (struct bench_loop){ .set = &set, .run = &cfg, .trace = &tc, .quiet = o->quiet,
				  .show_output = pl->show_output, .run_done = run_done,
				  .ctx = &sj };
	bench_loop_prepare(&lp, &pl->bp, topo, pl->cmdv);
	bench_loop_run(&lp, pl->cmdv);
	rc = sweep_report_write(&set, o->out_path, o->json_path, pl->svg) < 0;
	rc = bench_loop_status(&lp, sj.path, sj.failed, rc ? EXIT_LOCUS_RUNTIME : EXIT_LOCUS_OK);
	bench_loop_release(&lp);
	sweep_set_release(&set);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_plan pl = {
		.sections = SEC_ALL,
		.col.delay_rate = LOCUS_DELAY_RATE,
		.builtin = { (char *)locus_self_path(), "bench", "pingpong", NULL },
	};
	struct topology topo;
	int rc;

	if (!cli_parse(&run_cmd, argc, argv, run_take, &pl, &rc))
		goto out;
	pl.cmdv = argv + optind;
	rc = EXIT_LOCUS_USAGE;
	if (run_validate(&pl) < 0)
		goto out;
	rc = cli_load_topology(&run_cmd, pl.tr.sysfs_root, &topo);
	if (rc)
		goto out;
	pl.bp.argc = argc;
	pl.bp.argv = argv;
	if (pl.loop)
		rc = run_loop(&pl, &topo);
	else
		rc = run_session(&pl, &topo);
	topology_release(&topo);
out:
	counting_release(&pl.o);
	return rc;
}
