/* stat_text.c - counting results as the text perf stat users know, with honest gaps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "stat_report.h"

#define MAX_REASONS 16

struct reasons {
	const char *text[MAX_REASONS];
	char names[MAX_REASONS][512];
	int n;
};

/* Footnote number (1-based) for a reason, shared by every counter with the same one. */
static int footnote(struct reasons *rs, const char *reason, const char *name)
{
	for (int i = 0; i < rs->n; i++) {
		if (!strcmp(rs->text[i], reason)) {
			size_t o = strlen(rs->names[i]);

			snprintf(rs->names[i] + o, sizeof(rs->names[i]) - o, ", %s", name);
			return i + 1;
		}
	}
	if (rs->n == MAX_REASONS)
		return 0;
	rs->text[rs->n] = reason;
	snprintf(rs->names[rs->n], sizeof(rs->names[0]), "%s", name);
	return ++rs->n;
}

static void value_text(const struct stat_counter *c, double v, char *buf, size_t len)
{
	char tmp[48];

	if (!strcmp(c->name, "task-clock") || !strcmp(c->name, "cpu-clock"))
		snprintf(buf, len, "%.2f msec", v / 1e6);
	else
		snprintf(buf, len, "%s", fmt_count((uint64_t)llround(v), tmp, sizeof(tmp)));
}

static void print_counter(FILE *f, const struct stat_result *r, int i, struct reasons *rs)
{
	const struct stat_counter *c = &r->c[i];
	char name[128], val[64], tmp[48];
	struct stat_derived d;

	snprintf(name, sizeof(name), "%s%s", c->name, c->user_only ? ":u" : "");
	if (!c->supported) {
		int fn = footnote(rs, c->reason, name);

		fprintf(f, "%18s      %-26s # see [%d]\n", "not supported", name, fn);
		return;
	}
	if (c->counted_runs == 0) {
		fprintf(f, "%18s      %-26s # never scheduled on the PMU\n", "not counted", name);
		return;
	}
	value_text(c, c->mean, val, sizeof(val));
	/* msec values carry their unit in the value column */
	if (strstr(val, " msec"))
		fprintf(f, "%23s %-26s", val, name);
	else
		fprintf(f, "%18s      %-26s", val, name);
	d = stat_derive(r, i);
	if (d.valid) {
		if (!strcmp(d.unit, "/sec"))
			fprintf(f, " # %12s/sec", fmt_si(d.value, tmp, sizeof(tmp)));
		else if (d.unit[0] == '%')
			fprintf(f, " # %11.2f%s", d.value, d.unit);
		else
			fprintf(f, " # %12.3f %s", d.value, d.unit);
	}
	if (r->runs > 1 && c->mean != 0)
		fprintf(f, "  ( +- %5.2f%% )", 100.0 * c->stddev / c->mean);
	if (c->running_fraction < 0.9999)
		fprintf(f, "  (%.2f%%)", 100.0 * c->running_fraction);
	if (c->source)
		fprintf(f, "  [%s]", c->source);
	fputc('\n', f);
}

bool stat_from_trace(const struct stat_counter *c)
{
	return c->source && !strcmp(c->source, "sched trace");
}

const char *stat_counter_scope(const struct stat_report_ctx *ctx, const struct stat_counter *c)
{
	if (stat_from_trace(c) && ctx->trace.scope)
		return ctx->trace.scope;
	return ctx->scope_text ? ctx->scope_text : ctx->scope;
}

const char *stat_split_method(enum stat_split_source s)
{
	switch (s) {
	case SPLIT_TRACE:
		return "sched_switch prev_state";
	case SPLIT_PROCFS:
		return "/proc of the process's threads";
	default:
		return "rusage of the workload and its reaped children";
	}
}

const char *stat_split_scope(const struct stat_result *r, const struct stat_report_ctx *ctx)
{
	if (r->split_source == SPLIT_TRACE && ctx->trace.scope)
		return ctx->trace.scope;
	return ctx->scope_text ? ctx->scope_text : ctx->scope;
}

/* Why the split's own total is not the counter's: one line. */
static void split_why(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx,
		      double counter, double total)
{
	const char *more = total > counter ? "more" : "fewer", *base;
	char d[48];

	fmt_count((uint64_t)llround(fabs(total - counter)), d, sizeof(d));
	switch (r->split_source) {
	case SPLIT_TRACE:
		base = ctx->scope_text ? ctx->scope_text : ctx->scope;
		if (strcmp(stat_split_scope(r, ctx), base))
			fprintf(f, "%26s(%s %s than the counter: the trace counts every sched_switch of\n"
				   "%26s %s, the counter %s only)\n", "", d, more, "",
				stat_split_scope(r, ctx), base);
		else if (!strncmp(base, "system-wide", 11) || !strncmp(base, "cpus ", 5))
			fprintf(f, "%26s(%s %s than the counter: the counter also counts locus's own\n"
				   "%26s switches, the trace every task but locus)\n", "", d, more, "");
		else if (!strncmp(base, "pid", 3)) /* attached: no exec, the two windows differ */
			fprintf(f, "%26s(%s %s than the counter: the trace starts before the counters\n"
				   "%26s are enabled and stops after they are read)\n", "", d, more, "");
		else
			fprintf(f, "%26s(%s %s than the counter: the trace counts a task's switches from\n"
				   "%26s before its exec to its end, the counter until it closes at exit)\n",
				"", d, more, "");
		break;
	case SPLIT_PROCFS:
		fprintf(f, "%26s(%s %s than the counter: /proc sums the threads alive when read, the\n"
			   "%26s counter every thread and child since it was attached)\n",
			"", d, more, "");
		break;
	default:
		fprintf(f, "%26s(%s %s than the counter: rusage also counts each task's switches\n"
			   "%26s while it exits, after its counters closed, and only children reaped)\n",
			"", d, more, "");
	}
}

/*
 * The voluntary/involuntary split under the context-switches counter c: beneath it when
 * the two are one count (both from the trace), else under its own total and its method,
 * with one line on why that total differs from the counter's.
 */
static void print_split(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx,
			const struct stat_counter *c)
{
	double total = r->voluntary_mean + r->involuntary_mean;
	bool counted = c->supported && c->counted_runs > 0;
	bool same = counted && stat_from_trace(c) && r->split_source == SPLIT_TRACE;
	const char *pad = same ? "" : "  ";
	bool other = strcmp(stat_split_scope(r, ctx), stat_counter_scope(ctx, c)) != 0;
	char tmp[48], sh[16];

	if (!r->split_supported) {
		fprintf(f, "%18s        %-24s # %s\n", "not counted", "voluntary/involuntary",
			r->split_reason);
		return;
	}
	if (!same) /* its own total, its method, and its tasks where they are not c's */
		fprintf(f, "%18s        %-24s # %s%s%s%s\n",
			fmt_count((uint64_t)llround(total), tmp, sizeof(tmp)),
			"voluntary + involuntary", stat_split_method(r->split_source),
			other ? " (" : "", other ? stat_split_scope(r, ctx) : "", other ? ")" : "");
	fprintf(f, "%18s        %s%-*s # %12s%s%s%s\n",
		fmt_count((uint64_t)llround(r->voluntary_mean), tmp, sizeof(tmp)), pad,
		24 - (int)strlen(pad), "voluntary", fmt_share(r->voluntary_mean, total, 1, sh,
							     sizeof(sh)),
		same ? " (" : "", same ? stat_split_method(r->split_source) : "", same ? ")" : "");
	fprintf(f, "%18s        %s%-*s # %12s\n",
		fmt_count((uint64_t)llround(r->involuntary_mean), tmp, sizeof(tmp)), pad,
		24 - (int)strlen(pad), "involuntary",
		fmt_share(r->involuntary_mean, total, 1, sh, sizeof(sh)));
	if (!same && counted && llround(total) != llround(c->mean))
		split_why(f, r, ctx, c->mean, total);
}

/* Under a cpu-migrations counter that is not the trace's: the trace's figure and why. */
static void migrations_why(FILE *f, const struct stat_counter *c, const struct stat_report_ctx *ctx)
{
	char n[48];

	if (!ctx->trace.scope || stat_from_trace(c) || !c->supported || c->counted_runs == 0 ||
	    llround(c->mean) == llround(ctx->trace.migrations))
		return;
	fprintf(f, "%26s(the trace below: %s, every sched_migrate_task of %s;\n"
		   "%26s the counter counts a task's moves once, at its next switch-in)\n", "",
		fmt_count((uint64_t)llround(ctx->trace.migrations), n, sizeof(n)), ctx->trace.scope,
		"");
}

static void print_per_cpu(FILE *f, const struct stat_result *r)
{
	char val[64];

	fprintf(f, "\n Per CPU:\n\n");
	for (int i = 0; i < r->ncounters; i++) {
		const struct stat_counter *c = &r->c[i];

		if (!c->supported || c->counted_runs == 0 || !c->cpu_mean)
			continue;
		for (int k = 0; k < r->ncpus; k++) {
			value_text(c, c->cpu_mean[k], val, sizeof(val));
			fprintf(f, " CPU%-5d %18s      %s\n", r->cpu_ids[k], val, c->name);
		}
	}
}

/* The counters of one scope, in their order, the split under context-switches. */
static void print_scope(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx,
			const char *scope, struct reasons *rs)
{
	for (int i = 0; i < r->ncounters; i++) {
		if (strcmp(stat_counter_scope(ctx, &r->c[i]), scope))
			continue;
		print_counter(f, r, i, rs);
		/* the tasks' own accounting works even where the counter cannot open */
		if (!strcmp(r->c[i].name, "context-switches"))
			print_split(f, r, ctx, &r->c[i]);
		else if (!strcmp(r->c[i].name, "cpu-migrations"))
			migrations_why(f, &r->c[i], ctx);
	}
}

void stat_report_text(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx)
{
	struct reasons rs = { .n = 0 };
	const char *scopes[4];
	int nscopes = 0;

	for (int i = 0; i < r->ncounters && nscopes < 4; i++) {
		const char *s = stat_counter_scope(ctx, &r->c[i]);
		int k = 0;

		while (k < nscopes && strcmp(scopes[k], s))
			k++;
		if (k == nscopes)
			scopes[nscopes++] = s;
	}
	fprintf(f, "\n Performance counter stats for '%s'", ctx->command);
	if (r->runs > 1)
		fprintf(f, " (%d runs)", r->runs);
	if (nscopes == 1) {
		fprintf(f, ", %s:\n\n", scopes[0]);
		print_scope(f, r, ctx, scopes[0], &rs);
	} else {
		/* one block a scope: the trace follows the processes -p added, rusage and the
		 * counters the workload's own tree */
		fprintf(f, ":\n");
		for (int k = 0; k < nscopes; k++) {
			fprintf(f, "\n %s%s:\n", scopes[k], ctx->trace.scope &&
				!strcmp(scopes[k], ctx->trace.scope) ? " (from the trace, which "
				"follows the added processes too)" : "");
			print_scope(f, r, ctx, scopes[k], &rs);
		}
	}
	if (r->ncpus)
		print_per_cpu(f, r);
	fputc('\n', f);
	if (r->runs > 1)
		fprintf(f, " %14.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n",
			r->elapsed_mean / 1e9, r->elapsed_stddev / 1e9,
			r->elapsed_mean > 0 ? 100.0 * r->elapsed_stddev / r->elapsed_mean : 0.0);
	else
		fprintf(f, " %14.9f seconds time elapsed\n", r->elapsed_mean / 1e9);
	if (ctx->interrupted)
		fprintf(f, " (interrupted: counts cover the time until the signal)\n");
	if (ctx->left_n && ctx->left_line)
		fprintf(f, " (%s)\n", ctx->left_line);
	for (int i = 0; i < rs.n; i++)
		fprintf(f, "\n [%d] not supported: %s\n     %s\n", i + 1, rs.names[i], rs.text[i]);
	fputc('\n', f);
}
