/*
 * trace_export.h - a recording's outputs beside its report, and the options that ask for
 * them: its timelines (the timeline sink beside the analyzers in the same pass, over the file
 * (pipeline/file_session.h: locus report) or as it is recorded (pipeline/live_session.h: locus
 * record), within a window, its items written by report/timeline_out.h) and its stacks'
 * files (--folded, --flame, report/stacks_out.h).
 */
#ifndef LOCUS_TRACE_EXPORT_H
#define LOCUS_TRACE_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../model/sched_results.h"
#include "../pipeline/file_session.h"
#include "../report/stacks_out.h"
#include "../report/stacks_report.h"
#include "../report/timeline_out.h"
#include "opts.h"

/* The timeline options of report and record (codes apart from every command's own). */
enum { OPT_TL_TRACE = OPT_LONG_BASE + 200, OPT_TL_SVG, OPT_TL_FROM, OPT_TL_TO, OPT_TL_LIMIT };

#define TIMELINE_OPT_ROWS \
	{ "trace", OPT_TL_TRACE, "FILE", "write a timeline for the Perfetto UI or chrome://tracing " \
					 "(Chrome trace JSON: CPU tracks, wakeup flows, migrations)" }, \
	{ "svg-timeline", OPT_TL_SVG, "FILE", "draw the timeline as SVG: per-CPU lanes (folded per " \
					      "core, LLC or node beyond 64), wakeup arrows" }, \
	{ "from", OPT_TL_FROM, "S", "start the window S seconds into the recording (report: the " \
				  "text and JSON too; record: the timelines)" }, \
	{ "to", OPT_TL_TO, "S", "end the window S seconds into the recording (as --from)" }, \
	{ "trace-limit", OPT_TL_LIMIT, "MB", "--trace: write at most MB MiB (default 1024)" }

/* Take one timeline option: 1 when consumed, 0 when not one, -1 after a usage error. */
int timeline_take(struct trace_export *x, const struct cli_cmd *cmd, int code, const char *arg);
/* After every option: a window needs an output, --to after --from, outputs writable (-1: usage). */
int timeline_opts_finish(struct trace_export *x, const struct cli_cmd *cmd);

/* The timeline sink's configuration for x's outputs, in tc, for a pass over the file at
 * path; NULL after saying why. */
struct trace_pass *trace_pass_new(struct trace_export *x, const char *path,
				  struct timeline_sink_cfg *tc);
/* After the session that fed p's timeline: the counts and results t says into x, then the
 * files x asks for, and what they hold on stderr. 0, or -1 after saying why. */
int trace_pass_heads(struct trace_pass *p, struct trace_export *x, const struct pass_timeline *t);
/* After the pass over fp: the same of the file's (what names the output in the message
 * when the file holds no sched events). */
int trace_pass_finish(struct trace_pass *p, struct trace_export *x, struct file_session *fp,
		      const char *what);
void trace_pass_free(struct trace_pass *p);

/* The stack options of report and run (--folded, --flame, --stack-addresses). */
enum { OPT_ST_FOLDED = OPT_LONG_BASE + 220, OPT_ST_FLAME, OPT_ST_ADDRS, OPT_ST_UNKNOWN };

#define STACKS_OPT_ROWS \
	{ "folded", OPT_ST_FOLDED, "KIND=FILE", "write folded stacks (flamegraph.pl, speedscope) " \
						 "of a recording with callchains (record -g): KIND " \
						 "wakers, blocked, offwake (counts), blocked-time, " \
						 "offwake-time (off-CPU microseconds)" }, \
	{ "flame", OPT_ST_FLAME, "KIND=FILE", "draw those stacks as a flame graph SVG (KIND as " \
					       "--folded)" }, \
	{ "stack-addresses", OPT_ST_ADDRS, NULL, "name stack frames by address (as perf script " \
						 "-F ip prints them), not by symbol" }, \
	{ "keep-unknown-frames", OPT_ST_UNKNOWN, NULL, "keep the unwinder's [unknown] frames in " \
						       "--folded and --flame as recorded (default: " \
						       "those at a stack's root dropped, a run of " \
						       "them one)" }

#define STACKS_OUT_MAX 10

struct stacks_plan {
	struct stacks_out out[STACKS_OUT_MAX];
	int n;
	bool addresses;
	bool keep_unknown;
};

/* Take one stacks option; 1 when consumed, 0 when not one, -1 after a usage error. */
int stacks_take(struct stacks_plan *p, const struct cli_cmd *cmd, int code, const char *arg);

#endif
