/* diff.c - `locus diff BASE.json NEW.json...`: compare benchmark loops, mmtests style. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collectors/sweep_file.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/sweep_report.h"
#include "commands.h"
#include "counting.h"

enum { OPT_EXIT_CODE = OPT_SYSFS_ROOT + 1 };

static const struct cli_opt diff_opts[] = {
	{ "json", OPT_JSON, "FILE", "also write the comparison as JSON (- for stdout)" },
	{ "exit-code", OPT_EXIT_CODE, NULL, "exit 1 when the metric is significantly worse, 0 when "
					    "not, 125 when a new batch has no measured metric or "
					    "measures something else than the base, "
					    "128 when the base cannot be read (for git bisect run)" },
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
	"in %, the ratio new/base and the change. A '*' marks a difference larger than the\n"
	"two 95% confidence intervals together and significant after Holm-Bonferroni over\n"
	"the table's comparisons (Welch's t test, 5% family-wise), with 'better' or 'worse'\n"
	"where the measure has a direction (the metric's own; lower p99 wake-to-run and\n"
	"HITM/s). Files that measure different things (command, metric, direction, unit,\n"
	"sweep) are shown but nothing is marked.\n"
	"With --exit-code the exit status says whether the metric got worse, so\n"
	"'git bisect run' can drive build, measure and compare at each step.",
	diff_opts,
};

struct diff_job {
	const struct diff_input *base, *cur;
	int n;
};

static void text_doc(FILE *f, void *ctx)
{
	struct diff_job *d = ctx;

	for (int i = 0; i < d->n; i++)
		diff_report_text(f, d->base, &d->cur[i]);
}

static void json_doc(FILE *f, void *ctx)
{
	struct diff_job *d = ctx;

	if (d->n == 1) {
		diff_report_json(f, d->base, &d->cur[0]);
		return;
	}
	fputs("[\n", f);
	for (int i = 0; i < d->n; i++) {
		diff_report_json(f, d->base, &d->cur[i]);
		if (i + 1 < d->n)
			fputs(",\n", f);
	}
	fputs("]\n", f);
}

int cmd_diff(int argc, char **argv)
{
	const char *json = NULL, *out = NULL;
	struct sweep_set *sets;
	struct diff_input *in;
	struct diff_job job;
	struct cli_parser p;
	char err[400];
	int c, n, rc = EXIT_LOCUS_OK, marked = 0, worse = 0, unmeasured = 0;
	bool quiet = false, exit_code = false;

	cli_parser_init(&p, &diff_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		switch (c) {
		case -2:
			return EXIT_LOCUS_USAGE;
		case 'h':
			cli_print_help(stdout, &diff_cmd);
			return EXIT_LOCUS_OK;
		case OPT_JSON:
			json = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_EXIT_CODE:
			exit_code = true;
			break;
		}
	}
	n = argc - optind;
	if (n < 2) {
		cli_usage_error(&diff_cmd, "give a base file and at least one new file");
		return EXIT_LOCUS_USAGE;
	}
	sets = xcalloc((size_t)n, sizeof(*sets));
	in = xcalloc((size_t)n, sizeof(*in));
	for (int i = 0; i < n; i++) {
		if (sweep_load(argv[optind + i], &sets[i], err, sizeof(err)) < 0) {
			locus_err("%s", err);
			/* a new batch that wrote no readable file was not measured: skip it */
			rc = !exit_code ? EXIT_LOCUS_RUNTIME : i ? EXIT_LOCUS_SKIP : EXIT_LOCUS_ABORT;
			n = i;
			goto done;
		}
		in[i] = (struct diff_input){ argv[optind + i], &sets[i] };
	}
	if (exit_code && !sweep_metric_measured(&sets[0])) {
		locus_err("%s: no run measured a metric: --exit-code compares the metric of "
			  "'locus run --metric' (or the loop's own)", in[0].name);
		rc = EXIT_LOCUS_ABORT;
		goto done;
	}
	for (int i = 1; i < n; i++) {
		if (sweep_incompatible(&sets[0], &sets[i], exit_code, err, sizeof(err))) {
			if (exit_code) { /* nothing to judge: git bisect run's skip */
				locus_err("%s and %s measure different things: %s (compare batches "
					  "of one benchmark; exit 125, skip)", in[0].name, in[i].name,
					  err);
				rc = EXIT_LOCUS_SKIP;
				goto done;
			}
			if (!quiet)
				locus_err("%s and %s measure different things: %s; no row is marked",
					  in[0].name, in[i].name, err);
		}
		marked += diff_significant(&in[0], &in[i]);
		if (!sweep_metric_measured(&sets[i]))
			unmeasured++;
		else
			worse += diff_metric_worse(&in[0], &in[i]);
	}
	job = (struct diff_job){ &in[0], &in[1], n - 1 };
	if (out) {
		if (write_file_atomically(out, text_doc, &job) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (!(json && !strcmp(json, "-"))) {
		text_doc(stdout, &job);
	}
	if (json && write_file_atomically(json, json_doc, &job) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (!quiet)
		fprintf(stderr, "locus: %d significant difference%s\n", marked, marked == 1 ? "" : "s");
	if (exit_code) {
		if (rc != EXIT_LOCUS_OK)
			rc = EXIT_LOCUS_ABORT; /* a report could not be written */
		else if (unmeasured)
			rc = EXIT_LOCUS_SKIP;
		else
			rc = worse ? EXIT_LOCUS_RUNTIME : EXIT_LOCUS_OK; /* 1: worse */
		if (!quiet)
			fprintf(stderr, "locus: --exit-code %d: %s\n", rc,
				rc == EXIT_LOCUS_SKIP ? "a new batch has no measured metric (skip)" :
				rc == EXIT_LOCUS_ABORT ? "the comparison could not be written" :
				worse ? "the metric is significantly worse" :
				"the metric is not significantly worse");
	}
done:
	for (int i = 0; i < n; i++)
		sweep_set_release(&sets[i]);
	free(sets);
	free(in);
	return rc;
}
