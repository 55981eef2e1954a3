/* blame_report.c - "Why woken tasks waited" (blame_report.h): the split of the waits by
 * cause, the tasks and handlers to blame, by locality class and CPU, the worst chains. */
#include "blame_report.h"

#include <inttypes.h>
#include <string.h>

#include "../common/util.h"
#include "sched_report.h"

#define SHARE(a, b, buf) fmt_share((double)(a), (double)(b), 1, buf, sizeof(buf))
#define TOP_TASKS 10

static bool irq_cause(int c)
{
	return c == BC_HARDIRQ || c == BC_SOFTIRQ;
}

static void causes_text(FILE *f, const struct blame_results *r)
{
	char a[32], b[32], d[32], t[400];

	fprintf(f, "   %-34s %12s %7s%s\n", "cause", "time", "share",
		r->in_kernel && r->sample_every > 1 ? "  95% interval" : "");
	for (int c = 0; c < BC_NR; c++) {
		if (irq_cause(c) && !r->irq_source) {
			fprintf(f, "   %-34s %12s %7s\n", blame_cause_label(c), "not recorded", "");
			continue;
		}
		fprintf(f, "   %-34s %12s %7s", blame_cause_label(c),
			fmt_ns(r->all.ns[c], a, sizeof(a)), SHARE(r->all.ns[c], r->all.wait_ns, b));
		if (r->in_kernel && r->sample_every > 1)
			fprintf(f, "  [%.1f%%, %.1f%%]", 100 * r->share_lo[c], 100 * r->share_hi[c]);
		fputc('\n', f);
	}
	if (r->in_kernel && r->sample_every > 1)
		fprintf(f, "   (the 95%% interval: over the wakeups split, each one a cluster: the ratio "
			   "estimator's, Student's t;\n   a cause in none of them: [0, a bound], the "
			   "rule of three's share of the wakeups,\n   each as long as the longest wait "
			   "sampled: not an estimate;\n   a cause in fewer than 10: its upper end "
			   "at least the same bound for that many (Poisson);\n   the seen causes' "
			   "lower ends shrink by the unseen's bound)\n");
	snprintf(t, sizeof(t), "beside the split, idle passed over: %s of the wakeups waited "
		 "while an idle CPU they were allowed on was there, %s of their wait while one "
		 "idled (%s of all the wait)", fmt_count(r->all.idle_passed, a, sizeof(a)),
		 fmt_ns(r->all.idle_passed_ns, b, sizeof(b)), SHARE(r->all.idle_passed_ns,
								   r->all.wait_ns, d));
	fprint_folded(f, "   ", t, 3, 80);
	if (!r->irq_source)
		fprintf(f, "   interrupts: not recorded (they stay inside the tasks' time; record "
			   "with --blame:\n   irq:irq_handler_entry/exit, irq:softirq_entry/exit)\n");
	else if (r->in_kernel)
		fprintf(f, "   interrupts: by kind only (the BPF collector does not name the "
			   "handlers)\n");
	if (r->in_kernel && r->culprits_dropped_ns)
		fprintf(f, "   %s ran instead by tasks the kernel's table had no room for (in the "
			   "causes, in no task's row)\n", fmt_ns(r->culprits_dropped_ns, a, sizeof(a)));
}

static void tasks_text(FILE *f, const struct blame_results *r)
{
	char a[32], b[32], c[32], d[32], e[32], g[32];

	if (!r->nculprits) {
		fprintf(f, "\n   No task ran on a woken task's CPU while it waited.\n");
		return;
	}
	fprintf(f, "\n   Tasks to blame (ran on the CPU the wakee waited for)\n");
	fprintf(f, "   %-16s %8s %11s %6s %9s %11s %11s %9s\n", "task", "tid", "inflicted",
		"share", "wakeups", "running", "ahead", "p99 share");
	for (int i = 0; i < r->nculprits && i < TOP_TASKS; i++) {
		const struct blame_culprit *k = &r->culprits[i];

		fprintf(f, "   %-16.16s %8d %11s %6s %9s %11s %11s %9s\n",
			k->comm[0] ? k->comm : "?", (int)k->tid, fmt_ns(k->ns, a, sizeof(a)),
			SHARE(k->ns, r->all.wait_ns, b), fmt_count(k->wakeups, c, sizeof(c)),
			fmt_ns(k->running_ns, d, sizeof(d)), fmt_ns(k->ahead_ns, e, sizeof(e)),
			r->p99_known ? SHARE(k->p99_ns, r->p99_wait_ns, g) : "-");
	}
	if (r->nculprits > TOP_TASKS)
		fprintf(f, "   ... %s more tasks (JSON has them all)\n",
			fmt_count((uint64_t)(r->nculprits - TOP_TASKS), a, sizeof(a)));
	if (r->p99_known)
		fprintf(f, "   p99 wakeups: the %s that waited %s or more, %s in all\n",
			fmt_count(r->p99_wakeups, a, sizeof(a)), fmt_ns(r->p99_ns, b, sizeof(b)),
			fmt_ns(r->p99_wait_ns, c, sizeof(c)));
	else if (r->in_kernel)
		fprintf(f, "   p99 share: not computed (split in the kernel: no wait is kept)\n");
	else
		fprintf(f, r->p99_off ? "   p99 share: not computed (a live dashboard keeps no record of "
					"each wakeup)\n" :
			"   p99 share: not computed (more than %d timed wakeups kept)\n", BLAME_P99_MAX);
}

static void irqs_text(FILE *f, const struct blame_results *r)
{
	char a[32], b[32], c[32];

	if (!r->irq_source || !r->nirqs)
		return;
	fprintf(f, "\n   Interrupts in the waits\n   %-8s %-16s %12s %7s %9s\n", "kind", "name", "time",
		"share", "wakeups");
	for (int i = 0; i < r->nirqs; i++) {
		const struct blame_irq *q = &r->irqs[i];

		if (!q->ns)
			continue;
		fprintf(f, "   %-8s %-16s %12s %7s %9s\n", q->soft ? "softirq" : "hardirq",
			q->name, fmt_ns(q->ns, a, sizeof(a)), SHARE(q->ns, r->all.wait_ns, b),
			fmt_count(q->wakeups, c, sizeof(c)));
	}
}

/* One row of a split: wakeups, the wait, and each cause's share of it. */
static void split_row(FILE *f, const char *label, const struct blame_split *s, bool irq)
{
	char a[32], b[32], c[BC_NR][16];
	uint64_t ran = s->ns[BC_RUNNING] + s->ns[BC_AHEAD];
	uint64_t irqs = s->ns[BC_HARDIRQ] + s->ns[BC_SOFTIRQ];

	fprintf(f, "   %-23s %9s %11s %7s %7s %7s %7s %7s\n", label,
		fmt_count(s->wakeups, a, sizeof(a)), fmt_ns(s->wait_ns, b, sizeof(b)),
		SHARE(ran, s->wait_ns, c[0]), irq ? SHARE(irqs, s->wait_ns, c[1]) : "n/r",
		SHARE(s->ns[BC_ELSEWHERE], s->wait_ns, c[2]),
		SHARE(s->ns[BC_IDLE] + s->ns[BC_UNKNOWN], s->wait_ns, c[3]),
		SHARE(s->idle_passed_ns, s->wait_ns, c[4]));
}

static void splits_text(FILE *f, const struct blame_results *r, const struct topology *topo)
{
	char label[48];

	fprintf(f, "\n   %-23s %9s %11s %7s %7s %7s %7s %7s\n", "where it ran", "wakeups", "waited",
		"ran", "irq", "elsewh", "idle/un", "passed");
	for (int c = 0; c < LOC_NR; c++) {
		if (!r->by_class[c].wakeups)
			continue;
		snprintf(label, sizeof(label), "%s", topology_class_label(topo, (enum locality)c));
		split_row(f, label, &r->by_class[c], r->irq_source);
	}
	for (int c = 0; c < r->ncpus; c++) {
		if (!r->cpu[c].wakeups)
			continue;
		snprintf(label, sizeof(label), "CPU %d", c);
		split_row(f, label, &r->cpu[c], r->irq_source);
	}
	fprint_folded(f, "   ", "(classes: the CPU it ran on seen from its waker's; ran: ran "
		      "instead; idle/un: its CPU idle or unattributed; passed: an allowed CPU "
		      "idled, beside the split)", 3, 80);
}

static void chains_text(FILE *f, const struct blame_results *r)
{
	char a[32], b[32], line[1024];
	size_t at = 0;

	if (r->in_kernel) {
		fprintf(f, "\n   Chains: not measured by the BPF collector (--collector perf "
			   "measures them)\n");
		return;
	}
	fprintf(f, "\n   Chains (the waker had just been woken itself): wakeups by chain length\n");
	line[0] = '\0';
	if (r->chain_len[1])
		at += (size_t)snprintf(line, sizeof(line), "1 (no task woke it): %s",
				       fmt_count(r->chain_len[1], a, sizeof(a)));
	for (int n = 2; n <= BLAME_CHAIN_MAX && at < sizeof(line); n++)
		if (r->chain_len[n])
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%d\x1ftasks:\x1f%s%s",
					       at ? "; " : "", n,
					       fmt_count(r->chain_len[n], a, sizeof(a)),
					       n == BLAME_CHAIN_MAX ? "\x1f(or\x1fmore)" : "");
	fprint_folded(f, "   ", at ? line : "none", 3, 80);
	for (int i = 0; i < r->nworst; i++) {
		const struct blame_chain *c = &r->worst[i];

		at = (size_t)snprintf(line, sizeof(line), "%d tasks, compound delay %s:", c->len,
				      fold_glue((char *)fmt_ns(c->compound_ns, a, sizeof(a))));
		for (int k = 0; k < c->len && at < sizeof(line); k++) { /* a link: one word */
			char comm[sizeof(c->link[k].comm) + 1];

			snprintf(comm, sizeof(comm), "%s", c->link[k].comm[0] ? c->link[k].comm : "?");
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s\x1f(%d)%s%s",
					       k ? " ->" : "", fold_glue(comm),
					       (int)c->link[k].tid, k ? "\x1f+" : "",
					       k ? fold_glue((char *)fmt_ns(c->link[k].delay_ns, b,
									    sizeof(b))) : "");
		}
		fprint_folded(f, "   ", line, 5, 80);
	}
}

void blame_report_text(FILE *f, const struct blame_results *r, const struct topology *topo,
		       const char *why)
{
	char a[32], b[32], t[400];

	fprintf(f, "\n Why woken tasks waited\n");
	if (!r || !r->all.wakeups) {
		fprintf(f, "   not measured: %s\n", r ? "no timed wakeup" : why);
		return;
	}
	if (r->in_kernel && r->sample_every > 1)
		snprintf(t, sizeof(t), "%s timed wakeups waited %s in all (wake to run, split by "
			 "cause in the kernel by the BPF collector: the timed wakeups, 1 in %u, "
			 "sampled; intervals over them)", fmt_count(r->all.wakeups, a, sizeof(a)),
			 fmt_ns(r->all.wait_ns, b, sizeof(b)), r->sample_every);
	else if (r->in_kernel)
		snprintf(t, sizeof(t), "%s timed wakeups waited %s in all (wake to run, split by "
			 "cause in the kernel by the BPF collector: every wakeup timed, none "
			 "sampled)", fmt_count(r->all.wakeups, a, sizeof(a)),
			 fmt_ns(r->all.wait_ns, b, sizeof(b)));
	else
		snprintf(t, sizeof(t), "%s timed wakeups waited %s in all (wake to run, split by "
			 "cause: every event)", fmt_count(r->all.wakeups, a, sizeof(a)),
			 fmt_ns(r->all.wait_ns, b, sizeof(b)));
	fprint_folded(f, "   ", t, 3, 80);
	causes_text(f, r);
	if (r->in_kernel && r->beyond_history)
		fprintf(f, "   %s wakeups waited since before the oldest of the %d run segments "
			   "their CPU kept (the rest\n   unattributed)\n",
			fmt_count(r->beyond_history, a, sizeof(a)), BLAME_KERNEL_RING);
	else if (r->beyond_history || r->untimed)
		fprintf(f, "   %s wakeups waited longer than the %.0f s of history kept (the "
			   "rest unattributed);\n   %s wakeups not timed (their switch-in was not "
			   "recorded)\n", fmt_count(r->beyond_history, a, sizeof(a)),
			(double)BLAME_KEEP_NS / 1e9, fmt_count(r->untimed, b, sizeof(b)));
	tasks_text(f, r);
	irqs_text(f, r);
	splits_text(f, r, topo);
	chains_text(f, r);
}

static void split_json(struct json *j, const char *key, const struct blame_split *s, bool irq)
{
	json_object(j, key);
	json_uint(j, "wakeups", s->wakeups);
	json_uint(j, "wait_ns", s->wait_ns);
	for (int c = 0; c < BC_NR; c++) {
		char k[40];

		snprintf(k, sizeof(k), "%s_ns", blame_cause_name(c));
		if (irq_cause(c) && !irq)
			json_null(j, k);
		else
			json_uint(j, k, s->ns[c]);
	}
	json_uint(j, "idle_passed", s->idle_passed);
	json_uint(j, "idle_passed_ns", s->idle_passed_ns);
	json_object_end(j);
}

static void tasks_json(struct json *j, const struct blame_results *r)
{
	json_array(j, "tasks");
	for (int i = 0; i < r->nculprits; i++) {
		const struct blame_culprit *k = &r->culprits[i];

		json_object(j, NULL);
		json_int(j, "tid", k->tid);
		json_string(j, "comm", k->comm);
		json_uint(j, "inflicted_ns", k->ns);
		json_uint(j, "running_ns", k->running_ns);
		json_uint(j, "ahead_ns", k->ahead_ns);
		json_uint(j, "wakeups", k->wakeups);
		if (r->p99_known)
			json_uint(j, "p99_ns", k->p99_ns);
		else
			json_null(j, "p99_ns");
		json_object_end(j);
	}
	json_array_end(j);
}

static void irqs_json(struct json *j, const struct blame_results *r)
{
	json_array(j, "interrupts");
	for (int i = 0; r->irq_source && i < r->nirqs; i++) {
		json_object(j, NULL);
		json_string(j, "kind", r->irqs[i].soft ? "softirq" : "hardirq");
		json_int(j, "num", r->irqs[i].num);
		json_string(j, "name", r->irqs[i].name);
		json_uint(j, "ns", r->irqs[i].ns);
		json_uint(j, "wakeups", r->irqs[i].wakeups);
		json_object_end(j);
	}
	json_array_end(j);
	json_uint(j, "interrupts_other_ns", r->irq_other_ns);
}

static void chains_json(struct json *j, const struct blame_results *r)
{
	if (r->in_kernel) { /* not measured by the BPF collector */
		json_null(j, "chains");
		return;
	}
	json_object(j, "chains");
	json_uint_row(j, "by_length", r->chain_len, BLAME_CHAIN_MAX + 1);
	json_array(j, "worst");
	for (int i = 0; i < r->nworst; i++) {
		const struct blame_chain *c = &r->worst[i];

		json_object(j, NULL);
		json_int(j, "length", c->len);
		json_uint(j, "compound_ns", c->compound_ns);
		json_uint(j, "run_ns", c->run_ns);
		json_array(j, "links");
		for (int k = 0; k < c->len; k++) {
			json_object(j, NULL);
			json_int(j, "tid", c->link[k].tid);
			json_string(j, "comm", c->link[k].comm);
			json_uint(j, "delay_ns", c->link[k].delay_ns);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* Split in the kernel: the method, the sampling and each cause's interval. */
static void kernel_json(struct json *j, const struct blame_results *r)
{
	json_string(j, "method", "BPF, in the kernel: each timed wakeup's wait on the CPU it "
				 "ran on, split by the run segments kept there (the last 128 a CPU, "
				 "written while a timed wakeup waits for it) "
				 "and its hardirq and softirq time (a segment's in proportion where "
				 "the wait began inside it)");
	json_uint(j, "sampled_every", r->sample_every);
	json_uint(j, "culprits_dropped_ns", r->culprits_dropped_ns);
	if (r->sample_every <= 1) { /* every wakeup: no sampling to bound */
		json_null(j, "share_interval95");
		return;
	}
	json_string(j, "interval_method", "over the wakeups split, each a cluster: the ratio "
					  "estimator's interval (Student's t); a cause in none of them: "
					  "[0, a bound]: 1 - 0.05^(1/n) of the wakeups carrying it at "
					  "most (exact binomial, the rule of three), each as long as the "
					  "longest wait sampled; a cause in fewer than 10 of them: its "
					  "upper end at least the one-sided 95% Poisson bound for that "
					  "many, each as long as the longest wait; the seen causes' lower "
					  "ends shrink by the unseen causes' bound");
	json_object(j, "share_interval95");
	for (int c = 0; c < BC_NR; c++) {
		json_array(j, blame_cause_name(c));
		json_number(j, NULL, r->share_lo[c]);
		json_number(j, NULL, r->share_hi[c]);
		json_array_end(j);
	}
	json_object_end(j);
}

void blame_report_json(struct json *j, const struct blame_results *r,
		       const struct topology *topo, const char *why)
{
	if (!r) {
		json_null(j, "blame");
		json_string(j, "blame_why", why);
		return;
	}
	json_object(j, "blame");
	if (r->in_kernel)
		kernel_json(j, r);
	else
		json_string(j, "method", "every event: each timed wakeup's wait on the CPU it ran "
					 "on, split by what ran there (sched_switch) and the "
					 "interrupt handlers (irq tracepoints)");
	json_bool(j, "interrupts_recorded", r->irq_source);
	split_json(j, "all", &r->all, r->irq_source);
	json_uint(j, "beyond_history", r->beyond_history);
	json_uint(j, "untimed", r->untimed);
	json_uint(j, "verdicts_unmatched", r->verdicts_unmatched);
	json_object(j, "p99");
	json_bool(j, "known", r->p99_known);
	json_uint(j, "wait_ns", r->p99_ns);
	json_uint(j, "wakeups", r->p99_wakeups);
	json_uint(j, "total_ns", r->p99_wait_ns);
	for (int c = 0; c < BC_NR; c++) {
		char k[40];

		snprintf(k, sizeof(k), "%s_ns", blame_cause_name(c));
		json_uint(j, k, r->p99_ns_by[c]);
	}
	json_object_end(j);
	tasks_json(j, r);
	irqs_json(j, r);
	json_object(j, "by_class");
	for (int c = 0; c < LOC_NR; c++)
		if (r->by_class[c].wakeups || topology_knows(topo, (enum locality)c))
			split_json(j, locality_name((enum locality)c), &r->by_class[c],
				   r->irq_source);
	json_object_end(j);
	json_array(j, "cpus");
	for (int c = 0; c < r->ncpus; c++) {
		if (!r->cpu[c].wakeups)
			continue;
		json_object(j, NULL);
		json_int(j, "cpu", c);
		split_json(j, "split", &r->cpu[c], r->irq_source);
		json_object_end(j);
	}
	json_array_end(j);
	chains_json(j, r);
	json_object_end(j);
}
