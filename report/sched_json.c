/* sched_json.c - scheduler results as JSON (schema in man/locus-run.1). */
#include <string.h>

#include "prov_report.h"
#include "sched_idle.h"
#include "sched_report.h"

#define JSON_MAX_TASKS 1000
#define JSON_MAX_PAIRS 100

/* A count per class the topology tells apart (no "llc" key where the LLC is unknown). */
static void classes(struct json *j, const char *key, const struct topology *t,
		    const uint64_t *by_class)
{
	json_object(j, key);
	for (int c = 0; c < LOC_NR; c++)
		if (topology_knows(t, (enum locality)c))
			json_uint(j, locality_name((enum locality)c), by_class[c]);
	json_object_end(j);
}

/*
 * The timed wakeups by the CPU they ran on seen from the waker's (the classes of blame,
 * stacks and the timelines) and how they came from the target's (by_class, latency):
 * moved[target][ran] off the diagonal, with the moves the matrix does not hold.
 */
static void ran_on_json(struct json *j, const struct sched_results *r)
{
	uint64_t col[LOC_NR] = { 0 }, timed = 0;

	if (!r->ran_known) {
		json_null(j, "ran_on");
		return;
	}
	for (int t = 0; t < LOC_NR; t++)
		for (int c = 0; c < LOC_NR; c++) {
			col[c] += r->ran_class[t][c];
			timed += r->ran_class[t][c];
		}
	json_object(j, "ran_on");
	json_string(j, "rule", "the timed wakeups whose waker CPU is known, by the class of "
		    "the CPU each ran on seen from its waker's (blame, stacks, timelines); "
		    "moved: from its waker -> target class (by_class, latency) to that class");
	json_uint(j, "timed", timed);
	classes(j, "by_class", r->topo, col);
	json_array(j, "moved");
	for (int t = 0; t < LOC_NR; t++)
		for (int c = 0; c < LOC_NR; c++) {
			if (t == c || !r->ran_class[t][c])
				continue;
			json_object(j, NULL);
			json_string(j, "target", locality_name((enum locality)t));
			json_string(j, "ran", locality_name((enum locality)c));
			json_uint(j, "count", r->ran_class[t][c]);
			json_object_end(j);
		}
	json_array_end(j);
	json_uint(j, "moved_within_class", r->ran_moved_within);
	json_uint(j, "moved_not_in_matrix", r->ran_moved_other);
	json_object_end(j);
}

static void matrix(struct json *j, const char *key, const uint64_t *m, int n)
{
	json_array(j, key);
	for (int a = 0; a < n; a++)
		json_uint_row(j, NULL, m + (size_t)a * (size_t)n, (size_t)n);
	json_array_end(j);
}

static void percentiles(struct json *j, const char *key, const struct hist *h)
{
	json_object(j, key);
	json_uint(j, "count", h->count);
	if (h->count) {
		json_uint(j, "p50", hist_percentile(h, 50));
		json_uint(j, "p90", hist_percentile(h, 90));
		json_uint(j, "p99", hist_percentile(h, 99));
		json_uint(j, "max", h->max);
		json_uint(j, "min", h->min);
		json_number(j, "mean", h->sum / (double)h->count);
	}
	json_object_end(j);
}

static void topology_json(struct json *j, const struct topology *t)
{
	json_object(j, "topology");
	json_string(j, "source", t->source);
	json_int(j, "cpus", t->nonline);
	json_int(j, "cores", t->ncores);
	json_bool(j, "llc_known", t->llc_known);
	if (t->llc_known) {
		json_int(j, "llc_groups", t->nllcs);
		json_int(j, "llc_level", t->llc_level);
	}
	json_int(j, "nodes", t->nnodes);
	json_array(j, "cpu");
	for (int c = 0; c < t->ncpus; c++) {
		const struct cpu_topo *ct = &t->cpu[c];

		if (!ct->present)
			continue;
		json_object(j, NULL);
		json_int(j, "cpu", c);
		json_int(j, "core", ct->core);
		if (t->llc_known)
			json_int(j, "llc", ct->llc);
		else
			json_null(j, "llc");
		json_int(j, "package", ct->package);
		json_int(j, "node", ct->node);
		json_object_end(j);
	}
	json_array_end(j);
	if (t->distance) {
		json_array(j, "node_distance");
		for (int a = 0; a < t->nnodes; a++) {
			json_array(j, NULL);
			for (int b = 0; b < t->nnodes; b++)
				json_int(j, NULL, t->distance[a * t->nnodes + b]);
			json_array_end(j);
		}
		json_array_end(j);
	}
	json_object_end(j);
}

static void latency_json(struct json *j, const struct sched_results *r)
{
	json_object(j, "latency");
	sched_measures_json(j, r, "latency");
	sched_idle_json(j, r);
	percentiles(j, "wake_to_run_ns", &r->delay);
	json_object(j, "by_class");
	for (int c = 0; c < LOC_NR; c++)
		if (topology_knows(r->topo, (enum locality)c))
			percentiles(j, locality_name((enum locality)c), &r->delay_class[c]);
	json_object_end(j);
	json_array(j, "log2_ns");
	for (int k = 0; k < 64; k++) {
		uint64_t v = hist_log2_count(&r->delay, k);

		if (!v)
			continue;
		json_object(j, NULL);
		json_uint(j, "from", k ? 1ull << k : 0);
		json_uint(j, "to", hist_log2_end(k));
		json_uint(j, "count", v);
		json_object_end(j);
	}
	json_array_end(j);
	json_array(j, "per_cpu");
	for (int c = 0; c < r->ncpus; c++) {
		const struct hist *h = &r->delay_cpu[c];

		if (!h->count)
			continue;
		json_object(j, NULL);
		json_int(j, "cpu", c);
		json_uint(j, "count", h->count);
		json_uint(j, "p50", hist_percentile(h, 50));
		json_uint(j, "p99", hist_percentile(h, 99));
		json_uint(j, "max", h->max);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void tasks_json(struct json *j, const struct sched_results *r)
{
	json_int(j, "tasks_total", r->ntasks);
	json_uint(j, "tasks_retired", r->tasks_retired);
	json_int(j, "tasks_retired_listed", r->tasks_retired_kept);
	json_array(j, "tasks");
	for (int i = 0; i < r->ntasks && i < JSON_MAX_TASKS; i++) {
		const struct task_stat *t = &r->tasks[i];

		json_object(j, NULL);
		json_int(j, "tid", t->tid);
		if (t->pid >= 0)
			json_int(j, "pid", t->pid);
		else
			json_null(j, "pid"); /* never seen running: its process is not known */
		json_string(j, "comm", t->comm);
		json_uint(j, "wakeups", t->wakeups);
		json_uint(j, "migrations", t->migrations);
		json_uint(j, "voluntary", t->voluntary);
		json_uint(j, "involuntary", t->involuntary);
		json_uint(j, "run_ns", t->run_ns);
		json_uint(j, "delays_measured", t->delays);
		json_uint(j, "delay_sum_ns", t->delay_sum_ns);
		json_object_end(j);
	}
	json_array_end(j);
	json_int(j, "pairs_total", r->npairs);
	json_uint(j, "pairs_dropped", r->pairs_dropped);
	json_int(j, "pairs_kept", r->pairs_kept);
	json_uint(j, "pairs_evicted", r->pairs_evicted);
	json_uint(j, "pairs_count_bound", r->pairs_bound);
	/* the pairs' wakeups (all pairs, listed or not) + pairs_dropped + the wakeups of
	 * running tasks, never paired = the source tracepoint's count (wakeups.source_events) */
	json_uint(j, "pairs_wakeups", r->pairs_wakeups);
	json_uint(j, "pairs_filtered_wakeups", r->pairs_filtered);
	if (sched_measured(r, SM_wakeups_running))
		json_uint(j, "pairs_apart_woken_while_running", r->wakeups_running);
	else
		json_null(j, "pairs_apart_woken_while_running");
	json_array(j, "pairs");
	for (int i = 0; i < r->npairs && i < JSON_MAX_PAIRS; i++) {
		const struct pair_stat *p = &r->pairs[i];

		json_object(j, NULL);
		json_int(j, "waker_tid", p->waker_tid);
		json_string(j, "waker_comm", p->waker_comm);
		json_int(j, "wakee_tid", p->wakee_tid);
		json_string(j, "wakee_comm", p->wakee_comm);
		json_uint(j, "count", p->count);
		json_uint(j, "count_over_at_most", p->over);
		classes(j, "by_class", r->topo, p->by_class);
		json_object_end(j);
	}
	json_array_end(j);
}

static void cpus_json(struct json *j, const struct sched_results *r)
{
	json_object(j, "cpu_time");
	if (r->prov.source == PROV_BPF) { /* the kernel's accounting over the session */
		json_string(j, "busy", "the session's wall time less the kernel's idle time "
			    "(/proc/stat, 10 ms units)");
		json_uint(j, "from_ns", r->first_ns); /* CLOCK_MONOTONIC */
		json_uint(j, "to_ns", r->last_ns);
	} else {
		json_string(j, "busy", "from the sched events, between the first and last: any "
			    "task but the idle task (an inferred switch-in's time before it unknown)");
	}
	json_string(j, "traced", "the traced tasks' own runtime");
	json_object_end(j);
	json_array(j, "cpus");
	for (int c = 0; c < r->ncpus; c++) {
		const struct cpu_stat *s = &r->cpu[c];

		if (!r->topo->cpu[c].present)
			continue;
		json_object(j, NULL);
		json_int(j, "cpu", c);
		json_uint(j, "busy_ns", s->busy_ns);
		json_uint(j, "idle_ns", s->idle_ns);
		json_uint(j, "traced_ns", s->tracked_ns);
		json_uint(j, "voluntary", s->voluntary);
		json_uint(j, "involuntary", s->involuntary);
		json_uint(j, "wakeups_to", s->wakeups_to);
		json_uint(j, "wakeups_from", s->wakeups_from);
		json_uint(j, "migrations_in", s->migrations_in);
		json_uint(j, "migrations_out", s->migrations_out);
		json_uint(j, "switch_in_missed", s->switch_in_missed);
		if (sched_measured(r, SM_switch_in_missed)) {
			json_uint(j, "switch_in_inferred", s->switch_in_inferred);
			json_uint(j, "unknown_ns", s->unknown_ns);
		}
		if (sched_measured(r, SM_idle_passed))
			json_uint(j, "idle_passed_over", s->idle_passed);
		json_object_end(j);
	}
	json_array_end(j);
}

void sched_measures_json(struct json *j, const struct sched_results *r, const char *group)
{
	for (int m = 0; m < SM_NR; m++) {
		if (strcmp(sched_measures[m].group, group))
			continue;
		if (sched_measured(r, m))
			json_uint(j, sched_measures[m].key, sched_measure_get(r, m));
		else
			json_null(j, sched_measures[m].key); /* not counted by this source */
	}
}

void sched_report_json_members(struct json *j, const struct sched_results *r,
			       const struct sched_report_ctx *ctx)
{
	json_object(j, "sched");
	json_bool(j, "supported", ctx->supported);
	if (!ctx->supported) {
		json_string(j, "reason", ctx->reason);
		json_object_end(j);
		if (r && r->topo)
			topology_json(j, r->topo);
		return;
	}
	json_uint(j, "span_ns", r->last_ns > r->first_ns ? r->last_ns - r->first_ns : 0);
	json_object(j, "events_by_type");
	for (int t = 0; t < EV_LOST; t++)
		if (r->events[t])
			json_uint(j, event_type_name((enum event_type)t), r->events[t]);
	json_object_end(j);
	json_object_end(j);
	prov_report_json(j, r, ctx->samples, ctx->bytes);
	topology_json(j, r->topo);

	json_object(j, "wakeups");
	sched_measures_json(j, r, "wakeups");
	json_string(j, "source", r->waking_source ? "sched_waking" : "sched_wakeup");
	/* the source tracepoint's own count for the traced tasks: total + woken_while_running */
	json_uint(j, "source_events", r->wakeups + r->wakeups_running);
	classes(j, "by_class", r->topo, r->by_class);
	classes(j, "prev_by_class", r->topo, r->prev_by_class);
	sched_ipi_json(j, r);
	json_object(j, "placement");
	json_uint(j, "stayed", r->placement[PLACE_STAYED]);
	json_uint(j, "pulled", r->placement[PLACE_PULLED]);
	/* where "pulled" lands: the waker's CPU or a CPU sharing its LLC, or its core */
	json_string(j, "pulled_to", topology_knows(r->topo, LOC_LLC) ? "llc" : "core");
	json_uint(j, "elsewhere", r->placement[PLACE_ELSEWHERE]);
	json_object_end(j);
	matrix(j, "matrix", r->wake_matrix, r->ncpus);
	ran_on_json(j, r);
	json_object_end(j);

	latency_json(j, r);

	json_object(j, "migrations");
	sched_measures_json(j, r, "migrations");
	classes(j, "by_class", r->topo, r->mig_by_class);
	matrix(j, "matrix", r->mig_matrix, r->ncpus);
	json_object_end(j);

	json_object(j, "context_switches");
	sched_measures_json(j, r, "context_switches");
	json_object_end(j);

	cpus_json(j, r);
	tasks_json(j, r);
}
