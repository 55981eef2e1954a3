/* stat_doc.c - the counting report written: text and JSON, each to its file (stat_report.h). */
#include <stdio.h>
#include <string.h>

#include "../common/outfile.h"
#include "../common/util.h"
#include "../model/sched_results.h"
#include "stat_report.h"

struct report_job {
	const struct stat_result *res;
	const struct stat_report_ctx *ctx;
	const struct report_extra *extra;
};

static void json_doc(FILE *f, void *arg)
{
	const struct report_job *job = arg;
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "locus_version", LOCUS_VERSION);
	stat_report_json_members(&j, job->res, job->ctx);
	if (job->extra && job->extra->json)
		job->extra->json(&j, job->extra->ctx);
	json_object_end(&j);
	json_end(&j);
}

static void text_doc(FILE *f, void *arg)
{
	const struct report_job *job = arg;

	if (!job->extra || job->extra->counters)
		stat_report_text(f, job->res, job->ctx);
	if (job->extra && job->extra->text)
		job->extra->text(f, job->extra->ctx);
}

int stat_report_write(const struct stat_result *res, const struct stat_report_ctx *ctx,
		      const struct report_extra *extra, const char *out_path, const char *json_path)
{
	struct report_job job = { res, ctx, extra };
	int rc = 0;

	if (out_path) {
		if (write_file_atomically(out_path, text_doc, &job) < 0) {
			locus_err("the report follows on standard output instead");
			text_doc(stdout, &job);
			rc = -1;
		}
	} else if (!(json_path && !strcmp(json_path, "-"))) {
		text_doc(stdout, &job);
	}
	if (json_path && write_file_atomically(json_path, json_doc, &job) < 0)
		rc = -1;
	return rc;
}

static void scope_text(const struct stat_scope *s, char *cmd, size_t clen, char *scope,
		       size_t slen)
{
	if (s->argv && s->argv[0])
		fmt_argv(s->argv, cmd, clen);
	else if (s->pid && s->nadded)
		snprintf(cmd, clen, "process ids '%s'", s->pid_list);
	else if (s->pid)
		snprintf(cmd, clen, "process id '%ld'", s->pid);
	else
		snprintf(cmd, clen, "system wide");
	if (s->cpu_list)
		snprintf(scope, slen, "cpus %s", s->cpu_list);
	else if (s->all_cpus)
		snprintf(scope, slen, "system-wide");
	else if (s->pid && s->nadded)
		snprintf(scope, slen, "pids %s", s->pid_list);
	else if (s->pid)
		snprintf(scope, slen, "pid %ld", s->pid);
	else
		snprintf(scope, slen, "workload");
}

/*
 * Whose tasks the counters and rusage cover, in words, and the trace's (the same
 * words when the same tasks: the trace also follows the processes -p added).
 */
static void scope_words(const struct stat_scope *s, char *base, size_t blen, char *traced,
			size_t tlen)
{
	size_t at;

	if (s->cpu_list)
		snprintf(base, blen, "cpus %s", s->cpu_list);
	else if (s->all_cpus)
		snprintf(base, blen, "system-wide");
	else if (s->argv && s->argv[0])
		snprintf(base, blen, "workload tree");
	else if (!s->nadded)
		snprintf(base, blen, "pid %ld and its children", s->pid);
	else { /* attached to several: every one is counted and traced */
		at = (size_t)snprintf(base, blen, "pids %ld", s->pid);
		for (int i = 0; i < s->nadded && at < blen; i++)
			at += (size_t)snprintf(base + at, blen - at, ",%d", (int)s->added[i]);
		if (at < blen)
			snprintf(base + at, blen - at, " and their children");
	}
	at = (size_t)snprintf(traced, tlen, "%s", base);
	for (int i = 0; s->argv && s->argv[0] && i < s->nadded && at < tlen; i++)
		at += (size_t)snprintf(traced + at, tlen - at, "%s%d", i ? "," : " + pid ",
				       (int)s->added[i]);
}

void stat_scope_fill(const struct stat_scope *s, const struct sched_results *tr,
		     struct stat_scope_words *w, struct stat_report_ctx *ctx)
{
	scope_text(s, w->command, sizeof(w->command), w->scope, sizeof(w->scope));
	scope_words(s, w->base, sizeof(w->base), w->traced, sizeof(w->traced));
	ctx->command = w->command;
	ctx->scope = w->scope;
	ctx->scope_text = w->base;
	ctx->trace = (struct stat_trace_figures){ NULL, 0, 0, 0 };
	if (tr)
		ctx->trace = (struct stat_trace_figures){ w->traced, (double)tr->voluntary,
							  (double)tr->involuntary,
							  (double)tr->migrations };
}
