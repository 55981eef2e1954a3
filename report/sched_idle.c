/*
 * sched_idle.c - "idle CPUs passed over" in the text report and JSON: how many
 * timed wakeups waited on a busy CPU while a CPU their task could run on was
 * idle, by locality class, how close the idle CPU was, and where (rule: idle.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "json.h"
#include "sched_idle.h"
#include "sched_report.h"

static const char *const closest_label[LOC_NR] = { "-", "SMT sibling", "shared LLC", "same node",
						   "other node" };

static bool measured(const struct sched_results *r)
{
	return sched_measured(r, SM_idle_passed);
}

const char *sched_idle_rule(const struct sched_results *r)
{
	return r->prov.affinity_known ?
		       "target busy at the wakeup; an allowed CPU idle at the wakeup or\n"
		       "   when the task ran; affinity from /proc when a task is first woken,\n"
		       "   inherited at fork" :
		       "target busy at the wakeup; a CPU idle at the wakeup or when the\n"
		       "   task ran; affinity unknown (a file): every CPU counted as allowed";
}

struct cpu_count {
	int cpu;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct cpu_count *x = a, *y = b;

	return x->n != y->n ? (x->n < y->n) - (x->n > y->n) : x->cpu - y->cpu;
}

void sched_idle_text(FILE *f, const struct sched_results *r)
{
	char a[32], b[32], c[32], s[16];
	struct cpu_count *top;
	int n = 0;

	if (!measured(r)) {
		fprintf(f, "\n Idle CPUs passed over: not measured by this collector (%s keeps no "
			   "idle-CPU state; --collector perf measures it)\n",
			prov_source_name(r->prov.source));
		return;
	}
	fprintf(f, "\n Idle CPUs passed over: woken tasks that waited on a busy CPU while one\n"
		   " they may run on was idle\n");
	fprintf(f, "   %s of %s timed wakeups (%s); their wait while it idled: %s\n",
		fmt_count(r->idle_passed, a, sizeof(a)), fmt_count(r->delay.count, b, sizeof(b)),
		fmt_share((double)r->idle_passed, (double)r->delay.count, 1, s, sizeof(s)),
		fmt_ns(r->idle_wait_ns, c, sizeof(c)));
	if (r->idle_not_allowed)
		fprintf(f, "   %s more waited while only CPUs outside their affinity idled\n",
			fmt_count(r->idle_not_allowed, a, sizeof(a)));
	if (r->affinity_unknown)
		fprintf(f, "   %s tasks were gone before their affinity was read: every CPU\n"
			   "   counted as allowed for them\n",
			fmt_count(r->affinity_unknown, a, sizeof(a)));
	fprintf(f, "   rule: %s\n", sched_idle_rule(r));
	if (!r->idle_passed)
		return;
	fprintf(f, "   %-22s %12s %12s %12s\n", "waker CPU -> target CPU", "passed over",
		"of timed", "idle wait");
	for (int k = 0; k < LOC_NR; k++) {
		if (!r->delay_class[k].count)
			continue;
		fprintf(f, "     %-20s %12s %12s %12s\n", locality_label((enum locality)k),
			fmt_count(r->idle_passed_class[k], a, sizeof(a)),
			fmt_share((double)r->idle_passed_class[k], (double)r->delay_class[k].count, 1,
				  s, sizeof(s)),
			fmt_ns(r->idle_wait_class[k], c, sizeof(c)));
	}
	fprintf(f, "   closest idle CPU:");
	for (int k = LOC_SMT; k < LOC_NR; k++)
		fprintf(f, "%s %s %s", k == LOC_SMT ? "" : ",", closest_label[k],
			fmt_count(r->idle_closest[k], a, sizeof(a)));
	fputc('\n', f);
	top = xcalloc((size_t)r->ncpus + 1, sizeof(*top));
	for (int k = 0; k < r->ncpus; k++)
		if (r->cpu[k].idle_passed)
			top[n++] = (struct cpu_count){ k, r->cpu[k].idle_passed };
	qsort(top, (size_t)n, sizeof(*top), by_count);
	fprintf(f, "   waited most on");
	for (int k = 0; k < n && k < 8; k++)
		fprintf(f, "%s CPU %d (%s)", k ? "," : "", top[k].cpu,
			fmt_count(top[k].n, a, sizeof(a)));
	fprintf(f, "%s\n", n > 8 ? ", ..." : "");
	free(top);
}

void sched_idle_json(struct json *j, const struct sched_results *r)
{
	if (!measured(r)) {
		json_null(j, "idle_passed_over_detail");
		return;
	}
	json_object(j, "idle_passed_over_detail");
	{
		char rule[300], *o = rule;

		for (const char *p = sched_idle_rule(r); *p && o < rule + sizeof(rule) - 1; p++)
			if (*p != '\n' && !(*p == ' ' && o > rule && o[-1] == ' '))
				*o++ = *p; /* one line */
		*o = '\0';
		json_string(j, "rule", rule);
	}
	json_bool(j, "affinity_known", r->prov.affinity_known);
	json_uint(j, "timed_wakeups", r->delay.count);
	json_object(j, "by_class");
	for (int k = 0; k < LOC_NR; k++) {
		json_object(j, locality_name((enum locality)k));
		json_uint(j, "passed_over", r->idle_passed_class[k]);
		json_uint(j, "timed", r->delay_class[k].count);
		json_uint(j, "idle_wait_ns", r->idle_wait_class[k]);
		json_object_end(j);
	}
	json_object_end(j);
	json_object(j, "closest_idle_cpu");
	for (int k = LOC_SMT; k < LOC_NR; k++)
		json_uint(j, locality_name((enum locality)k), r->idle_closest[k]);
	json_object_end(j);
	json_object_end(j);
}
