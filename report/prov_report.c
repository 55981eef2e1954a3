/* prov_report.c - the provenance of results as text lines and JSON members. */
#include "prov_report.h"

#include <inttypes.h>
#include <string.h>

#include "../common/util.h"
#include "sched_report.h"

const char *prov_drops_text(const struct sched_results *r, char *buf, size_t len)
{
	size_t at = 0;
	char n[32];

	buf[0] = '\0';
	for (int m = 0; m < SM_NR; m++) {
		uint64_t v = sched_measure_get(r, m);
		int w;

		if (!(sched_measures[m].flags & MF_DROP) || !v)
			continue;
		w = snprintf(buf + at, len - at, "%s%s %s", at ? ", " : "", fmt_count(v, n, sizeof(n)),
			     sched_measures[m].label);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	if (!at)
		snprintf(buf, len, "none lost");
	return buf;
}

/* The collector's share of the honored CPUs' time over its span (0 when unknown). */
double prov_cost_share(const struct provenance *p)
{
	double cpu_ns = (double)p->cost.window_ns * (p->ncpus_honored > 0 ? p->ncpus_honored : 1);

	return cpu_ns > 0 ? (double)p->cost.run_ns / cpu_ns : 0;
}

const char *prov_cost_text(const struct provenance *p, char *buf, size_t len)
{
	if (!p->cost.measured)
		snprintf(buf, len, "not measured (%s)", p->cost.why);
	else
		snprintf(buf, len, "%.0f ns a program run, %.2f%% of %d CPUs' time",
			 p->cost.runs ? (double)p->cost.run_ns / (double)p->cost.runs : 0.0,
			 100.0 * prov_cost_share(p), p->ncpus_honored);
	return buf;
}

void prov_report_text(FILE *f, const struct sched_results *r, uint64_t events, uint64_t bytes)
{
	const struct provenance *p = &r->prov;
	char a[32], b[32], d[1024];
	struct sched_sample smp;

	fprintf(f, "   source: %s%s%s%s\n", prov_source_name(p->source), p->why[0] ? " (" : "",
		p->why, p->why[0] ? ")" : "");
	fprintf(f, "   CPUs: %s asked, %s honored (%d)", p->cpus_asked[0] ? p->cpus_asked : "all",
		p->cpus_honored[0] ? p->cpus_honored : "?", p->ncpus_honored);
	if (p->affinity[0]) /* what the workload itself could use: taskset, -p's mask */
		fprintf(f, "; the workload's affinity: %s", p->affinity);
	fputc('\n', f);
	fprintf(f, "   delays: %s", prov_delay_text(p->delay));
	sched_sample_of(r, &smp);
	if (smp.sampled)
		fprintf(f, ";\n   a random sample, every wakeup the same chance: %s of %s wakeups timed\n"
			   "   (%.2f%%; 1 in %u asked, --delay-rate %ld: each timed wakeup costs two clock\n"
			   "   reads; --delay-rate 0 times all); timed counts and waits are scaled by\n"
			   "   %.2f to estimates of the whole run, shares carry a 95%% interval",
			fmt_count(smp.timed, a, sizeof(a)), fmt_count(smp.all, b, sizeof(b)),
			100.0 * smp.fraction, smp.every, p->delay_rate, smp.scale);
	else if (p->delay == DELAY_LOG2 || p->source == PROV_BPF)
		fprintf(f, "; every one timed");
	fputc('\n', f);
	if (p->source == PROV_BPF)
		fprintf(f, "   %s events, counted in the kernel (none copied out); %s\n",
			fmt_count(events, a, sizeof(a)), prov_drops_text(r, d, sizeof(d)));
	else if (p->source == PROV_REPLAY) /* the file's sched samples, in its records' bytes */
		fprintf(f, "   %s sched events read, in %s of records; %s\n",
			fmt_count(events, a, sizeof(a)), fmt_bytes(bytes, b, sizeof(b)),
			prov_drops_text(r, d, sizeof(d)));
	else
		fprintf(f, "   %s events streamed (%s); %s\n", fmt_count(events, a, sizeof(a)),
			fmt_bytes(bytes, b, sizeof(b)), prov_drops_text(r, d, sizeof(d)));
	if (p->cost.measured)
		fprintf(f, "   own cost: %s\n   (the kernel's BPF run-time statistics: %s runs in "
			"windows over %.0f%% of the %.2f s attached)\n", prov_cost_text(p, d, sizeof(d)),
			fmt_count(p->cost.runs, a, sizeof(a)),
			100.0 * (double)p->cost.window_ns / (double)(p->cost.span_ns ?: 1),
			(double)p->cost.span_ns / 1e9);
	else if (p->cost.why[0])
		fprint_folded(f, "   own cost: ", prov_cost_text(p, d, sizeof(d)), 3, 80);
}

void prov_json_members(struct json *j, const struct provenance *p)
{
	json_string(j, "source", prov_source_key(p->source));
	json_string(j, "why", p->why);
	json_string(j, "cpus_asked", p->cpus_asked[0] ? p->cpus_asked : "all");
	json_string(j, "cpus_honored", p->cpus_honored);
	json_int(j, "ncpus_honored", p->ncpus_honored);
	if (p->affinity[0])
		json_string(j, "workload_affinity", p->affinity);
	else
		json_null(j, "workload_affinity");
	json_string(j, "scope", prov_scope_key(p->scope));
	if (p->scope_pid)
		json_int(j, "scope_pid", p->scope_pid);
	if (p->nadded) {
		json_array(j, "added_pids");
		for (int i = 0; i < p->nadded; i++)
			json_int(j, NULL, p->added[i]);
		json_array_end(j);
	}
	json_string(j, "delay_resolution", prov_delay_key(p->delay));
	json_int(j, "delay_rate", p->delay_rate);
	if (p->cost.measured) {
		json_object(j, "own_cost");
		json_string(j, "method", "BPF run-time statistics (BPF_ENABLE_STATS) in windows");
		json_array(j, "program_ids");
		for (int i = 0; i < p->cost.nprogs; i++)
			json_uint(j, NULL, p->cost.prog_ids[i]);
		json_array_end(j);
		json_uint(j, "program_runs", p->cost.runs);
		json_uint(j, "run_ns", p->cost.run_ns);
		json_uint(j, "window_ns", p->cost.window_ns);
		json_uint(j, "span_ns", p->cost.span_ns);
		json_number(j, "sampled_fraction", (double)p->cost.window_ns /
			    (double)(p->cost.span_ns ?: 1));
		json_number(j, "ns_per_run", p->cost.runs ? (double)p->cost.run_ns /
			    (double)p->cost.runs : 0.0);
		json_number(j, "cpu_share", prov_cost_share(p));
		json_object_end(j);
	} else if (p->cost.why[0]) {
		json_null(j, "own_cost");
		json_string(j, "own_cost_why", p->cost.why);
	}
	if (p->end != PROV_END_WHOLE) { /* a file whose end is missing */
		char text[400];

		json_object(j, "end_missing");
		json_string(j, "why", p->end == PROV_END_CUT ? "not_finished" :
				      p->end == PROV_END_COPY ? "file_cut" : "write_failed");
		json_number(j, "at_s", p->end_at_s);
		json_uint(j, "records_read", p->end_records);
		if (p->end == PROV_END_COPY) {
			json_uint(j, "data_bytes_read", p->end_data_bytes);
			json_uint(j, "data_bytes_in_header", p->end_data_want);
		}
		if (p->end == PROV_END_WRITE) {
			json_string(j, "error", strerror(p->end_errno));
			json_uint(j, "records_not_written", p->end_unwritten);
		}
		json_string(j, "text", prov_end_text(p, text, sizeof(text)));
		json_object_end(j);
	}
	if (p->keep_pages)
		json_int(j, "mmap_pages_to_keep", p->keep_pages);
	if (p->not_recorded) { /* a file without them: the measures they feed are null */
		char name[64];

		json_array(j, "not_in_file");
		for (int t = 0; t < EV_TYPE_NR; t++) {
			if (!(p->not_recorded >> t & 1) || !event_type_name(t))
				continue;
			snprintf(name, sizeof(name), "%s:%s", event_type_system(t), event_type_name(t));
			json_string(j, NULL, name);
		}
		json_array_end(j);
	}
	json_uint(j, "sample_every", p->sample_every);
}

void prov_report_json(struct json *j, const struct sched_results *r, uint64_t events,
		      uint64_t bytes)
{
	json_object(j, "provenance");
	prov_json_members(j, &r->prov);
	json_uint(j, "events", events);
	json_uint(j, "bytes", bytes);
	json_bool(j, "in_kernel", r->prov.source == PROV_BPF);
	json_uint(j, "delays_timed", r->delay.count);
	json_uint(j, "delays_untimed", r->delays_untimed);
	{
		struct sched_sample smp;

		sched_sample_of(r, &smp);
		json_object(j, "sample");
		json_bool(j, "sampled", smp.sampled);
		json_uint(j, "every", smp.every);
		json_uint(j, "timed", smp.timed);
		json_uint(j, "wakeups", smp.all);
		json_number(j, "fraction", smp.fraction);
		json_number(j, "scale", smp.scale);
		json_string(j, "method", smp.sampled ? "random gaps per CPU, mean 1 in every" :
						       "every wakeup timed");
		json_object_end(j);
	}
	json_object(j, "drops");
	sched_measures_json(j, r, "drops");
	json_object_end(j);
	json_bool(j, "none_lost", sched_results_dropped(r) == 0);
	/* switch-ins the recording lacks (a BPF collector sees every switch) */
	if (sched_measured(r, SM_switch_in_missed)) {
		json_uint(j, "switch_ins_inferred", r->switch_in_inferred);
		json_uint(j, "unknown_cpu_ns", r->unknown_ns);
		json_uint(j, "idle_judged_open", r->idle_judged_open);
	} else {
		json_null(j, "switch_ins_inferred");
	}
	json_object_end(j);
}
