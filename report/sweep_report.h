/* sweep_report.h - the benchmark loop's tables and JSON, and locus diff's comparison. */
#ifndef LOCUS_SWEEP_REPORT_H
#define LOCUS_SWEEP_REPORT_H

#include <stdio.h>

#include "../analyzers/sweep.h"

/* A table per sweep value: every run, the mean and the stddev in % of the mean. */
void sweep_report_text(FILE *f, const struct sweep_set *s);
/* The whole set, environment and every run, as JSON (what locus diff reads). */
void sweep_report_json(FILE *f, const struct sweep_set *s);
/* An SVG: the metric against the sweep value (each run and the mean), class shares beside. */
void sweep_report_svg(FILE *f, const struct sweep_set *s);
/* A measure's column label ("s", "cs/s", "p99"), its words ("p99 wake-to-run"). */
const char *sweep_measure_label(const struct sweep_set *s, int m);
const char *sweep_measure_words(const struct sweep_set *s, int m);
/* A value of measure m in its units: "94.44 ms" for the p99, "0.737", "47.6K" (into buf). */
const char *sweep_measure_text(const struct sweep_set *s, int m, double v, char *buf,
			       size_t len);
/* "columns: s: hackbench time (the metric); wall s: ...": what the table's labels mean. */
void sweep_legend(FILE *f, const struct sweep_set *s, const int *cols, int n);
/* The loop's environment as a picture's caption: command line, kernel, CPU, topology, time. */
void sweep_caption_lines(const struct sweep_set *s, char *c1, size_t n1, char *c2, size_t n2);
/*
 * locus diff --svg: base and new overlaid per sweep value, the metric (else context
 * switches/s): each run, each mean and its 95% interval, '*' where the table marks the
 * difference significant; both loops' captions.
 */
struct diff_input;
void diff_report_svg(FILE *f, const struct diff_input *base, const struct diff_input *cur);
/* The JSON into path through the atomic writer. 0, or -1 after saying why. */
int sweep_report_json_file(const char *path, struct sweep_set *s);
/*
 * The text report into out_path (else standard output, unless the JSON goes there: json_path
 * "-"), the JSON on standard output when json_path is "-", the SVG into svg (or NULL). 0, or
 * -1 when an output could not be written (said; the text then follows on standard output).
 */
int sweep_report_write(struct sweep_set *s, const char *out_path, const char *json_path,
		       const char *svg);

/* locus diff: a row per sweep value present in both and per measure. */
struct diff_input {
	const char *name;		/* the file */
	const struct sweep_set *set;
};
void diff_report_text(FILE *f, const struct diff_input *base, const struct diff_input *cur);
/* After it: what moved in the p99 wakeups' wait, when the runs' files have their blame. */
void diff_blame_text(FILE *f, const struct sweep_set *base, const struct sweep_set *cur);
void diff_report_json(FILE *f, const struct diff_input *base, const struct diff_input *cur);
/*
 * Each of cur[0..n) against base: the text into out (NULL: standard output, unless the
 * JSON goes there: json "-"), the JSON into json (one object, or an array of n), base
 * and cur[0] drawn into svg; each through the atomic writer, each may be NULL. 0, or -1
 * when an output could not be written (said).
 */
int diff_report_write(const struct diff_input *base, const struct diff_input *cur, int n,
		      const char *out, const char *json, const char *svg);
/* Rows marked significant. */
int diff_significant(const struct diff_input *base, const struct diff_input *cur);
/* Sweep values whose metric is significantly worse in cur than in base. */
int diff_metric_worse(const struct diff_input *base, const struct diff_input *cur);
/* Whether a loop measured its metric at all (a run that succeeded with it). */
bool sweep_metric_measured(const struct sweep_set *s);

/* What locus diff's comparisons found. */
struct diff_tally {
	int marked;		/* significant differences, every table */
	int worse;		/* new batches whose metric is significantly worse */
	int unmeasured;		/* new batches with no measured metric */
};
/*
 * Each of in[1..n) against the base in[0], added to t; files that measure different things
 * said on stderr (unless quiet: then no row is marked). With exit_code (--exit-code), the
 * status that ends the comparison, said: EXIT_LOCUS_ABORT when the base measured no metric,
 * EXIT_LOCUS_SKIP for a batch that measures something else. Else EXIT_LOCUS_OK.
 */
int diff_judge(const struct diff_input *in, int n, bool exit_code, bool quiet,
	       struct diff_tally *t);
/*
 * After the report was written (rc: EXIT_LOCUS_OK, or EXIT_LOCUS_RUNTIME when it could not
 * be): the count of significant differences on stderr (unless quiet) and the exit status,
 * with exit_code --exit-code's (1 worse, 0 not, 125 unmeasured, 128 not written), said.
 */
int diff_verdict(const struct diff_tally *t, int rc, bool exit_code, bool quiet);

#endif
