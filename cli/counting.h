/*
 * counting.h - the counting options shared by stat, run, top and record, parsed and
 * validated once; their report, and what a traced session (run, top) prints after it.
 */
#ifndef LOCUS_COUNTING_H
#define LOCUS_COUNTING_H

#include <stdbool.h>

#include "../common/outfile.h"
#include "../report/json.h"
#include "../report/live_sections.h"
#include "../report/sched_report.h"
#include "../report/stat_report.h"
#include "opts.h"
#include "../pipeline/count_plan.h"
#include "../pipeline/live_session.h"

/* Option codes shared by the commands that count. */
enum {
	OPT_JSON = OPT_LONG_BASE,
	OPT_SYSFS_ROOT,
	OPT_COLLECTOR,		/* the collector's options (COLLECTOR_OPT_ROWS) */
	OPT_BTF,
	OPT_DELAY_RATE,
	OPT_MAX_TASKS,
	OPT_MAX_PAIRS,
	OPT_TRACEFS,
	OPT_IPIS,
	OPT_COUNTING_END,	/* a command's own codes start here */
};

/* Their option rows, declared once for every command that takes them. */
#define COLLECTOR_OPT_ROWS \
	{ "collector", OPT_COLLECTOR, "KIND", "bpf (aggregate in the kernel), perf (stream through " \
					     "ring buffers) or auto (default: bpf where it loads)" }, \
	{ "btf", OPT_BTF, "FILE", "kernel BTF for the BPF collector (a missing file acts as a " \
				  "kernel without BTF)" }, \
	{ "delay-rate", OPT_DELAY_RATE, "N", "BPF: time 1 wakeup in 100000/N on each CPU, every " \
					     "wakeup the same chance (default 5000: 1 in 20; where " \
					     "run splits the waits, --sections blame: 25000, 1 in " \
					     "4; 0: all)" }, \
	{ "max-tasks", OPT_MAX_TASKS, "N", "rows of the task table (default: BPF 65536, perf " \
					   "every task); tasks beyond are counted as dropped" }, \
	{ "max-pairs", OPT_MAX_PAIRS, "N", "slots for the busiest waker->wakee pairs (default " \
					   "perf 16384, BPF 65536): counts within a stated bound" }, \
	{ "ipis", OPT_IPIS, NULL, "also tell which remote wakeups sent an IPI (BPF: two more " \
				  "programs, ~57 ns a ping-pong wakeup; perf: one more sample on " \
				  "the wakeup's path, ~800 ns: docs/cost.md)" }

#define TRACE_OPT_ROWS \
	{ "sysfs-root", OPT_SYSFS_ROOT, "DIR", "read the CPU topology from DIR instead of /sys " \
					       "(a recording stores it)" }, \
	{ "tracefs", OPT_TRACEFS, "DIR", "tracefs mount point for the perf stream (default: found, " \
					 "or mounted); the BPF collector refuses it" }, \
	{ "mmap-pages", 'm', "N", "ring buffer pages per CPU, a power of two: the perf stream's " \
					"(the BPF collector has none and refuses it)" }

/* The last rows of every counting and tracing command (counting_take takes -q and -v). */
#define TAIL_OPT_ROWS \
	{ "quiet", 'q', NULL, "no notes or summary on stderr" }, \
	{ "verbose", 'v', NULL, "more detail on stderr (top: its own CPU use)" }, \
	{ "help", 'h', NULL, "show this help" }

/* Take one trace option; 1 when consumed, 0 when not one, -1 after a usage error. */
int trace_take(struct trace_opts *t, const struct cli_cmd *cmd, int code, const char *arg);

/* Take one collector option; 1 when consumed, 0 when not one, -1 after a usage error. */
int collector_take(struct collector_opts *c, const struct cli_cmd *cmd, int code, const char *arg);
/*
 * After every option: refuse a setting the chosen collector cannot honor (-1, usage error):
 * --btf or --delay-rate with the perf collector, -m (t) with the BPF collector.
 */
int collector_finish(const struct collector_opts *c, const struct trace_opts *t,
		     const struct cli_cmd *cmd);

/*
 * Take one option code that belongs to counting; returns 1 when consumed,
 * 0 when not a counting option, -1 after a usage error was printed.
 */
int counting_take(struct counting_opts *o, const struct cli_cmd *cmd, int code, const char *arg);
/* The outputs writable, then the plan checked (counting_check); -1 after a usage error. */
int counting_finish(struct counting_opts *o, const struct cli_cmd *cmd, char **argv);

/*
 * Print the text report (stdout or -o) and the JSON (--json). Returns 0, or
 * EXIT_LOCUS_RUNTIME after an error message when an output could not be written.
 * extra may be NULL.
 */
int counting_report(const struct counting_opts *o, const struct stat_result *res,
		    const struct run_outcome *out, char **argv,
		    const struct report_extra *extra);
struct topology;
/*
 * Load the topology from sysfs_root (NULL: this machine). Returns 0, or the
 * exit code after printing why: a usage error for a bad --sysfs-root.
 */
int cli_load_topology(const struct cli_cmd *cmd, const char *sysfs_root, struct topology *t);
/*
 * Before anything runs: whether path ("-" aside) can be written, its directory
 * existing and writable. 0, or -1 after a usage error.
 */
int cli_check_output(const struct cli_cmd *cmd, const char *path);

/* The report of a traced session (scheduler and cachelines), shared by run and top. */
struct traced_report {
	struct sched_results *res;	/* NULL when the scheduler was not traced */
	struct sched_report_ctx ctx;
	unsigned sections;
	char mem_why[320];		/* why there are no cachelines in a live run */
	struct live_session *live;
	struct live_sections ls;	/* what the sections after the counters show */
};

/*
 * Fill rr after a session; the report extra prints its sections after the
 * counters (text and JSON).
 */
void traced_report_init(struct traced_report *rr, struct live_session *live,
			const struct run_outcome *out, unsigned sections);
struct report_extra traced_report_extra(struct traced_report *rr);

#endif
