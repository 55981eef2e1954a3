/* diff.c - `locus diff BASE NEW...`: compare benchmark loops (mmtests style) or two sets of stacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/exitcodes.h"
#include "../common/folded.h"
#include "../common/util.h"
#include "../pipeline/diff_inputs.h"
#include "../report/stack_diff_report.h"
#include "../report/sweep_report.h"
#include "commands.h"
#include "counting.h"
#include "trace_export.h"

enum { OPT_EXIT_CODE = OPT_SYSFS_ROOT + 1, OPT_FLAME, OPT_TOP, OPT_SVG, OPT_STACKS, OPT_UNKNOWN };

static const struct cli_opt diff_opts[] = {
	{ "json", OPT_JSON, "FILE", "also write the comparison as JSON (- for stdout)" },
	{ "exit-code", OPT_EXIT_CODE, NULL, "exit 1 when the metric is significantly worse, 0 when "
					    "not, 125 when a new batch has no measured metric or "
					    "measures something else than the base, "
					    "128 when the base cannot be read (for git bisect run)" },
	{ "svg", OPT_SVG, "FILE", "draw base and new overlaid per sweep value (each run, the means "
				  "and their 95% intervals, '*' where significant) as SVG; with "
				  "several new files, the first" },
	{ "flame", OPT_FLAME, "FILE", "two folded-stacks files: also draw the differential flame "
				      "graph (width by NEW, red/blue by the change of share) as SVG" },
	{ "stacks", OPT_STACKS, "VIEW", "recordings with callchains (record -g, perf record -g): "
					"compare this view: wakers (default), blocked, offwake, "
					"blocked-time, offwake-time" },
	{ "top", OPT_TOP, "N", "two folded-stacks files: the N stacks whose share moved most "
			      "(default 20)" },
	{ "keep-unknown-frames", OPT_UNKNOWN, NULL, "compare stacks with the unwinder's [unknown] "
						    "frames as recorded (default: those at a "
						    "stack's root dropped, a run of them one, so "
						    "two walks of one path are one stack)" },
	{ "output", 'o', "FILE", "write the text to FILE instead of stdout" },
	{ "quiet", 'q', NULL, "no notes on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd diff_cmd = {
	.name = "diff",
	.usage = "[options] BASE.json NEW.json [NEW2.json...]",
	.summary = "Compare benchmark loops written by 'locus run -r N [--sweep ...] --json FILE',\n"
		   "or counts written by 'locus stat [-r N] --json FILE' (the elapsed time as the\n"
		   "metric): for each sweep value and measure, the base and new means, their stddev\n"
		   "in %, the ratio new/base and the change. A '*' marks a difference larger than\n"
		   "the two 95% confidence intervals together and significant after Holm-Bonferroni\n"
		   "over the table's comparisons (Welch's t test, 5% family-wise), with 'better' or\n"
		   "'worse' where the measure has a direction (the metric's own; lower p99\n"
		   "wake-to-run and HITM/s). Files that measure different things (command, metric,\n"
		   "direction, unit, sweep) are shown but nothing is marked.\n"
		   "With --exit-code the exit status says whether the metric got worse, so\n"
		   "'git bisect run' can drive build, measure and compare at each step.\n"
		   "Given two folded-stacks files (frame;frame;frame COUNT lines, as 'locus report\n"
		   "--folded', stackcollapse-perf.pl and speedscope write) or two recordings with\n"
		   "callchains (locus record -g, perf record -g; --stacks picks the view, wakers by\n"
		   "default), it lists the stacks whose share of all moved most (base share, new\n"
		   "share, change in points) and, with --flame, draws a differential flame graph.\n"
		   "Options may come before or after the files.",
	.opts = diff_opts,
	.anywhere = true,
};

/* What the command line asks for. */
struct diff_plan {
	const char *json, *out, *flame, *svg, *stacks;
	long top;
	bool quiet, exit_code, keep_unknown;
	char **files;		/* the base, then the new batches */
	int n;
};

/* One option into the plan: 1 when taken, -1 after a usage error. */
static int diff_take(void *ctx, int c, const char *arg)
{
	struct diff_plan *pl = ctx;

	switch (c) {
	case OPT_JSON:
		pl->json = arg;
		break;
	case 'o':
		pl->out = arg;
		break;
	case 'q':
		pl->quiet = true;
		break;
	case OPT_EXIT_CODE:
		pl->exit_code = true;
		break;
	case OPT_FLAME:
		pl->flame = arg;
		break;
	case OPT_SVG:
		pl->svg = arg;
		break;
	case OPT_STACKS:
		pl->stacks = arg;
		break;
	case OPT_UNKNOWN:
		pl->keep_unknown = true;
		break;
	case OPT_TOP:
		if (parse_long(arg, 1, 1000000, &pl->top) < 0) {
			cli_usage_error(&diff_cmd, "--top wants a count from 1 to 1000000");
			return -1;
		}
		break;
	}
	return 1;
}

/* The options into pl: true to go on, false when the command ends with *rc (--help, usage). */
static bool diff_parse(int argc, char **argv, struct diff_plan *pl, int *rc)
{
	if (!cli_parse(&diff_cmd, argc, argv, diff_take, pl, rc))
		return false;
	pl->files = argv + optind;
	pl->n = argc - optind;
	if (pl->n < 2) {
		cli_usage_error(&diff_cmd, "give a base file and at least one new file");
		return false;
	}
	return true;
}

/* Read every file into sets and in; *loaded of them to release. The exit status. */
static int diff_load(const struct diff_plan *pl, struct sweep_set *sets, struct diff_input *in,
		     int *loaded)
{
	char err[400];

	for (int i = 0; i < pl->n; i++) {
		if (diff_loop_load(pl->files[i], &sets[i], err, sizeof(err)) < 0) {
			locus_err("%s", err);
			/* a new batch that wrote no readable file was not measured: skip it */
			return !pl->exit_code ? EXIT_LOCUS_RUNTIME :
			       i ? EXIT_LOCUS_SKIP : EXIT_LOCUS_ABORT;
		}
		in[i] = (struct diff_input){ pl->files[i], &sets[i] };
		*loaded = i + 1;
	}
	return EXIT_LOCUS_OK;
}

/* How a recording's stacks are folded: a view, the unwinder's [unknown] frames kept or not. */
struct fold_as {
	const struct stacks_out *v;
	bool keep_unknown;
};

/* A recording's view of its stacks, folded as --folded writes it. */
static void fold(void *ctx, const struct stacks *s, const struct stack_table *tab,
		 const struct stack_namer *nm, struct folded_set *f)
{
	const struct fold_as *a = ctx;
	struct stacks_frames fr = { .tab = tab, .namer = nm, .keep_unknown = a->keep_unknown };

	stacks_folded_set(s, a->v->kind, a->v->by_time, &fr, f);
}

/* Two sets of stacks (folded files or recordings): the stacks whose share moved, written as
 * pl asks. The exit status. */
static int diff_stacks(const struct diff_plan *pl, int argc, char **argv)
{
	const char *view = pl->stacks ? pl->stacks : "wakers";
	struct stack_diff_out o = { pl->files[0], pl->files[1], pl->top ? (size_t)pl->top : 20,
				    pl->out, pl->json, pl->flame, NULL };
	struct stacks_out v;
	struct diff_stacks ds;
	int rc = EXIT_LOCUS_RUNTIME;

	if (stacks_out_view(&v, view, strlen(view)) < 0) {
		locus_err("--stacks '%s': a view is wakers, blocked, offwake, blocked-time or "
			  "offwake-time", view);
		return EXIT_LOCUS_USAGE;
	}
	if (diff_stacks_load(&ds, o.base, o.cur, pl->keep_unknown, fold,
			     &(struct fold_as){ &v, pl->keep_unknown }, argc, argv) < 0)
		return EXIT_LOCUS_RUNTIME;
	if (stack_diff_draw(&o, &ds.d,
			    &(struct stack_diff_what){ ds.base_recorded || ds.cur_recorded ? view :
						       NULL, (int)v.kind, v.by_time,
						       ds.base.total, ds.cur.total },
			    &ds.cap, ds.cur_recorded ? &ds.cur_cap : NULL) == 0)
		rc = EXIT_LOCUS_OK;
	diff_stacks_release(&ds);
	return rc;
}

/* Two folded-stacks files or recordings: the stacks' comparison; the exit status. */
static int diff_folded(const struct diff_plan *pl, int argc, char **argv)
{
	if (pl->n != 2 || pl->exit_code ||
	    !(folded_file_sniff(pl->files[1]) || diff_is_recording(pl->files[1]))) {
		cli_usage_error(&diff_cmd, "%s", pl->n != 2 ? "folded stacks are compared two files at "
							"a time (a base and a new file)" :
					   pl->exit_code ? "--exit-code judges a loop's metric, not "
							   "folded stacks" :
					   "the base holds stacks, the new file does not (give two "
					   "folded files or recordings with callchains)");
		return EXIT_LOCUS_USAGE;
	}
	return diff_stacks(pl, argc, argv);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_plan pl = { 0 };
	struct diff_tally t = { 0 };
	struct sweep_set *sets;
	struct diff_input *in;
	int rc, loaded = 0;

	if (!diff_parse(argc, argv, &pl, &rc))
		return rc;
	if (folded_file_sniff(pl.files[0]) || diff_is_recording(pl.files[0])) {
		if (pl.svg) {
			cli_usage_error(&diff_cmd, "--svg draws loop files; folded stacks are drawn "
						   "with --flame");
			return EXIT_LOCUS_USAGE;
		}
		return diff_folded(&pl, argc, argv);
	}
	if (pl.flame || pl.top || pl.stacks) {
		cli_usage_error(&diff_cmd, "--flame, --top and --stacks compare stacks: give two "
					   "folded-stacks files or recordings, not loop files");
		return EXIT_LOCUS_USAGE;
	}
	sets = xcalloc((size_t)pl.n, sizeof(*sets));
	in = xcalloc((size_t)pl.n, sizeof(*in));
	rc = diff_load(&pl, sets, in, &loaded);
	if (rc == EXIT_LOCUS_OK)
		rc = diff_judge(in, pl.n, pl.exit_code, pl.quiet, &t);
	if (rc == EXIT_LOCUS_OK) {
		rc = diff_report_write(&in[0], &in[1], pl.n - 1, pl.out, pl.json, pl.svg) < 0
			     ? EXIT_LOCUS_RUNTIME
			     : EXIT_LOCUS_OK;
		rc = diff_verdict(&t, rc, pl.exit_code, pl.quiet);
	}
	for (int i = 0; i < loaded; i++)
		sweep_set_release(&sets[i]);
	free(sets);
	free(in);
	return rc;
}
