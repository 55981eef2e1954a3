/* report.c - `locus report -i FILE`: the analysis of locus run, from a perf.data file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../pipeline/replay.h"
#include "../report/sched_report.h"
#include "commands.h"
#include "trace_export.h"
#include "counting.h"
#include "../report/report_doc.h"

enum { OPT_SECTIONS = OPT_SYSFS_ROOT + 1, OPT_SVG, OPT_LINE_SIZE };

static const struct cli_opt report_opts[] = {
	{ "input", 'i', "FILE", "perf.data file to read (- for a pipe; default perf.data)" },
	{ "pid", 'p', "PID,...", "follow these tasks and their children only (default: the "
				 "workload locus record ran with the processes its -p added, else "
				 "every task)" },
	{ "all", 'a', NULL, "every task in the file, not only the recorded workload's" },
	{ "sections", OPT_SECTIONS, "LIST", "report only these: wakeups, latency, pairs, "
					      "migrations, switches, cpus, cachelines, comma-separated (default all); "
					      "blame adds why woken tasks waited" },
	{ "line-size", OPT_LINE_SIZE, "N", "cacheline size for memory samples: 64 or 128" },
	{ "display", 'd', "WHAT", "rank cachelines by lcl, rmt or tot (default) HITM" },
	{ "json", OPT_JSON, "FILE", "also write the results as JSON (- for stdout)" },
	{ "svg", OPT_SVG, "FILE", "draw the wakeup heatmap (waker x target CPU) as SVG" },
	TIMELINE_OPT_ROWS,
	STACKS_OPT_ROWS,
	{ "output", 'o', "FILE", "write the text report to FILE instead of stdout" },
	{ "sysfs-root", OPT_SYSFS_ROOT, "DIR", "topology from DIR when the file carries none" },
	{ "quiet", 'q', NULL, "no notes or progress on stderr" },
	{ "verbose", 'v', NULL, "more detail on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd report_cmd = {
	.name = "report",
	.usage = "[options] [-i FILE]",
	.summary = "Analyze a perf.data file from locus record, perf record, perf sched record,\n"
		   "perf c2c record or perf mem record with the analyzers of locus run: wakeup\n"
		   "locality, wake-to-run delay, migrations, switches, and for memory samples the\n"
		   "hot cachelines with their HITM counts and a sharing verdict per line. The\n"
		   "topology comes from the file when it has one.",
	.opts = report_opts,
};

/* What the command line asks for. */
struct report_plan {
	struct replay_opts opts;	/* the replay's: the file, the tasks (-p), the window */
	struct trace_export tx;		/* --trace, --svg-timeline and the window */
	struct stacks_plan stk;		/* --folded, --flame, --stack-addresses */
	const char *json, *svg, *out;
	unsigned sections;		/* SEC_* */
	bool quiet, all;
};

/* --display's names, by enum cl_sort. */
static const char *const sort_names[] = { [CL_SORT_TOTAL] = "tot", [CL_SORT_LOCAL] = "lcl",
					  [CL_SORT_REMOTE] = "rmt" };

/* An option that takes a value to check into pl: 1 when taken, 0 when not one, -1 on usage. */
static int report_take_checked(struct report_plan *pl, int c, const char *arg)
{
	char bad[64] = ""; /* stays empty for a known section report cannot show */
	long line_size;
	int sort;

	switch (c) {
	case 'p':
		if (replay_opts_pids(&pl->opts, arg) < 0) {
			cli_usage_error(&report_cmd, "bad pid list '%s' (up to %d pids, comma "
					"separated)", arg, PD_ADDED_MAX + 1);
			return -1;
		}
		return 1;
	case OPT_SECTIONS:
		if (report_sections_parse(arg, &pl->sections, bad, sizeof(bad)) < 0) {
			cli_usage_error(&report_cmd, "unknown section '%s' (wakeups, latency, pairs, "
					"migrations, switches, cpus, cachelines, all, blame)", bad);
			return -1;
		}
		if (!(pl->sections & (SEC_SCHED | SEC_CACHELINES | SEC_BLAME))) {
			cli_usage_error(&report_cmd, "--sections '%s': no section a file's report has "
					"(counters are counted live: locus run; wakeups, latency, "
					"pairs, migrations, switches, cpus, cachelines, all)", arg);
			return -1;
		}
		return 1;
	case OPT_LINE_SIZE:
		if (parse_long(arg, 64, 128, &line_size) < 0 ||
		    (line_size != 64 && line_size != 128)) {
			cli_usage_error(&report_cmd, "bad --line-size '%s' (64 or 128)", arg);
			return -1;
		}
		pl->opts.line_size = (unsigned)line_size;
		return 1;
	case 'd':
		sort = parse_name(arg, sort_names, ARRAY_SIZE(sort_names));
		if (sort < 0) {
			cli_usage_error(&report_cmd, "bad --display '%s' (lcl, rmt or tot)", arg);
			return -1;
		}
		pl->opts.sort = (enum cl_sort)sort;
		return 1;
	}
	return 0;
}

/* One option into the plan: 1 when taken, -1 after a usage error. */
static int report_take(void *ctx, int c, const char *arg)
{
	struct report_plan *pl = ctx;
	int took = timeline_take(&pl->tx, &report_cmd, c, arg);

	if (!took)
		took = stacks_take(&pl->stk, &report_cmd, c, arg);
	if (!took)
		took = report_take_checked(pl, c, arg);
	if (took)
		return took;
	switch (c) {
	case 'i':
		pl->opts.path = arg;
		break;
	case 'a':
		pl->all = true;
		break;
	case OPT_JSON:
		pl->json = arg;
		break;
	case OPT_SVG:
		pl->svg = arg;
		break;
	case 'o':
		pl->out = arg;
		break;
	case OPT_SYSFS_ROOT:
		pl->opts.sysfs_root = arg;
		break;
	case 'q':
		pl->quiet = true;
		break;
	case 'v':
		locus_verbosity++;
		break;
	}
	return 1;
}

/* After every option: no operand, outputs writable, -a or -p. 0, or -1 after a usage error. */
static int report_validate(struct report_plan *pl, char **operands)
{
	if (operands[0]) {
		cli_usage_error(&report_cmd, "unexpected argument '%s' (the file goes after -i)",
				operands[0]);
		return -1;
	}
	if (cli_check_output(&report_cmd, pl->json) < 0 ||
	    cli_check_output(&report_cmd, pl->svg) < 0 ||
	    cli_check_output(&report_cmd, pl->out) < 0 ||
	    timeline_opts_finish(&pl->tx, &report_cmd) < 0)
		return -1;
	if (!pl->quiet && isatty(STDERR_FILENO))
		pl->opts.progress = file_session_progress;
	if (pl->all && pl->opts.pid) {
		cli_usage_error(&report_cmd, "-a and -p: every task, or one tree, not both");
		return -1;
	}
	return 0;
}

/* The command line into pl: true to go on, false when the command ends with *rc. */
static bool report_parse(int argc, char **argv, struct report_plan *pl, int *rc)
{
	*pl = (struct report_plan){
		.opts = { .path = "perf.data", .line_size = 64, .sort = CL_SORT_TOTAL },
		.tx = { .window_cuts_report = true },
		.sections = SEC_SCHED | SEC_CACHELINES,
	};
	return cli_parse(&report_cmd, argc, argv, report_take, pl, rc) &&
	       report_validate(pl, argv + optind) == 0;
}

/* Read the file into fp's sinks (and the timeline of tc, or NULL), following the tasks pl
 * asks for. The exit status. */
static int report_replay(struct file_session *fp, struct report_plan *pl,
			 const struct timeline_sink_cfg *tc)
{
	/* stacks where the file has callchains (its attributes say), or asked for */
	struct file_session_asks a = { .follow = !pl->opts.pid && !pl->all, .stacks = pl->stk.n > 0,
				    .stacks_if_recorded = true,
				    .blame = (pl->sections & SEC_BLAME) != 0 };
	char err[400];

	pl->opts.from_ns = pl->tx.from_ns; /* --from/--to cut the report as they cut timelines */
	pl->opts.to_ns = pl->tx.to_ns;
	if (file_session_read(fp, &pl->opts, &a, tc, err, sizeof(err)) < 0) {
		locus_err("%s: %s", pl->opts.path, err);
		return EXIT_LOCUS_RUNTIME;
	}
	return EXIT_LOCUS_OK;
}

/* The text report, the JSON, the stacks' files and the heatmap. The exit status. */
static int report_write(struct file_session *fp, const struct report_plan *pl)
{
	struct report_doc ro;
	struct file_input in;
	int rc;

	file_session_input(fp, &in);
	report_doc_init(&ro, &in, file_session_results(fp), file_session_blame(fp),
			file_session_cachelines(fp), file_session_stacks(fp), pl->sections,
			terminal_columns());
	ro.stacks_addresses = pl->stk.addresses;
	ro.stacks_keep_unknown = pl->stk.keep_unknown;
	ro.svg = pl->svg;
	ro.outs = pl->stk.out;
	ro.nouts = pl->stk.n;
	rc = report_doc_write(&ro, pl->out, pl->json) < 0 ? EXIT_LOCUS_RUNTIME : EXIT_LOCUS_OK;
	file_input_release(&in);
	return rc;
}

/* --trace and --svg-timeline (tp), their timeline fed in the same pass, after the report.
 * 0, or -1 after saying why. */
static int report_timelines(struct file_session *fp, struct report_plan *pl, struct trace_pass *tp)
{
	struct trace_export *tx = &pl->tx;

	if (!tp)
		return 0;
	tx->quiet = pl->quiet;
	return trace_pass_finish(tp, tx, fp, tx->trace ? tx->trace : tx->svg);
}

int cmd_report(int argc, char **argv)
{
	struct report_plan pl;
	struct file_session *fp;
	struct trace_pass *tp = NULL;
	struct timeline_sink_cfg tc;
	int rc;

	if (!report_parse(argc, argv, &pl, &rc))
		return rc;
	fp = xcalloc(1, sizeof(*fp));
	if (pl.tx.trace || pl.tx.svg) { /* one pass: the timeline beside the report's sinks */
		tp = trace_pass_new(&pl.tx, pl.opts.path, &tc);
		rc = EXIT_LOCUS_RUNTIME;
		if (!tp)
			goto out;
	}
	rc = report_replay(fp, &pl, tp ? &tc : NULL);
	if (rc != EXIT_LOCUS_OK)
		goto out;
	file_session_notes(fp, pl.opts.path, pl.quiet);
	rc = report_write(fp, &pl);
	if (report_timelines(fp, &pl, tp) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (!file_session_found(fp) && rc == EXIT_LOCUS_OK)
		rc = EXIT_LOCUS_RUNTIME;
out:
	trace_pass_free(tp);
	file_session_release(fp);
	free(fp);
	return rc;
}
