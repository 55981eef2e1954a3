/* diff.c - `locus diff BASE NEW...`: compare benchmark loops (mmtests style) or two sets of stacks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collectors/caption.h"
#include "../collectors/perfdata.h"
#include "../collectors/sweep_file.h"
#include "../common/exitcodes.h"
#include "../common/folded.h"
#include "../common/util.h"
#include "../pipeline/file_pass.h"
#include "../report/stack_diff_report.h"
#include "../report/sweep_report.h"
#include "commands.h"
#include "counting.h"
#include "trace_export.h"

enum { OPT_EXIT_CODE = OPT_SYSFS_ROOT + 1, OPT_FLAME, OPT_TOP, OPT_SVG, OPT_STACKS };

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
	{ "output", 'o', "FILE", "write the text to FILE instead of stdout" },
	{ "quiet", 'q', NULL, "no notes on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd diff_cmd = {
	"diff", "[options] BASE.json NEW.json [NEW2.json...]",
	"Compare benchmark loops written by 'locus run -r N [--sweep ...] --json FILE',\n"
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
	"share, change in points) and, with --flame, draws a differential flame graph.",
	diff_opts,
};

/* What the command line asks for. */
struct diff_plan {
	const char *json, *out, *flame, *svg, *stacks;
	long top;
	bool quiet, exit_code;
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
		if (sweep_load(pl->files[i], &sets[i], err, sizeof(err)) < 0) {
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

/*
 * A recording's stacks of view v (its workload's tasks, as locus report follows them), and
 * its caption when cap. 0, or -1 after saying why.
 */
static int recording_load(const char *path, const struct stacks_out *v, struct folded_set *f,
			  struct svg_caption *cap)
{
	struct file_pass *fp = xcalloc(1, sizeof(*fp));
	struct replay_opts o = { .path = path, .line_size = 64, .sort = CL_SORT_TOTAL };
	struct file_pass_asks a = { .follow = true, .stacks = true }; /* as locus report does */
	char err[400] = "";
	int rc = file_pass_read(fp, &o, &a, NULL, err, sizeof(err));

	if (rc < 0)
		locus_err("%s: %s", path, err);
	else if (!fp->rp.rd.callchains)
		locus_err("%s: no callchains in the file (record with locus record -g, or perf "
			  "record -g)", path), rc = -1;
	if (rc == 0) {
		/* frames named from the file's symbols */
		struct stack_namer namer = symbols_stack_namer(&fp->rp.syms);
		struct stacks_frames fr = { &fp->rp.rd.stacks, &namer, false };

		stacks_folded_set(&fp->stk.st, v->kind, v->by_time, &fr, f);
		if (cap)
			caption_file(cap, &fp->rp.f, path);
	}
	file_pass_release(fp);
	free(fp);
	return rc;
}

/* A folded file or a recording's view v into f. 0, or -1 after saying why. */
static int stacks_load(const char *path, const struct stacks_out *v, struct folded_set *f,
		       struct svg_caption *cap, bool *recorded)
{
	char err[600];

	*recorded = pd_is_recording(path);
	if (*recorded)
		return recording_load(path, v, f, cap);
	if (folded_load(path, f, err, sizeof(err)) < 0) {
		locus_err("%s", err);
		return -1;
	}
	return 0;
}

/* Two sets of stacks (folded files or recordings): the stacks whose share moved, written as
 * pl asks. The exit status. */
static int diff_stacks(const struct diff_plan *pl, int argc, char **argv)
{
	const char *view = pl->stacks ? pl->stacks : "wakers";
	struct stack_diff_out o = { pl->files[0], pl->files[1], pl->top ? (size_t)pl->top : 20,
				    pl->out, pl->json, pl->flame, NULL };
	struct stacks_out v;
	struct folded_set a, b;
	struct stack_diff d;
	struct svg_caption cap, rcap;
	bool ra, rb;
	int rc;

	if (stacks_out_view(&v, view, strlen(view)) < 0) {
		locus_err("--stacks '%s': a view is wakers, blocked, offwake, blocked-time or "
			  "offwake-time", view);
		return EXIT_LOCUS_USAGE;
	}
	if (stacks_load(o.base, &v, &a, NULL, &ra) < 0)
		return EXIT_LOCUS_RUNTIME;
	if (stacks_load(o.cur, &v, &b, &rcap, &rb) < 0) {
		folded_release(&a);
		return EXIT_LOCUS_RUNTIME;
	}
	rc = EXIT_LOCUS_RUNTIME;
	if (stack_diff_build(&d, &a, &b) < 0) {
		locus_err("comparing %s and %s: out of memory", o.base, o.cur);
		goto out;
	}
	caption_live(&cap, argc, argv);
	if (stack_diff_draw(&o, &d, &(struct stack_diff_what){ ra || rb ? view : NULL, (int)v.kind,
				     v.by_time, a.total, b.total }, &cap, rb ? &rcap : NULL) == 0)
		rc = EXIT_LOCUS_OK;
	stack_diff_release(&d);
out:
	folded_release(&a);
	folded_release(&b);
	return rc;
}

/* Two folded-stacks files or recordings: the stacks' comparison; the exit status. */
static int diff_folded(const struct diff_plan *pl, int argc, char **argv)
{
	if (pl->n != 2 || pl->exit_code ||
	    !(folded_file_sniff(pl->files[1]) || pd_is_recording(pl->files[1]))) {
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
	if (folded_file_sniff(pl.files[0]) || pd_is_recording(pl.files[0])) {
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
