/* diff_verdict.c - locus diff's judgement of the new batches against the base (sweep_report.h). */
#include <stdio.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "sweep_report.h"

int diff_judge(const struct diff_input *in, int n, bool exit_code, bool quiet,
	       struct diff_tally *t)
{
	char err[400];

	if (exit_code && !sweep_metric_measured(in[0].set)) {
		locus_err("%s: no run measured a metric: --exit-code compares the metric of "
			  "'locus run --metric' (or the loop's own)", in[0].name);
		return EXIT_LOCUS_ABORT;
	}
	for (int i = 1; i < n; i++) {
		if (sweep_incompatible(in[0].set, in[i].set, exit_code, err, sizeof(err))) {
			if (exit_code) { /* nothing to judge: git bisect run's skip */
				locus_err("%s and %s measure different things: %s (compare batches "
					  "of one benchmark; exit 125, skip)", in[0].name, in[i].name,
					  err);
				return EXIT_LOCUS_SKIP;
			}
			if (!quiet)
				locus_err("%s and %s measure different things: %s; no row is marked",
					  in[0].name, in[i].name, err);
		}
		t->marked += diff_significant(&in[0], &in[i]);
		if (!sweep_metric_measured(in[i].set))
			t->unmeasured++;
		else
			t->worse += diff_metric_worse(&in[0], &in[i]);
	}
	return EXIT_LOCUS_OK;
}

int diff_verdict(const struct diff_tally *t, int rc, bool exit_code, bool quiet)
{
	if (!quiet)
		fprintf(stderr, "locus: %d significant difference%s\n", t->marked,
			t->marked == 1 ? "" : "s");
	if (!exit_code)
		return rc;
	if (rc != EXIT_LOCUS_OK)
		rc = EXIT_LOCUS_ABORT; /* a report could not be written */
	else if (t->unmeasured)
		rc = EXIT_LOCUS_SKIP;
	else
		rc = t->worse ? EXIT_LOCUS_RUNTIME : EXIT_LOCUS_OK; /* 1: worse */
	if (!quiet)
		fprintf(stderr, "locus: --exit-code %d: %s\n", rc,
			rc == EXIT_LOCUS_SKIP ? "a new batch has no measured metric (skip)" :
			rc == EXIT_LOCUS_ABORT ? "the comparison could not be written" :
			t->worse ? "the metric is significantly worse" :
			"the metric is not significantly worse");
	return rc;
}
