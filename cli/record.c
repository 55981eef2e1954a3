/* record.c - `locus record`: the sched tracepoints of a workload into a perf.data file. */
#include <stdio.h>
#include <string.h>

#include "../model/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "counting.h"
#include "trace_export.h"

enum { OPT_BLAME = OPT_COUNTING_END };

static const struct cli_opt record_opts[] = {
	{ "output", 'o', "FILE", "the perf.data file to write (default perf.data)" },
	{ "all-cpus", 'a', NULL, "record every task, not only the workload's" },
	{ "cpu", 'C', "LIST", "record these CPUs only" },
	{ "pid", 'p', "PID,...", "also record these running processes and their new children "
				 "with the command (a benchmark's server); locus report follows "
				 "them with the command's tree" },
	{ "call-graph", 'g', NULL, "also record kernel and user callchains on sched_waking and "
				   "sched_switch (as perf record -g): what code woke a task, and "
				   "why a task slept; locus report --folded reads them" },
	{ "blame", OPT_BLAME, NULL, "also record the irq tracepoints (irq_handler_entry/exit, "
				    "softirq_entry/exit): locus report --sections blame "
				    "then splits the waits by interrupt too" },
	TIMELINE_OPT_ROWS,
	TRACE_OPT_ROWS,
	TAIL_OPT_ROWS,
	{ 0 },
};

static const struct cli_cmd record_cmd = {
	.name = "record",
	.usage = "[options] -- COMMAND [ARGS...]",
	.summary = "Record the sched tracepoints while COMMAND runs into a perf.data file that\n"
		   "locus report, perf script and perf report read. The file carries the\n"
		   "tracepoint formats and the machine's topology. --trace and --svg-timeline\n"
		   "also write its timelines once the workload ends (as locus report does).",
	.opts = record_opts,
};

/* What the command line asks for. */
struct record_plan {
	struct counting_opts o;
	struct trace_opts tr;
	struct trace_export tx;	/* --trace and --svg-timeline of the file, once written */
	const char *path;	/* the file to write */
	bool callchain;		/* -g */
	char **cmdv;		/* the workload, or none with -a or -C */
	char cmdline[1024];	/* the locus command line, for the file's header */
	bool blame;		/* --blame: the irq tracepoints too */
	int argc;		/* the command line, for the timelines' caption */
	char **argv;
	struct trace_pass *tp;	/* --trace, --svg-timeline: fed as the file is written */
};

/* After every option: something to record, then every setting checked. 0, or -1 on usage. */
static int record_validate(struct record_plan *pl)
{
	struct counting_opts *o = &pl->o;

	if (o->pid_list && !pl->cmdv[0]) {
		cli_usage_error(&record_cmd, "-p adds running processes to a command's tree: give "
				"the command after -- (or -a for every task)");
		return -1;
	}
	if (!pl->cmdv[0] && !o->all_cpus && !o->cpu_list) {
		cli_usage_error(&record_cmd, "nothing to record: give a command after --, or -a");
		return -1;
	}
	if (!strcmp(pl->path, "-")) { /* elsewhere "-" is stdout: never a file named "-" */
		cli_usage_error(&record_cmd, "-o -: the recording is a file (its header is written "
				"last, in place), not a stream on stdout; name a file");
		return -1;
	}
	o->events = xstrdup("task-clock"); /* resolved, then not opened: record writes no counters */
	if (counting_finish(o, &record_cmd, pl->cmdv) < 0 ||
	    cli_check_output(&record_cmd, pl->path) < 0 ||
	    timeline_opts_finish(&pl->tx, &record_cmd) < 0)
		return -1;
	return 0;
}

/* One option into the plan: 1 when taken, 0 when not one of record's, -1 after a usage error. */
static int record_take(void *ctx, int c, const char *arg)
{
	struct record_plan *pl = ctx;
	int took;

	switch (c) {
	case 'o':
		pl->path = arg;
		return 1;
	case 'g':
		pl->callchain = true;
		return 1;
	case OPT_BLAME:
		pl->blame = true;
		return 1;
	}
	took = timeline_take(&pl->tx, &record_cmd, c, arg);
	if (!took)
		took = trace_take(&pl->tr, &record_cmd, c, arg);
	return took ? took : counting_take(&pl->o, &record_cmd, c, arg);
}

/* The file's header line: the command line as given (-a, -C and all). */
static void record_cmdline(struct record_plan *pl, char **argv)
{
	snprintf(pl->cmdline, sizeof(pl->cmdline), "locus ");
	run_command_text(argv, pl->cmdline + 6, sizeof(pl->cmdline) - 6);
}

/* The timelines of the recording's own pass (a recording has no report: --from and --to
 * cut them only). 0, or -1 after saying why. */
static int record_timelines(struct record_plan *pl, struct live_session *live)
{
	struct pass_timeline t;
	char err[400];

	if (!pl->tp) /* without its scratch file: said */
		return -1;
	if (live_session_timeline(live, &t, err, sizeof(err)) < 0) {
		locus_err("%s: %s", pl->path, err);
		return -1;
	}
	if (pl->tx.svg)
		counting_caption(&t.cap, pl->argc, pl->argv);
	return trace_pass_heads(pl->tp, &pl->tx, &t);
}

/* After the session: what was written or why not, then the timelines. The exit status. */
static int record_finish(struct record_plan *pl, struct live_session *live,
			 const struct stat_result *res, const struct run_outcome *out)
{
	int rc = out->exit_code;

	if (out->left.n && !pl->o.quiet)
		fprintf(stderr, "[ locus record: %s ]\n", out->left_line);
	if (!out->failed && !out->traced && res->runs > 0) {
		locus_err("%s", out->trace_reason);
		return rc == EXIT_LOCUS_OK ? EXIT_LOCUS_RUNTIME : rc;
	}
	if (!out->traced)
		return rc;
	if (live_session_record_summary(live, pl->o.quiet) < 0)
		return rc == EXIT_LOCUS_OK ? EXIT_LOCUS_RUNTIME : rc;
	if ((pl->tx.trace || pl->tx.svg) && record_timelines(pl, live) < 0 &&
	    rc == EXIT_LOCUS_OK)
		rc = EXIT_LOCUS_RUNTIME;
	return rc;
}

/* The workload's session with its sched events written to the file. The exit status. */
static int record_session(struct record_plan *pl, const struct topology *topo)
{
	struct run_cfg cfg;
	struct run_outcome out;
	struct stat_result res;
	struct live_session live;
	struct source_cfg tc;
	struct timeline_sink_cfg tl;
	int rc;

	counting_run_cfg(&pl->o, pl->cmdv, &cfg);
	cfg.nevs = 0;
	pl->tx.quiet = pl->o.quiet;
	tc = (struct source_cfg){ .topo = topo, .cpus = pl->o.cpus, .ncpus = pl->o.ncpus,
				  .mmap_pages = (int)pl->tr.pages,
				  .system_wide = pl->o.all_cpus || pl->o.cpu_list,
				  .collector = COLLECTOR_PERF, .memory = true,
				  .stream = { .tracefs = pl->tr.tracefs, .record_path = pl->path,
					      .cmdline = pl->cmdline, .callchain = pl->callchain,
					      .blame = pl->blame } };
	if (pl->tx.trace || pl->tx.svg) { /* the timelines fed as the file is written */
		pl->tp = trace_pass_new(&pl->tx, pl->path, &tl);
		tc.stream.timeline = pl->tp ? &tl : NULL;
	}
	memset(&live, 0, sizeof(live));
	cfg.trace = &tc;
	cfg.live = &live;
	counting_run(&cfg, &res, &out);
	rc = record_finish(pl, &live, &res, &out);
	live_session_release(&live);
	trace_pass_free(pl->tp);
	stat_release(&res);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	struct record_plan pl = { .path = "perf.data" };
	struct topology topo;
	int rc;

	if (!cli_parse(&record_cmd, argc, argv, record_take, &pl, &rc))
		goto out;
	pl.cmdv = argv + optind;
	rc = EXIT_LOCUS_USAGE;
	if (record_validate(&pl) < 0)
		goto out;
	rc = cli_load_topology(&record_cmd, pl.tr.sysfs_root, &topo);
	if (rc)
		goto out;
	record_cmdline(&pl, argv);
	pl.argc = argc;
	pl.argv = argv;
	rc = record_session(&pl, &topo);
	topology_release(&topo);
out:
	counting_release(&pl.o);
	return rc;
}
