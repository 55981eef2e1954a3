/* stat_report.h - render counting results as text (perf stat style) and JSON. */
#ifndef LOCUS_STAT_REPORT_H
#define LOCUS_STAT_REPORT_H

#include <stdio.h>

#include "../analyzers/stat.h"
#include "json.h"

struct stat_report_ctx {
	const char *command;	/* the workload's command line, or a scope ("system-wide") */
	const char *scope;	/* "task", "system-wide", "cpus 0-3", "pid 123" */
	int exit_code;		/* the workload's exit status */
	bool interrupted;
	/* what the workload left running, ended after it exited (left_n 0: nothing) */
	int left_n, left_termed, left_killed;
	const char *left_names;	/* "sleep[12], ..." */
	const char *left_line;	/* the one line the text report prints */
};

void stat_report_text(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx);
/* Write the "counters" object members into an open JSON object. */
void stat_report_json_members(struct json *j, const struct stat_result *r,
			      const struct stat_report_ctx *ctx);

#endif
