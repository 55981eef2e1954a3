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

static void print_split(FILE *f, const struct stat_result *r)
{
	double total = r->voluntary_mean + r->involuntary_mean;
	char tmp[48], sh[16];

	if (!r->split_supported) {
		fprintf(f, "%18s        %-24s # %s\n", "not counted", "voluntary/involuntary",
			r->split_reason);
		return;
	}
	fprintf(f, "%18s        %-24s # %12s (tasks' own accounting)\n",
		fmt_count((uint64_t)llround(r->voluntary_mean), tmp, sizeof(tmp)), "voluntary",
		fmt_share(r->voluntary_mean, total, 1, sh, sizeof(sh)));
	fprintf(f, "%18s        %-24s # %12s\n",
		fmt_count((uint64_t)llround(r->involuntary_mean), tmp, sizeof(tmp)),
		"involuntary", fmt_share(r->involuntary_mean, total, 1, sh, sizeof(sh)));
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

void stat_report_text(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx)
{
	struct reasons rs = { .n = 0 };

	fprintf(f, "\n Performance counter stats for '%s'", ctx->command);
	if (r->runs > 1)
		fprintf(f, " (%d runs)", r->runs);
	fprintf(f, ":\n\n");
	for (int i = 0; i < r->ncounters; i++) {
		print_counter(f, r, i, &rs);
		/* the tasks' own accounting works even where the counter cannot open */
		if (!strcmp(r->c[i].name, "context-switches"))
			print_split(f, r);
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
