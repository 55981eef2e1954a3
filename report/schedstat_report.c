/*
 * schedstat_report.c - the run's /proc/schedstat deltas: per domain level
 * (summed over its CPUs) the try_to_wake_up() placements and load balancing
 * by idle type; per CPU the runqueue counters. Text and JSON.
 */
#include "schedstat_report.h"

#include <inttypes.h>
#include <string.h>

#include "../common/util.h"
#include "json.h"
#include "sched_report.h"

/* Domains summed per level (the level's name and how many CPUs it spans, from its first). */
struct level_sum {
	char name[16];
	int cpus;		/* CPUs in one domain of this level */
	struct ss_domain sum;
};

static int mask_weight(const char *mask)
{
	int n = 0;

	for (const char *p = mask; *p; p++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : 0;

		n += __builtin_popcount((unsigned)v);
	}
	return n;
}

static int levels(const struct schedstat *s, struct level_sum *out, int max)
{
	int n = 0;

	for (int i = 0; i < s->ndoms; i++) {
		const struct ss_domain *d = &s->doms[i];
		struct level_sum *l;

		if (d->level >= max)
			continue;
		while (n <= d->level) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].sum.level = n;
			n++;
		}
		l = &out[d->level];
		if (!l->cpus) {
			l->cpus = mask_weight(d->mask);
			snprintf(l->name, sizeof(l->name), "%s", d->name);
		}
		for (int t = 0; t < SS_IDLE_NR; t++)
			for (int k = 0; k < SS_LB_NR; k++)
				l->sum.lb[t][k] += d->lb[t][k];
		for (int k = 0; k < SS_DOM_NR; k++)
			l->sum.d[k] += d->d[k];
	}
	return n;
}

void schedstat_report_text(FILE *f, const struct schedstat *d, const char *why)
{
	struct level_sum lv[16];
	uint64_t c[SS_CPU_NR] = { 0 };
	char a[32], b[32], e[32], s1[16], s2[16];
	int n;

	if (!d) {
		fputc('\n', f);
		fprint_folded(f, " Scheduler domains (/proc/schedstat): not available: ", why, 3, 80);
		return;
	}
	for (int i = 0; i < d->ncpus; i++)
		for (int k = 0; k < SS_CPU_NR; k++)
			c[k] += d->cpus[i].c[k];
	fprintf(f, "\n Scheduler domains (/proc/schedstat v%d, %" PRIu64
		   " jiffies, every task, %d CPU%s)\n", d->version, d->timestamp, d->ncpus,
		d->ncpus == 1 ? "" : "s");
	fprintf(f, "   %s try_to_wake_up() (local %s), %s schedule() (left idle %s),\n"
		   "   run delay %s\n", fmt_count(c[SS_TTWU_COUNT], a, sizeof(a)),
		fmt_share((double)c[SS_TTWU_LOCAL], (double)c[SS_TTWU_COUNT], 1, s1, sizeof(s1)),
		fmt_count(c[SS_SCHED_COUNT], b, sizeof(b)),
		fmt_share((double)c[SS_SCHED_GOIDLE], (double)c[SS_SCHED_COUNT], 1, s2, sizeof(s2)),
		fmt_ns(c[SS_RUN_DELAY], e, sizeof(e)));
	n = levels(d, lv, 16);
	fprintf(f, "   %-9s %4s %9s %8s %13s %13s %13s\n", "", "", "wakeups", "wakeups",
		"balance busy", "balance idle", "newly idle");
	fprintf(f, "   %-9s %4s %9s %8s %13s %13s %13s\n", "domain", "CPUs", "remote", "affine",
		"runs/failed", "runs/failed", "runs/failed");
	for (int i = 0; i < n; i++) {
		const struct ss_domain *s = &lv[i].sum;
		char lbl[24], w[32], af[32], lb[SS_IDLE_NR][40];

		snprintf(lbl, sizeof(lbl), "%d%s%.6s", i, lv[i].name[0] ? " " : "", lv[i].name);
		for (int t = 0; t < SS_IDLE_NR; t++) {
			char x[32], y[32];

			snprintf(lb[t], sizeof(lb[t]), "%s/%s",
				 fmt_count(s->lb[t][SS_LB_COUNT], x, sizeof(x)),
				 fmt_count(s->lb[t][SS_LB_FAILED], y, sizeof(y)));
		}
		char nc[16];

		/* a perf.data record has no mask (perf keeps it in a header): "-" */
		snprintf(nc, sizeof(nc), "%d", lv[i].cpus);
		fprintf(f, "   %-9s %4s %9s %8s %13s %13s %13s\n", lbl, lv[i].cpus ? nc : "-",
			fmt_count(s->d[SS_TTWU_WAKE_REMOTE], w, sizeof(w)),
			fmt_count(s->d[SS_TTWU_MOVE_AFFINE], af, sizeof(af)), lb[SS_BUSY],
			lb[SS_IDLE], lb[SS_NEWLY_IDLE]);
	}
	fprintf(f, "   remote: woke a task that last ran on another CPU of the domain; affine:\n"
		   "   moved it to the waking CPU (wake_affine); summed over the domain's CPUs\n");
}

static void domain_json(struct json *j, const struct ss_domain *d, int version)
{
	json_object(j, "lb");
	for (int t = 0; t < SS_IDLE_NR; t++) {
		json_object(j, ss_idle_name((enum ss_idle)t));
		for (int k = 0; k < SS_LB_NR; k++)
			if (ss_lb_in_version((enum ss_lb)k, version))
				json_uint(j, ss_lb_key((enum ss_lb)k, version), d->lb[t][k]);
		json_object_end(j);
	}
	json_object_end(j);
	for (int k = 0; k < SS_DOM_NR; k++)
		json_uint(j, ss_dom_key((enum ss_dom)k), d->d[k]);
}

void schedstat_report_json(struct json *j, const struct schedstat *d, const char *why)
{
	struct level_sum lv[16];
	int n;

	json_object(j, "schedstat");
	json_bool(j, "available", d != NULL);
	if (!d) {
		json_string(j, "reason", why);
		json_object_end(j);
		return;
	}
	json_int(j, "version", d->version);
	json_uint(j, "jiffies", d->timestamp);
	json_array(j, "by_level");
	n = levels(d, lv, 16);
	for (int i = 0; i < n; i++) {
		json_object(j, NULL);
		json_int(j, "level", i);
		json_string(j, "name", lv[i].name);
		if (lv[i].cpus)
			json_int(j, "cpus", lv[i].cpus);
		else
			json_null(j, "cpus"); /* not in the records */
		domain_json(j, &lv[i].sum, d->version);
		json_object_end(j);
	}
	json_array_end(j);
	json_array(j, "cpus");
	for (int i = 0; i < d->ncpus; i++) {
		json_object(j, NULL);
		json_int(j, "cpu", d->cpus[i].cpu);
		for (int k = 0; k < SS_CPU_NR; k++)
			if (k != SS_LEGACY)
				json_uint(j, ss_cpu_key((enum ss_cpu)k), d->cpus[i].c[k]);
		json_array(j, "domains");
		for (int m = 0; m < d->ndoms; m++) {
			if (d->doms[m].cpu != d->cpus[i].cpu)
				continue;
			json_object(j, NULL);
			json_int(j, "level", d->doms[m].level);
			json_string(j, "name", d->doms[m].name);
			json_string(j, "cpumask", d->doms[m].mask);
			domain_json(j, &d->doms[m], d->version);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
