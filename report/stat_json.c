/* stat_json.c - counting results as JSON: every number, and why a missing one is missing. */
#include <string.h>

#include "stat_report.h"

static void counter_json(struct json *j, const struct stat_result *r, int i,
			 const struct stat_report_ctx *ctx)
{
	const struct stat_counter *c = &r->c[i];
	struct stat_derived d;

	json_object(j, NULL);
	json_string(j, "name", c->name);
	if (c->encoding[0])
		json_string(j, "encoding", c->encoding);
	json_string(j, "scope", stat_counter_scope(ctx, c));
	json_bool(j, "supported", c->supported);
	if (!c->supported) {
		json_string(j, "reason", c->reason);
		json_object_end(j);
		return;
	}
	json_bool(j, "counted", c->counted_runs > 0);
	json_string(j, "source", c->source ? c->source : "perf_event");
	if (c->user_only)
		json_bool(j, "user_only", true);
	if (c->counted_runs > 0) {
		json_number(j, "value", c->mean);
		json_number(j, "stddev", c->stddev);
		json_number(j, "running_fraction", c->running_fraction);
		json_array(j, "runs");
		for (int k = 0; k < c->counted_runs; k++)
			json_number(j, NULL, c->values[k]);
		json_array_end(j);
		d = stat_derive(r, i);
		if (d.valid) {
			json_object(j, "derived");
			json_number(j, "value", d.value);
			json_string(j, "unit", d.unit);
			json_object_end(j);
		}
		if (c->cpu_mean) {
			json_array(j, "per_cpu");
			for (int k = 0; k < r->ncpus; k++) {
				json_object(j, NULL);
				json_int(j, "cpu", r->cpu_ids[k]);
				json_number(j, "value", c->cpu_mean[k]);
				json_object_end(j);
			}
			json_array_end(j);
		}
	}
	json_object_end(j);
}

void stat_report_json_members(struct json *j, const struct stat_result *r,
			      const struct stat_report_ctx *ctx)
{
	json_string(j, "command", ctx->command);
	json_string(j, "scope", ctx->scope);
	json_int(j, "exit_status", ctx->exit_code);
	json_bool(j, "interrupted", ctx->interrupted);
	json_object(j, "left_running");
	json_int(j, "processes", ctx->left_n);
	if (ctx->left_n) {
		json_string(j, "names", ctx->left_names ? ctx->left_names : "");
		json_int(j, "ended_by_sigterm", ctx->left_termed);
		json_int(j, "ended_by_sigkill", ctx->left_killed);
	}
	json_object_end(j);
	json_int(j, "runs", r->runs);
	json_object(j, "elapsed_ns");
	json_number(j, "mean", r->elapsed_mean);
	json_number(j, "stddev", r->elapsed_stddev);
	json_array(j, "runs");
	for (int k = 0; k < r->runs; k++)
		json_number(j, NULL, r->elapsed_ns[k]);
	json_array_end(j);
	json_object_end(j);
	json_array(j, "counters");
	for (int i = 0; i < r->ncounters; i++)
		counter_json(j, r, i, ctx);
	json_array_end(j);
	json_object(j, "context_switch_split");
	json_bool(j, "supported", r->split_supported);
	if (r->split_supported) {
		/* its own total: the context-switches counter's when both are the trace's */
		json_number(j, "total", r->voluntary_mean + r->involuntary_mean);
		json_number(j, "voluntary", r->voluntary_mean);
		json_number(j, "involuntary", r->involuntary_mean);
		json_array(j, "voluntary_runs");
		for (int k = 0; k < r->runs; k++)
			json_number(j, NULL, r->voluntary[k]);
		json_array_end(j);
		json_array(j, "involuntary_runs");
		for (int k = 0; k < r->runs; k++)
			json_number(j, NULL, r->involuntary[k]);
		json_array_end(j);
		json_string(j, "source", stat_split_method(r->split_source));
		json_string(j, "scope", stat_split_scope(r, ctx));
	} else {
		json_string(j, "reason", r->split_reason);
	}
	json_object_end(j);
	if (r->rusage_kept && !(r->split_supported && r->split_source == SPLIT_RUSAGE)) {
		/* the workload tree's own accounting of the same run, beside the trace's split */
		json_object(j, "context_switch_rusage");
		json_number(j, "total", r->rusage_voluntary + r->rusage_involuntary);
		json_number(j, "voluntary", r->rusage_voluntary);
		json_number(j, "involuntary", r->rusage_involuntary);
		json_string(j, "source", stat_split_method(SPLIT_RUSAGE));
		json_string(j, "scope", ctx->scope_text ? ctx->scope_text : ctx->scope);
		json_object_end(j);
	}
}
