/* stat_report.h - render counting results as text (perf stat style) and JSON. */
#ifndef LOCUS_STAT_REPORT_H
#define LOCUS_STAT_REPORT_H

#include <stdio.h>
#include <sys/types.h>

#include "../analyzers/stat.h"
#include "json.h"

/* What the scheduler trace of the same session counted, to reconcile with the counters. */
struct stat_trace_figures {
	const char *scope;	/* whose tasks ("workload tree + pid 1234"), or NULL: no trace */
	double voluntary, involuntary, migrations;
};

struct sched_results;

struct stat_report_ctx {
	const char *command;	/* the workload's command line, or a scope ("system-wide") */
	const char *scope;	/* "task", "system-wide", "cpus 0-3", "pid 123" */
	int exit_code;		/* the workload's exit status */
	bool interrupted;
	/* what the workload left running, ended after it exited (left_n 0: nothing) */
	int left_n, left_termed, left_killed;
	const char *left_names;	/* "sleep[12], ..." */
	const char *left_line;	/* the one line the text report prints */
	const char *scope_text;	/* whose tasks the counters and rusage cover ("workload
				 * tree"), or NULL: scope as it is */
	struct stat_trace_figures trace;	/* counters taken from the trace cover trace.scope
						 * (the same words when the same tasks) */
};

/* Whose tasks a counting session covered, as its options said. */
struct stat_scope {
	char *const *argv;	/* the workload's command, or NULL */
	long pid;		/* the process attached to (0: none) */
	const char *pid_list;	/* -p as given */
	const pid_t *added;	/* the processes added to the workload */
	int nadded;
	const char *cpu_list;	/* -C as given, or NULL */
	bool all_cpus;		/* -a */
};

/* The words of a scope, where ctx's strings point. */
struct stat_scope_words {
	char command[1024], scope[256], base[160], traced[320];
};

/*
 * ctx's command, scope and scope_text from s, written in w (which must outlive ctx), and
 * its trace figures from tr (NULL: no trace).
 */
void stat_scope_fill(const struct stat_scope *s, const struct sched_results *tr,
		     struct stat_scope_words *w, struct stat_report_ctx *ctx);

/* Whether counter c was taken from the scheduler trace. */
bool stat_from_trace(const struct stat_counter *c);
/* Whose tasks counter c covers, in words ("workload tree", "workload tree + pid 1234"). */
const char *stat_counter_scope(const struct stat_report_ctx *ctx, const struct stat_counter *c);
/* How the voluntary/involuntary split was counted, and whose tasks it covers. */
const char *stat_split_method(enum stat_split_source s);
const char *stat_split_scope(const struct stat_result *r, const struct stat_report_ctx *ctx);

void stat_report_text(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx);
/* Write the "counters" object members into an open JSON object. */
void stat_report_json_members(struct json *j, const struct stat_result *r,
			      const struct stat_report_ctx *ctx);

/* More report content after the counters (run adds the scheduler sections). */
struct report_extra {
	bool counters;		/* print the counters section */
	void (*text)(FILE *f, void *ctx);
	void (*json)(struct json *j, void *ctx);
	void *ctx;
	const struct sched_results *trace;	/* the session's trace, or NULL: the
						 * counters taken from it, reconciled */
};
/*
 * The text report into out_path (else standard output, unless the JSON goes there:
 * json_path "-") and the JSON into json_path (or NULL), each through the atomic writer.
 * 0, or -1 when an output could not be written (said; the text then follows on standard
 * output). extra may be NULL.
 */
int stat_report_write(const struct stat_result *res, const struct stat_report_ctx *ctx,
		      const struct report_extra *extra, const char *out_path, const char *json_path);

#endif
