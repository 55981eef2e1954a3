/*
 * sched_idle.c - "idle CPUs passed over" in the text report and JSON: how many
 * timed wakeups waited on a busy CPU while a CPU their task could run on was
 * idle, by locality class, how close the idle CPU was, and where (rule: idle.h);
 * and which remote wakeups sent an IPI or found their CPU polling in idle, and the
 * IPIs that were no wakeup's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analyzers/stats.h"
#include "../common/util.h"
#include "json.h"
#include "sched_idle.h"
#include "sched_report.h"

static const char *const closest_label[LOC_NR] = { "-", "SMT sibling", "same LLC", "same node",
						   "other node" };

static bool knows(const struct sched_results *r, int k)
{
	return topology_knows(r->topo, (enum locality)k);
}

static const char *closest(const struct sched_results *r, int k)
{
	return k == LOC_NODE && !knows(r, LOC_LLC) ? topology_class_label(r->topo, LOC_NODE) :
						       closest_label[k];
}

static bool measured(const struct sched_results *r)
{
	return sched_measured(r, SM_idle_passed);
}

const char *sched_idle_rule(const struct sched_results *r)
{
	if (r->prov.source == PROV_BPF)
		return "target not idle from the wakeup to the run; an allowed CPU idle\n"
		       "   at the wakeup or when the task ran;\n"
		       "   affinity: the task's mask when it ran (read in the kernel)";
	return r->prov.affinity_calls ?
		       "target not idle from the wakeup to the run; an allowed CPU idle\n"
		       "   at the wakeup or when the task ran (idle: from its switch to the\n"
		       "   idle task until a task's event; a switch-in lost by the stream is\n"
		       "   inferred, the time before it unknown); affinity: each task's mask\n"
		       "   when tracing began and after each sched_setaffinity (read from /proc\n"
		       "   as the call returned), a new task its parent's (cpusets not seen)" :
		       "target not idle from the wakeup to the run; an allowed CPU idle\n"
		       "   at the wakeup or when the task ran (idle: from its switch to the\n"
		       "   idle task until a task's event; a switch-in lost by the stream is\n"
		       "   inferred, the time before it unknown); affinity: each task's mask\n"
		       "   when tracing began, a new task its parent's (sched_setaffinity is\n"
		       "   not traced here: a change after the start is not seen)";
}

/* What the idle wait is, as this source measures it. */
const char *sched_idle_wait_def(const struct sched_results *r)
{
	if (r->prov.source == PROV_BPF)
		return "per wait, the longest one allowed CPU idled in it (a\n"
		       "   lower bound of the time any did)";
	return "the time of those waits while any allowed CPU idled";
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

/* k of n sampled: "1.6-2.3%", the Wilson interval at 95% */
static const char *interval(uint64_t k, uint64_t n, char *buf, size_t len)
{
	double lo, hi;

	stats_wilson95((double)k, (double)n, &lo, &hi);
	snprintf(buf, len, "%.2f-%.2f%%", 100.0 * lo, 100.0 * hi);
	return buf;
}

/* A sampled count or wait scaled to the whole run (unchanged when every wakeup was timed). */
static uint64_t est(const struct sched_sample *m, uint64_t v)
{
	return m->sampled ? (uint64_t)((double)v * m->scale + 0.5) : v;
}

/* The headline: how many passed over, of which wakeups, and their idle wait. */
static void idle_headline(FILE *f, const struct sched_results *r, const struct sched_sample *m)
{
	char a[32], b[32], c[32], s[16], ci[32], t[32];

	if (!m->sampled) {
		fprintf(f, "   %s of %s timed wakeups (%s)\n   idle wait %s: %s\n",
			fmt_count(r->idle_passed, a, sizeof(a)), fmt_count(r->delay.count, b, sizeof(b)),
			fmt_share((double)r->idle_passed, (double)r->delay.count, 1, s, sizeof(s)),
			fmt_ns(r->idle_wait_ns, c, sizeof(c)), sched_idle_wait_def(r));
		return;
	}
	fprintf(f, "   est. %s of %s wakeups (%s, 95%% interval %s),\n"
		   "   from %s of %s timed (a 1-in-%u random sample, scaled by %.2f)\n",
		fmt_count(est(m, r->idle_passed), a, sizeof(a)),
		fmt_count(est(m, r->delay.count), b, sizeof(b)),
		fmt_share((double)r->idle_passed, (double)r->delay.count, 1, s, sizeof(s)),
		interval(r->idle_passed, r->delay.count, ci, sizeof(ci)),
		fmt_count(r->idle_passed, c, sizeof(c)), fmt_count(r->delay.count, t, sizeof(t)),
		m->every, m->scale);
	fprintf(f, "   idle wait est. %s: %s\n", fmt_ns(est(m, r->idle_wait_ns), c, sizeof(c)),
		sched_idle_wait_def(r));
}

/* By waker -> target class: passed over, the share of timed (its interval), the wait. */
static void idle_classes(FILE *f, const struct sched_results *r, const struct sched_sample *m)
{
	char a[32], c[32], s[16], ci[32];
	int w = topology_class_width(r->topo, 20);

	fprintf(f, "   %-*s %12s %12s %12s", w + 2, "waker CPU -> target CPU",
		m->sampled ? "est. passed" : "passed over", "of timed",
		m->sampled ? "est. wait" : "idle wait");
	fprintf(f, m->sampled ? " %13s\n" : "\n", "95% interval");
	for (int k = 0; k < LOC_NR; k++) {
		if (!r->delay_class[k].count || !knows(r, k))
			continue;
		fprintf(f, "     %-*s %12s %12s %12s", w,
			topology_class_label(r->topo, (enum locality)k),
			fmt_count(est(m, r->idle_passed_class[k]), a, sizeof(a)),
			fmt_share((double)r->idle_passed_class[k], (double)r->delay_class[k].count, 1,
				  s, sizeof(s)),
			fmt_ns(est(m, r->idle_wait_class[k]), c, sizeof(c)));
		if (m->sampled)
			fprintf(f, " %13s", interval(r->idle_passed_class[k],
						     r->delay_class[k].count, ci, sizeof(ci)));
		fputc('\n', f);
	}
}

/*
 * With much CPU time neither known busy nor idle (switch-ins the recording lacks),
 * the idle CPUs found are fewer than there were: say the counts are lower bounds.
 */
static void unknown_bound(FILE *f, const struct sched_results *r)
{
	double all = (double)(r->last_ns - r->first_ns) * r->ncpus;
	char s[16];

	if (!r->unknown_ns || r->last_ns <= r->first_ns || (double)r->unknown_ns < 0.1 * all)
		return;
	fprintf(f, "   lower bounds: %s of the CPU time is unknown (switch-ins the stream\n"
		   "   lost), never counted idle\n",
		fmt_share((double)r->unknown_ns, all, 1, s, sizeof(s)));
}

void sched_idle_text(FILE *f, const struct sched_results *r)
{
	char a[32];
	struct cpu_count *top;
	struct sched_sample m;
	int n = 0;

	if (!measured(r)) {
		if (r->prov.source == PROV_BPF)
			fprintf(f, "\n Idle CPUs passed over: not measured by BPF in the kernel on more "
				   "than %d CPUs\n (its idle masks stop there; --collector perf "
				   "measures it)\n", PROV_BPF_IDLE_CPUS);
		else if (r->prov.source == PROV_REPLAY && !r->prov.affinity_known &&
			 !(r->prov.not_recorded & (1u << EV_SWITCH | 1u << EV_WAKING)))
			fprintf(f, "\n Idle CPUs passed over: not computed: the file holds no task's "
				   "affinity (which\n CPUs a woken task could have used is not known; "
				   "perf record stores none,\n locus record does)\n");
		else
			fprintf(f, "\n Idle CPUs passed over: not measured by this collector (%s keeps "
				   "no idle-CPU state; --collector perf measures it)\n",
				prov_source_name(r->prov.source));
		return;
	}
	fprintf(f, "\n Idle CPUs passed over: woken tasks that waited on a busy CPU while one\n"
		   " they may run on was idle\n");
	sched_sample_of(r, &m);
	idle_headline(f, r, &m);
	if (r->idle_not_allowed)
		fprintf(f, "   %s%s more waited while only CPUs outside their affinity idled\n",
			m.sampled ? "est. " : "", fmt_count(est(&m, r->idle_not_allowed), a, sizeof(a)));
	if (r->affinity_unknown)
		fprintf(f, "   %s tasks of unknown affinity (neither there when tracing began nor\n"
			   "   a fork seen): their wakeups not judged\n",
			fmt_count(r->affinity_unknown, a, sizeof(a)));
	fprintf(f, "   rule: %s\n", sched_idle_rule(r));
	unknown_bound(f, r);
	if (!r->idle_passed)
		return;
	idle_classes(f, r, &m);
	fprintf(f, "   closest idle%s:", m.sampled ? " (est.)" : "");
	for (int k = LOC_SMT; k < LOC_NR; k++)
		if (knows(r, k))
			fprintf(f, "%s %s %s", k == LOC_SMT ? "" : ",", closest(r, k),
				fmt_count(est(&m, r->idle_closest[k]), a, sizeof(a)));
	fputc('\n', f);
	top = xcalloc((size_t)r->ncpus + 1, sizeof(*top));
	for (int k = 0; k < r->ncpus; k++)
		if (r->cpu[k].idle_passed)
			top[n++] = (struct cpu_count){ k, est(&m, r->cpu[k].idle_passed) };
	qsort(top, (size_t)n, sizeof(*top), by_count);
	{ /* as many as fit in 80 columns */
		char line[96];
		int at = snprintf(line, sizeof(line), "   waited most on%s", m.sampled ? " (est.)" : ""),
		    k = 0;

		for (; k < n; k++) {
			char item[48];
			int len = snprintf(item, sizeof(item), "%s CPU %d (%s)", k ? "," : "",
					   top[k].cpu, fmt_count(top[k].n, a, sizeof(a)));

			if (at + len > 74)
				break;
			at += snprintf(line + at, sizeof(line) - (size_t)at, "%s", item);
		}
		fprintf(f, "%s%s\n", line, k < n ? ", ..." : "");
	}
	free(top);
}

/* text as one line: no newlines, no runs of spaces */
static const char *one_line(const char *text, char *buf, size_t len)
{
	char *o = buf;

	for (const char *p = text; *p && o < buf + len - 1; p++)
		if (*p != '\n' && !(*p == ' ' && o > buf && o[-1] == ' '))
			*o++ = *p;
	*o = '\0';
	return buf;
}

/* "share_pct" of k in n, and "share_ci95_pct": [lo, hi] when sampled (null when exact) */
static void share_json(struct json *j, const struct sched_sample *m, uint64_t k, uint64_t n)
{
	double lo, hi;

	if (!n) {
		json_null(j, "share_pct");
		json_null(j, "share_ci95_pct");
		return;
	}
	json_number(j, "share_pct", 100.0 * (double)k / (double)n);
	if (!m->sampled) {
		json_null(j, "share_ci95_pct"); /* every wakeup timed: exact */
		return;
	}
	stats_wilson95((double)k, (double)n, &lo, &hi);
	json_array(j, "share_ci95_pct");
	json_number(j, NULL, 100.0 * lo);
	json_number(j, NULL, 100.0 * hi);
	json_array_end(j);
}

void sched_idle_json(struct json *j, const struct sched_results *r)
{
	char line[512];
	struct sched_sample m;

	if (!measured(r)) {
		json_null(j, "idle_passed_over_detail");
		return;
	}
	json_object(j, "idle_passed_over_detail");
	json_string(j, "rule", one_line(sched_idle_rule(r), line, sizeof(line)));
	json_string(j, "idle_wait", one_line(sched_idle_wait_def(r), line, sizeof(line)));
	json_bool(j, "affinity_known", r->prov.affinity_known);
	json_uint(j, "timed_wakeups", r->delay.count);
	sched_sample_of(r, &m);
	share_json(j, &m, r->idle_passed, r->delay.count);
	json_object(j, "estimated"); /* of the whole run: the sample's counts and waits scaled */
	json_uint(j, "passed_over", est(&m, r->idle_passed));
	json_uint(j, "not_allowed", est(&m, r->idle_not_allowed));
	json_uint(j, "wakeups", est(&m, r->delay.count));
	json_uint(j, "idle_wait_ns", est(&m, r->idle_wait_ns));
	json_object_end(j);
	json_object(j, "by_class");
	for (int k = 0; k < LOC_NR; k++) {
		if (!knows(r, k))
			continue;
		json_object(j, locality_name((enum locality)k));
		json_uint(j, "passed_over", r->idle_passed_class[k]);
		json_uint(j, "timed", r->delay_class[k].count);
		json_uint(j, "idle_wait_ns", r->idle_wait_class[k]);
		share_json(j, &m, r->idle_passed_class[k], r->delay_class[k].count);
		json_uint(j, "estimated_passed_over", est(&m, r->idle_passed_class[k]));
		json_uint(j, "estimated_idle_wait_ns", est(&m, r->idle_wait_class[k]));
		json_object_end(j);
	}
	json_object_end(j);
	json_object(j, "closest_idle_cpu");
	for (int k = LOC_SMT; k < LOC_NR; k++)
		if (knows(r, k))
			json_uint(j, locality_name((enum locality)k), r->idle_closest[k]);
	json_object_end(j);
	json_object_end(j);
}

static uint64_t remote(const struct sched_results *r, int k)
{
	return k == LOC_SAME_CPU ? 0 : r->by_class[k];
}

/* Why a source read no IPIs (the report's line, wrapped at its indent). */
static const char *ipi_unmeasured_why(const struct provenance *p)
{
	if (p->ipis_not_asked && p->source == PROV_BPF)
		return "the BPF collector without --ipis loads no program on\n"
		       "   ipi:ipi_send_cpu or sched_wake_idle_without_ipi (--ipis: two more,\n"
		       "   on kernels 6.5 and later; their cost in docs/cost.md)";
	if (p->ipis_not_asked)
		return "the perf stream without --ipis reads no\n"
		       "   ipi:ipi_send_cpu or sched_wake_idle_without_ipi (--ipis: a sample on\n"
		       "   each remote wakeup's path, on kernels 6.5 and later; its cost in\n"
		       "   docs/cost.md)";
	if (p->source == PROV_REPLAY)
		return "the file has no ipi:ipi_send_cpu or\n"
		       "   sched_wake_idle_without_ipi records (perf sched record writes none),\n"
		       "   or no sched_waking to attribute them to";
	return "this kernel has no ipi:ipi_send_cpu or\n"
	       "   sched_wake_idle_without_ipi tracepoint (kernels 6.5 and later have them)";
}

void sched_ipi_text(FILE *f, const struct sched_results *r)
{
	bool ipi = sched_measured(r, SM_wakeups_ipi), poll = sched_measured(r, SM_wakeups_no_ipi);
	uint64_t rem = 0;
	char a[32], b[32], c[32], s1[16], s2[16];
	int w;

	if (!ipi && !poll) {
		fprintf(f, "   IPIs: not measured: %s\n", ipi_unmeasured_why(&r->prov));
		return;
	}
	for (int k = 0; k < LOC_NR; k++)
		rem += remote(r, k);
	{
		char t[240];

		snprintf(t, sizeof(t), "remote wakeups %s: sent an IPI %s, woke a polling idle CPU "
			 "without one:\x1f%s", fmt_count(rem, a, sizeof(a)),
			 ipi ? fmt_count(r->wakeups_ipi, b, sizeof(b)) : "(not measured)",
			 poll ? fmt_count(r->wakeups_no_ipi, c, sizeof(c)) : "(not measured)");
		fprint_folded(f, "   ", t, 3, 80);
	}
	fprintf(f, "     (a wakeup's: from the waker's CPU to the wakee's target CPU before it ran)\n");
	if (ipi)
		fprintf(f, "   other IPIs sent while traced tasks ran: %s reschedule, %s function call\n"
			   "     (none a traced remote wakeup's: e.g. smp_call_function after a\n"
			   "     same-CPU wakeup, TLB shootdowns, wakeups of running tasks)\n",
			fmt_count(r->ipis_resched_other, b, sizeof(b)),
			fmt_count(r->ipis_call_other, c, sizeof(c)));
	if (!rem || !(r->wakeups_ipi + r->wakeups_no_ipi))
		return;
	w = topology_class_width(r->topo, 20);
	fprintf(f, "     %-*s %12s %8s %8s\n", w, "waker -> target", "remote", "IPI", "no IPI");
	for (int k = LOC_SMT; k < LOC_NR; k++) {
		if ((!remote(r, k) && !r->ipi_class[k] && !r->no_ipi_class[k]) || !knows(r, k))
			continue;
		fprintf(f, "     %-*s %12s %8s %8s\n", w,
			topology_class_label(r->topo, (enum locality)k),
			fmt_count(remote(r, k), a, sizeof(a)),
			ipi ? fmt_share((double)r->ipi_class[k], (double)remote(r, k), 0, s1,
					sizeof(s1)) : "-",
			poll ? fmt_share((double)r->no_ipi_class[k], (double)remote(r, k), 0, s2,
					 sizeof(s2)) : "-");
	}
}

void sched_ipi_json(struct json *j, const struct sched_results *r)
{
	bool ipi = sched_measured(r, SM_wakeups_ipi), poll = sched_measured(r, SM_wakeups_no_ipi);

	if (!ipi && !poll) {
		json_null(j, "ipi_by_class");
		json_null(j, "other_ipis");
		return;
	}
	if (ipi) { /* IPIs sent while traced tasks ran, none a traced remote wakeup's */
		json_object(j, "other_ipis");
		sched_measures_json(j, r, "other_ipis");
		json_string(j, "rule", "ipi:ipi_send_cpu sent while a traced task ran, not from "
			    "a traced wakeup's CPU to its wakee's target CPU before the wakee ran; "
			    "reschedule: no callback (smp_send_reschedule), function_call: a "
			    "callback (smp_call_function)");
		json_object_end(j);
	} else {
		json_null(j, "other_ipis");
	}
	json_object(j, "ipi_by_class");
	for (int k = LOC_SMT; k < LOC_NR; k++) {
		if (!knows(r, k))
			continue;
		json_object(j, locality_name((enum locality)k));
		json_uint(j, "remote_wakeups", remote(r, k));
		if (ipi)
			json_uint(j, "ipi_sent", r->ipi_class[k]);
		else
			json_null(j, "ipi_sent");
		if (poll)
			json_uint(j, "polling_idle_no_ipi", r->no_ipi_class[k]);
		else
			json_null(j, "polling_idle_no_ipi");
		json_object_end(j);
	}
	json_object_end(j);
}
