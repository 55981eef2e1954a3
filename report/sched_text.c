/* sched_text.c - scheduler results as the text sections engineers paste into mail. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "heatmap.h"
#include "prov_report.h"
#include "names.h"
#include "sched_idle.h"
#include "sched_report.h"

#define TOP_ROWS 10

int report_sections_parse(const char *s, unsigned *mask, char *bad, size_t len)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "counters", SEC_COUNTERS }, { "wakeups", SEC_WAKEUPS },
		{ "latency", SEC_LATENCY },   { "pairs", SEC_PAIRS },
		{ "migrations", SEC_MIGRATIONS }, { "switches", SEC_SWITCHES },
		{ "cpus", SEC_CPUS },	      { "cachelines", SEC_CACHELINES },
		{ "all", SEC_ALL },	      { "blame", SEC_BLAME },
	};
	char *copy = xstrdup(s), *save = NULL;

	*mask = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(w, names[i].name))
				break;
		if (i == ARRAY_SIZE(names)) {
			snprintf(bad, len, "%s", w);
			free(copy);
			return -1;
		}
		*mask |= names[i].bit;
	}
	free(copy);
	if (!*mask) {
		snprintf(bad, len, "%s", s);
		return -1;
	}
	return 0;
}

/* Shorthand for the shares in the tables below. */
#define SHARE(a, b, d, buf) fmt_share((double)(a), (double)(b), d, buf, sizeof(buf))

static void bar(FILE *f, uint64_t v, uint64_t max, int width)
{
	int n = max ? (int)((double)v * width / (double)max + 0.5) : 0;

	if (v && n == 0)
		n = 1;
	for (int i = 0; i < width; i++)
		fputc(i < n ? '#' : ' ', f);
}


#define NAME_W 20	/* a task's column: its comm shortened to fit, never its tid */

static void header(FILE *f, const struct sched_results *r, const struct sched_report_ctx *c)
{
	const struct topology *t = r->topo;
	char a[32], b[32], scope[96];

	fprintf(f, "\n Scheduler: %s\n", prov_scope_text(&r->prov, scope, sizeof(scope)));
	prov_report_text(f, r, c->samples, c->bytes);
	if (r->lost && r->prov.keep_pages)
		fprintf(f, "   WARNING: the kernel dropped %" PRIu64 " records: counts below are "
			   "low;\n   -m %d would have kept them (the ring plus twice its largest "
			   "overflow)\n", r->lost, r->prov.keep_pages);
	else if (r->lost)
		fprintf(f, "   WARNING: the kernel dropped %" PRIu64 " records: counts below are "
			   "low (raise -m)\n", r->lost);
	if (r->switch_in_inferred && sched_measured(r, SM_switch_in_missed)) {
		fprintf(f, "   note: %s switch-in%s inferred: the recording lacks %s (the kernel\n"
			   "   switched but sent no record, beyond any the rings lost): a task's\n"
			   "   own event showed it running (CPU",
			fmt_count(r->switch_in_inferred, a, sizeof(a)),
			r->switch_in_inferred == 1 ? "" : "s",
			r->switch_in_inferred == 1 ? "it" : "them");
		for (int cpu = 0, n = 0; cpu < r->ncpus && n < 8; cpu++)
			if (r->cpu[cpu].switch_in_inferred * 20 >= r->switch_in_inferred)
				fprintf(f, "%s%d", n++ ? "," : " ", cpu);
		fprintf(f, ").\n   The CPU time before each, from the CPU's last known event, is\n"
			   "   unknown (%s), never counted idle",
			fmt_ns(r->unknown_ns, b, sizeof(b)));
		if (r->switch_in_missed)
			fprintf(f, ";\n   %s woken task%s placed by the first event %s ran, %s\n"
				   "   wake-to-run delay not measured",
				fmt_count(r->switch_in_missed, a, sizeof(a)),
				r->switch_in_missed == 1 ? " was" : "s were",
				r->switch_in_missed == 1 ? "it" : "they",
				r->switch_in_missed == 1 ? "its" : "their");
		fprintf(f, "\n");
	} else if (r->switch_in_missed) {
		fprintf(f, "   note: %s woken task%s seen running before any switch on %s CPU\n"
			   "   was recorded: placed by the first event %s ran, delay not measured\n",
			fmt_count(r->switch_in_missed, a, sizeof(a)),
			r->switch_in_missed == 1 ? " was" : "s were",
			r->switch_in_missed == 1 ? "its" : "their",
			r->switch_in_missed == 1 ? "it" : "they");
	}
	{
		char line[512], llc[48];
		int n;

		if (t->llc_known)
			snprintf(llc, sizeof(llc), "%d LLC group%s (L%d)", t->nllcs,
				 t->nllcs == 1 ? "" : "s", t->llc_level);
		else
			snprintf(llc, sizeof(llc), "LLC unknown");
		n = snprintf(line, sizeof(line), "   topology: %d CPUs, %d cores, %s, %d node%s",
			     t->nonline, t->ncores, llc, t->nnodes, t->nnodes == 1 ? "" : "s");
		/* the source on the same line when it fits the width */
		if (n + 3 + (int)strlen(t->source) <= (c->width > 0 ? c->width : 80))
			fprintf(f, "%s [%s]\n", line, t->source);
		else
			fprintf(f, "%s\n   [%s]\n", line, t->source);
	}
	if (!t->llc_known)
		fprintf(f, "   note: the topology has no cache information, so which CPUs share a\n"
			   "   last-level cache is unknown: no LLC class is counted, and CPUs that\n"
			   "   share a node count as 'same node (LLC unknown)'\n");
}

static void class_table(FILE *f, const struct topology *t, const uint64_t *by_class,
			uint64_t total, const char *what)
{
	int w = topology_class_width(t, 20);
	uint64_t max = 0;
	char buf[32], sh[16];

	for (int c = 0; c < LOC_NR; c++)
		if (by_class[c] > max)
			max = by_class[c];
	fprintf(f, "   %-*s %12s %8s\n", w + 2, what, "count", "share");
	for (int c = 0; c < LOC_NR; c++) {
		if (!topology_knows(t, (enum locality)c))
			continue; /* nothing can land there: no row claims it */
		fprintf(f, "     %-*s %12s %8s  ", w, topology_class_label(t, (enum locality)c),
			fmt_count(by_class[c], buf, sizeof(buf)), SHARE(by_class[c], total, 1, sh));
		bar(f, by_class[c], max, 24);
		fputc('\n', f);
	}
}

static int report_width(const struct sched_report_ctx *c)
{
	return c->width >= 40 ? c->width : 80;
}

/* Most heatmap groups that fit: labels take 12 columns, cells at least one. */
static int map_groups(const struct sched_report_ctx *c)
{
	return report_width(c) - 14;
}

/* Class k's label, its blanks glued so a folded line never parts it (buf: 32 bytes). */
static const char *glued_label(const struct topology *t, int k, char *buf)
{
	snprintf(buf, 32, "%s", topology_class_label(t, (enum locality)k));
	return fold_glue(buf);
}

/*
 * The timed wakeups by the CPU each ran on, seen from its waker's: the classes blame, the
 * stacks and the timelines count, with what moved them from the target's class above.
 */
static void ran_on_text(FILE *f, const struct sched_results *r)
{
	uint64_t col[LOC_NR] = { 0 }, timed = 0;
	char line[800], a[32], b[32], c[32];
	size_t at;

	if (!r->ran_known)
		return;
	for (int t = 0; t < LOC_NR; t++)
		for (int k = 0; k < LOC_NR; k++) {
			col[k] += r->ran_class[t][k];
			timed += r->ran_class[t][k];
		}
	if (!timed)
		return;
	at = (size_t)snprintf(line, sizeof(line), "by the CPU each ran on, seen from its waker's "
			      "(as blame, the stacks and the timelines count), the %s timed:",
			      fmt_count(timed, a, sizeof(a)));
	for (int k = 0, n = 0; k < LOC_NR && at < sizeof(line); k++)
		if (col[k])
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s %s",
					       n++ ? "," : "", glued_label(r->topo, k, b),
					       fmt_count(col[k], a, sizeof(a)));
	for (int t = 0, n = 0; t < LOC_NR; t++) /* the moves between the two */
		for (int k = 0; k < LOC_NR && at < sizeof(line); k++)
			if (t != k && r->ran_class[t][k])
				at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s ->\x1f%s "
						       "%s", n++ ? "," : "; from the classes above:",
						       glued_label(r->topo, t, c),
						       glued_label(r->topo, k, b),
						       fmt_count(r->ran_class[t][k], a, sizeof(a)));
	if (r->ran_moved_within && at < sizeof(line))
		at += (size_t)snprintf(line + at, sizeof(line) - at, "; %s ran elsewhere in their "
				       "target's class", fmt_count(r->ran_moved_within, b, sizeof(b)));
	fprint_folded(f, "   ", line, 3, 80);
}

static void wakeups(FILE *f, const struct sched_results *r, const struct sched_report_ctx *c)
{
	struct heatmap h;
	uint64_t placed = r->placement[0] + r->placement[1] + r->placement[2];
	char a[32], b[32], s1[16], s2[16], s3[16], n1[32], n2[32], n3[32], line[400];

	fprintf(f, "\n Wakeups of the traced tasks: %s (from %s), %s placed\n",
		fmt_count(r->wakeups, a, sizeof(a)),
		r->waking_source ? "sched_waking" : "sched_wakeup",
		fmt_count(r->wakeups_placed, b, sizeof(b)));
	if (r->wakeups_running) { /* reconcile with the tracepoint's own count */
		char t[32], run[32];

		fprintf(f, "   %s %s: %s woke a sleeping task, %s a running one\n",
			fmt_count(r->wakeups + r->wakeups_running, t, sizeof(t)),
			r->waking_source ? "sched_waking" : "sched_wakeup", a,
			fmt_count(r->wakeups_running, run, sizeof(run)));
	}
	if (r->wakeups == 0)
		return;
	class_table(f, r->topo, r->by_class, r->wakeups_placed, "waker CPU -> target CPU");
	fprintf(f, "   previous CPU -> target CPU: stayed %s, pulled to the waker's %s %s,\n"
		   "   moved elsewhere %s\n",
		SHARE(r->placement[PLACE_STAYED], placed, 1, s1),
		topology_knows(r->topo, LOC_LLC) ? "LLC" : "core", /* what "pulled" can mean */
		SHARE(r->placement[PLACE_PULLED], placed, 1, s2),
		SHARE(r->placement[PLACE_ELSEWHERE], placed, 1, s3));
	snprintf(line, sizeof(line), "woken while running: %s; new tasks placed: %s; ran "
		 "elsewhere than chosen: %s", fmt_count(r->wakeups_running, n1, sizeof(n1)),
		 fmt_count(r->wakeups_new, n2, sizeof(n2)),
		 fmt_count(r->moved_before_run, n3, sizeof(n3)));
	fprint_folded(f, "   ", line, 3, 80);
	ran_on_text(f, r);
	sched_ipi_text(f, r);
	fprintf(f, "\n");
	heatmap_build(&h, r->topo, r->wake_matrix, map_groups(c));
	heatmap_print(f, &h, "waker CPU", "target CPU", report_width(c));
	heatmap_release(&h);
}

/* The delay columns' width: 10, or 9 beside a label wider than 14 (the line within 80). */
#define LAT_COL(w) ((w) > 14 ? 9 : 10)

static void latency_row(FILE *f, int w, const char *name, const struct hist *h)
{
	char p50[24], p90[24], p99[24], mx[24], n[32];

	if (h->count == 0)
		return;
	fprintf(f, "     %-*s %10s %*s %*s %*s %*s\n", w, name, fmt_count(h->count, n, sizeof(n)),
		LAT_COL(w),
		fmt_ns(hist_percentile(h, 50), p50, sizeof(p50)), LAT_COL(w),
		fmt_ns(hist_percentile(h, 90), p90, sizeof(p90)), LAT_COL(w),
		fmt_ns(hist_percentile(h, 99), p99, sizeof(p99)), LAT_COL(w),
		fmt_ns(h->max, mx, sizeof(mx)));
}

static void latency(FILE *f, const struct sched_results *r)
{
	struct sched_sample smp;
	uint64_t max = 0;
	int lo = 64, hi = -1, w = topology_class_width(r->topo, 14);
	char a[24], b[24], n[32];

	fprintf(f, "\n Wake-to-run delay (from the wakeup to the task running)\n");
	sched_sample_of(r, &smp);
	if (smp.sampled)
		fprintf(f, "   a random sample: %s of %s wakeups timed, every one the same chance\n"
			   "   (see the header); the counts below are the timed ones (x %.2f: the run)\n",
			fmt_count(smp.timed, a, sizeof(a)), fmt_count(smp.all, b, sizeof(b)), smp.scale);
	if (r->prov.delay == DELAY_LOG2)
		fprintf(f, "   in power-of-two buckets: each figure is its bucket's midpoint\n");
	if (r->delays_negative)
		fprintf(f, "   %s wakeups not timed: their task was switched in before the wakeup's\n"
			   "   time (a race with the switch, or clock skew)\n",
			fmt_count(r->delays_negative, a, sizeof(a)));
	if (r->delay.count == 0) {
		fprintf(f, "   (no wakeup was followed by its task running)\n");
		return;
	}
	fprintf(f, "     %-*s %10s %*s %*s %*s %*s\n", w, "waker->target", "wakeups", LAT_COL(w),
		"p50", LAT_COL(w), "p90", LAT_COL(w), "p99", LAT_COL(w), "max");
	latency_row(f, w, "all", &r->delay);
	for (int c = 0; c < LOC_NR; c++) /* each class named as in the class table */
		if (topology_knows(r->topo, (enum locality)c))
			latency_row(f, w, topology_class_label(r->topo, (enum locality)c),
				    &r->delay_class[c]);
	for (int k = 0; k < 64; k++) {
		uint64_t v = hist_log2_count(&r->delay, k);

		if (v) {
			lo = k < lo ? k : lo;
			hi = k;
			max = v > max ? v : max;
		}
	}
	fprintf(f, "\n     %-23s %-32s %s\n", "delay", "", "count");
	for (int k = lo; k <= hi; k++) {
		uint64_t v = hist_log2_count(&r->delay, k);

		fprintf(f, "     %9s - %-9s |", fmt_ns(k ? 1ull << k : 0, a, sizeof(a)),
			fmt_ns(hist_log2_end(k), b, sizeof(b)));
		bar(f, v, max, 32);
		fprintf(f, "| %s\n", fmt_count(v, n, sizeof(n)));
	}
	if (r->ncpus <= 64) {
		fprintf(f, "\n     %-14s %10s %10s %10s\n", "ran on CPU", "wakeups", "p50", "p99");
		for (int cpu = 0; cpu < r->ncpus; cpu++) {
			const struct hist *h = &r->delay_cpu[cpu];

			if (!h->count)
				continue;
			fprintf(f, "     %-14d %10s %10s %10s\n", cpu, fmt_count(h->count, n, sizeof(n)),
				fmt_ns(hist_percentile(h, 50), a, sizeof(a)),
				fmt_ns(hist_percentile(h, 99), b, sizeof(b)));
		}
	}
}

/*
 * What the pairs hold against the tracepoint's count: every wakeup of a sleeping task
 * (those beyond the table said apart), and the wakeups of running tasks, never paired.
 */
static void pairs_total(FILE *f, const struct sched_results *r)
{
	uint64_t sum = r->pairs_wakeups;
	char a[32], b[32], c[32], d[32];

	fprintf(f, "   the pairs hold %s wakeups of sleeping tasks", fmt_count(sum, a, sizeof(a)));
	if (r->pairs_dropped)
		fprintf(f, ", %s more beyond the table", fmt_count(r->pairs_dropped, d, sizeof(d)));
	if (!sched_measured(r, SM_wakeups_running)) {
		fprintf(f, "; wakeups of running tasks: not counted by this source\n");
		return;
	}
	fprintf(f, ";\n   apart, not paired: %s wakeups of running tasks; %s %s in all\n",
		fmt_count(r->wakeups_running, b, sizeof(b)),
		fmt_count(sum + r->pairs_dropped + r->wakeups_running, c, sizeof(c)),
		r->waking_source ? "sched_waking" : "sched_wakeup");
}

static void pairs(FILE *f, const struct sched_results *r)
{
	static const char *const col[LOC_NR] = { "cpu", "smt", "llc", "node", "rmt" };
	char n[32], who[48], whom[48], sh[16];

	fprintf(f, "\n Top waker -> wakee pairs\n");
	if (r->npairs == 0) {
		fprintf(f, "   (none)\n");
		if (r->wakeups_running || r->pairs_dropped)
			pairs_total(f, r);
		return;
	}
	fprintf(f, "   %9s  %-20s %-20s", "wakeups", "waker", "wakee");
	for (int c = 0; c < LOC_NR; c++)
		if (topology_knows(r->topo, (enum locality)c))
			fprintf(f, " %4s", col[c]);
	fputc('\n', f);
	for (int i = 0; i < r->npairs && i < TOP_ROWS; i++) {
		const struct pair_stat *p = &r->pairs[i];
		uint64_t placed = 0;

		for (int c = 0; c < LOC_NR; c++)
			placed += p->by_class[c];
		task_label(who, sizeof(who), p->waker_comm, p->waker_tid, 20);
		task_label(whom, sizeof(whom), p->wakee_comm, p->wakee_tid, 20);
		fprintf(f, "   %9s  %-20.20s %-20.20s", fmt_count(p->count, n, sizeof(n)), who, whom);
		for (int c = 0; c < LOC_NR; c++)
			if (topology_knows(r->topo, (enum locality)c))
				fprintf(f, " %4s", SHARE(p->by_class[c], placed, 0, sh));
		fputc('\n', f);
	}
	if (r->npairs > TOP_ROWS)
		fprintf(f, "   ... %s more pairs\n", fmt_count((uint64_t)(r->npairs - TOP_ROWS), n,
								 sizeof(n)));
	if (r->pairs_bound) {
		char b[32], e[32], o[32];

		fprintf(f, "   the busiest pairs kept in %d slots (Filtered Space-Saving; %s pairs gave\n"
			   "   theirs up, %s wakeups were of pairs that held none): a count may exceed\n"
			   "   the true count by at most %s, and every pair with more wakeups than\n"
			   "   that is listed\n",
			r->pairs_kept, fmt_count(r->pairs_evicted, e, sizeof(e)),
			fmt_count(r->pairs_filtered, o, sizeof(o)),
			fmt_count(r->pairs_bound, b, sizeof(b)));
	}
	if (r->pairs_dropped)
		fprintf(f, "   %s wakeups of pairs beyond the table's size are not listed\n",
			fmt_count(r->pairs_dropped, n, sizeof(n)));
	pairs_total(f, r);
}

static int by_migrations(const void *a, const void *b)
{
	const struct task_stat *x = a, *y = b;

	return (x->migrations < y->migrations) - (x->migrations > y->migrations);
}

static void migrations(FILE *f, const struct sched_results *r, const struct sched_report_ctx *c)
{
	struct task_stat *t;
	struct heatmap h;
	char n[32];

	fprintf(f, "\n Migrations: %s\n", fmt_count(r->migrations, n, sizeof(n)));
	if (!r->migrations)
		return;
	class_table(f, r->topo, r->mig_by_class, r->migrations, "from CPU -> to CPU");
	fputc('\n', f);
	heatmap_build(&h, r->topo, r->mig_matrix, map_groups(c));
	heatmap_print(f, &h, "from CPU", "to CPU", report_width(c));
	heatmap_release(&h);
	t = xcalloc((size_t)r->ntasks + 1, sizeof(*t));
	memcpy(t, r->tasks, (size_t)r->ntasks * sizeof(*t));
	qsort(t, (size_t)r->ntasks, sizeof(*t), by_migrations);
	fprintf(f, "\n   %10s  %s\n", "migrations", "task");
	for (int i = 0; i < r->ntasks && i < TOP_ROWS && t[i].migrations; i++) {
		char name[40];

		task_label(name, sizeof(name), t[i].comm, t[i].tid, NAME_W);
		fprintf(f, "   %10s  %s\n", fmt_count(t[i].migrations, n, sizeof(n)), name);
	}
	free(t);
}

static void switches(FILE *f, const struct sched_results *r)
{
	char a[32], b[32], d[24], rt[24];

	fprintf(f, "\n Context switches of the traced tasks: %s voluntary, %s involuntary\n",
		fmt_count(r->voluntary, a, sizeof(a)), fmt_count(r->involuntary, b, sizeof(b)));
	if (r->ntasks == 0)
		return;
	fprintf(f, "   %-20s %8s %8s %6s %8s %10s %10s\n", "task", "vol", "invol", "migr",
		"woken", "avg delay", "on CPU");
	for (int i = 0; i < r->ntasks && i < TOP_ROWS; i++) {
		const struct task_stat *t = &r->tasks[i];
		char name[40], m[32], w[32];

		task_label(name, sizeof(name), t->comm, t->tid, NAME_W);
		fprintf(f, "   %-20s %8s %8s %6s %8s %10s %10s\n", name,
			fmt_count(t->voluntary, a, sizeof(a)), fmt_count(t->involuntary, b, sizeof(b)),
			fmt_count(t->migrations, m, sizeof(m)), fmt_count(t->wakeups, w, sizeof(w)),
			t->delays ? fmt_ns(t->delay_sum_ns / t->delays, d, sizeof(d)) : "-",
			fmt_ns(t->run_ns, rt, sizeof(rt)));
	}
	if (r->ntasks > TOP_ROWS)
		fprintf(f, "   ... %s more tasks\n", fmt_count((uint64_t)(r->ntasks - TOP_ROWS), a,
								 sizeof(a)));
	if (r->tasks_retired) {
		char n1[32], n2[32], n3[32], t[320];

		snprintf(t, sizeof(t), "%s tasks exited and left the live table (in every total "
			 "still); the busiest %s of them stay in the task list (the %d rows above "
			 "are its busiest; the JSON has all %s)",
			 fmt_count(r->tasks_retired, n1, sizeof(n1)),
			 fmt_count((uint64_t)r->tasks_retired_kept, n2, sizeof(n2)),
			 r->ntasks < TOP_ROWS ? r->ntasks : TOP_ROWS,
			 fmt_count((uint64_t)r->ntasks, n3, sizeof(n3)));
		fprint_folded(f, "   ", t, 3, 80);
	}
}

/*
 * The traced tasks cannot run longer than their CPU was busy: where the figures say so
 * beyond what their resolution allows, the report says why rather than leave it to be
 * found (the kernel's idle time in 10 ms units; the stream's time before an inferred
 * switch-in, unknown, counted neither busy nor idle).
 */
static void traced_over_busy(FILE *f, const struct sched_results *r, bool in_kernel)
{
	for (int c = 0; c < r->ncpus; c++) {
		const struct cpu_stat *s = &r->cpu[c];
		uint64_t slack = in_kernel ? 20000000ull : s->unknown_ns; /* two /proc/stat units */
		char a[32], t[300];

		if (!r->topo->cpu[c].present || s->tracked_ns <= s->busy_ns + slack)
			continue;
		snprintf(t, sizeof(t), "note: on CPU %d the traced tasks ran %s longer than the CPU "
			 "was busy: %s", c, fmt_ns(s->tracked_ns - s->busy_ns, a, sizeof(a)),
			 in_kernel ? "the kernel's idle time and the programs' span disagree (a "
			 "CPU offline for part of it?)" : "records of this CPU were lost (see the "
			 "header's drops)");
		fprint_folded(f, "   ", t, 5, 80);
	}
}

static void cpus(FILE *f, const struct sched_results *r, bool in_kernel)
{
	char a[32], b[32], w1[32], w2[32], s1[16], s2[16];
	int shown = 0;

	if (in_kernel)
		fprintf(f, "\n Per CPU (busy: the session's wall time less the kernel's idle time,"
			   "\n to 10 ms; traced: the tasks' own runtime)\n");
	else if (r->unknown_ns)
		fprintf(f, "\n Per CPU (between the first and last event; busy: of the time known\n"
			   " busy or idle, the time before an inferred switch-in left out)\n");
	else
		fprintf(f, "\n Per CPU (between the first and last event)\n");
	fprintf(f, "   %5s %7s %9s %11s %11s %10s %10s\n", "CPU", "busy", "traced", "voluntary",
		"involuntary", "woken on", "woke");
	for (int c = 0; c < r->ncpus; c++) {
		const struct cpu_stat *s = &r->cpu[c];
		uint64_t span = s->busy_ns + s->idle_ns;

		if (!r->topo->cpu[c].present || (!span && !s->voluntary && !s->wakeups_to))
			continue;
		if (++shown > 64) {
			fprintf(f, "   ... (the JSON output has every CPU)\n");
			break;
		}
		fprintf(f, "   %5d %7s %9s %11s %11s %10s %10s\n", c, SHARE(s->busy_ns, span, 1, s1),
			SHARE(s->tracked_ns, span, 1, s2), fmt_count(s->voluntary, a, sizeof(a)),
			fmt_count(s->involuntary, b, sizeof(b)),
			fmt_count(s->wakeups_to, w1, sizeof(w1)),
			fmt_count(s->wakeups_from, w2, sizeof(w2)));
	}
	traced_over_busy(f, r, in_kernel);
}

/* Bits of prov.not_recorded (1 << EV_*) as the tracepoints' names, a line break at wrap. */
static const char *tracepoints(uint32_t bits, int wrap, char *buf, size_t len)
{
	size_t at = 0, line = 0;

	buf[0] = '\0';
	for (int t = 0; t < EV_TYPE_NR && at < len; t++) {
		char name[80];

		if (!(bits >> t & 1) || !event_type_name(t))
			continue;
		snprintf(name, sizeof(name), "%s%s", event_type_name(t),
			 t == EV_WAKING ? " (or sched_wakeup)" : "");
		if (at && wrap && at - line + strlen(name) + 2 > (size_t)wrap) {
			at += (size_t)snprintf(buf + at, len - at, ",\n   ");
			line = at;
		} else if (at) {
			at += (size_t)snprintf(buf + at, len - at, ", ");
		}
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s", name);
	}
	return buf;
}

/*
 * A section fed by tracepoints the file lacks: its title and "not in this file"
 * instead of zeros. need: the 1 << EV_* bits it reads. True when it was absent.
 */
static bool not_in_file(FILE *f, const struct sched_results *r, const char *title,
			uint32_t need)
{
	char names[256];

	if (!(r->prov.not_recorded & need))
		return false;
	fprintf(f, "\n %s: not in this file (it has no %s samples)\n", title,
		tracepoints(r->prov.not_recorded & need, 0, names, sizeof(names)));
	return true;
}

/* What to record next time, once, under the header. */
static void not_recorded_note(FILE *f, const struct sched_results *r)
{
	char names[256];

	if (!r->prov.not_recorded)
		return;
	fprintf(f, "   not in this file: %s;\n   reported as far as the file goes. Next time: "
		   "locus record -- CMD, or\n   perf sched record -- CMD, or perf record -e "
		   "sched:sched_switch,\n   sched:sched_waking,sched:sched_migrate_task,"
		   "sched:sched_wakeup_new -- CMD\n",
		tracepoints(r->prov.not_recorded, 58, names, sizeof(names)));
}

#define NEED(t) (1u << (t))

void sched_report_text(FILE *f, const struct sched_results *r, unsigned sections,
		       const struct sched_report_ctx *ctx)
{
	if (!(sections & SEC_SCHED))
		return;
	if (!ctx->supported) {
		fprintf(f, "\n Scheduler: not supported: %s\n", ctx->reason);
		return;
	}
	header(f, r, ctx);
	not_recorded_note(f, r);
	if ((sections & SEC_WAKEUPS) && !not_in_file(f, r, "Wakeups", NEED(EV_WAKING)))
		wakeups(f, r, ctx);
	if ((sections & SEC_LATENCY) &&
	    !not_in_file(f, r, "Wake-to-run delay", NEED(EV_WAKING) | NEED(EV_SWITCH))) {
		latency(f, r);
		sched_idle_text(f, r);
	}
	if ((sections & SEC_PAIRS) && !not_in_file(f, r, "Top waker -> wakee pairs", NEED(EV_WAKING)))
		pairs(f, r);
	if ((sections & SEC_MIGRATIONS) && !not_in_file(f, r, "Migrations", NEED(EV_MIGRATE)))
		migrations(f, r, ctx);
	if ((sections & SEC_SWITCHES) &&
	    !not_in_file(f, r, "Context switches", NEED(EV_SWITCH)))
		switches(f, r);
	if ((sections & SEC_CPUS) && !not_in_file(f, r, "Per CPU", NEED(EV_SWITCH)))
		cpus(f, r, r->prov.source == PROV_BPF);
	fputc('\n', f);
}
