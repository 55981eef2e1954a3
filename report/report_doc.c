/* report_doc.c - what locus report writes for a recording: the text and JSON documents. */
#include "report_doc.h"

#include <string.h>

#include "../common/outfile.h"
#include "../common/util.h"
#include "blame_report.h"
#include "cacheline_report.h"
#include "json.h"
#include "schedstat_report.h"
#include "stacks_report.h"

#define STACKS_TOP 5 /* stacks shown of each view */

void report_doc_init(struct report_doc *d, const struct file_input *in,
		     const struct sched_results *r, const struct blame_results *blame,
		     const struct cacheline *cl, const struct stacks *stacks, unsigned sections,
		     int width)
{
	*d = (struct report_doc){ .in = in, .r = r, .blame = blame, .cl = cl, .stacks = stacks,
				  .sections = sections };
	d->ctx = (struct sched_report_ctx){ in->sched_samples > 0, "no sched tracepoint samples",
					    in->sched_samples, in->bytes, width };
}

/* A file whose end is missing says so first, folded to the report's width. */
static void end_text(FILE *f, const struct file_input *in)
{
	char text[400];
	const char *s = text;

	if (in->end.end == PROV_END_WHOLE)
		return;
	prov_end_text(&in->end, text, sizeof(text));
	fprintf(f, "   NOTE:");
	for (int col = 9; *s;) { /* words to 80 columns */
		size_t w = strcspn(s, " ");

		if (col + 1 + (int)w > 80) {
			fprintf(f, "\n  ");
			col = 3;
		}
		col += fprintf(f, " %.*s", (int)w, s);
		s += w;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}

/* The recording's workload and the tasks this report follows. */
static void input_tasks(FILE *f, const struct file_input *in)
{
	if (in->workload_pid) {
		char t[400];
		size_t at = (size_t)snprintf(t, sizeof(t), "pid %d", in->workload_pid);

		for (int i = 0; i < in->nadded && at < sizeof(t); i++)
			at += (size_t)snprintf(t + at, sizeof(t) - at, "%s%d", i ? "," : ", with pids ",
					       in->added_pids[i]);
		if (at < sizeof(t))
			snprintf(t + at, sizeof(t) - at, "%s%s", in->nadded ? " added by record -p" : "",
				 in->pid != in->workload_pid ? "" :
				 in->nadded ? " (their tasks are reported; -a for every task)" :
				 " (its tasks are reported; -a for every task)");
		fprint_folded(f, "   workload: ", t, 5, 80);
	}
	if (in->pid && in->pid != in->workload_pid) {
		fprintf(f, "   reported: the tasks of pid %d", in->pid);
		for (int i = 0; i < in->nmore; i++)
			fprintf(f, ", %d", in->more[i]);
		fprintf(f, " and their children (-p)\n");
	}
}

/* Records skipped and samples not used. */
static void input_unused(FILE *f, const struct file_input *in, bool blame)
{
	uint64_t other = in->other_tracepoints - in->irq_samples;
	char a[32];

	if (in->unknown_total) {
		fprintf(f, "   %s records of unknown types were skipped (type:count",
			fmt_count(in->unknown_total, a, sizeof(a)));
		for (int t = 0; t < in->nunknown; t++)
			if (in->unknown[t])
				fprintf(f, " %d:%s", t, fmt_count(in->unknown[t], a, sizeof(a)));
		fprintf(f, ")\n");
	}
	if (other)
		fprintf(f, "   %s samples of other tracepoints (sched_stat_runtime, ...) are not "
			   "used\n", fmt_count(other, a, sizeof(a)));
	if (in->irq_samples)
		fprintf(f, "   %s irq tracepoint samples: %s\n", fmt_count(in->irq_samples, a, sizeof(a)),
			blame ? "the interrupts in the waits" : "not used here (--sections blame "
			"reads them)");
	if (in->undecodable)
		fprintf(f, "   %s sched samples could not be decoded (malformed payloads)\n",
			fmt_count(in->undecodable, a, sizeof(a)));
}

static void input_text(FILE *f, const struct file_input *in, bool blame)
{
	char a[32], b[32], c[32], d[32], e[32];

	fprintf(f, "\n Input: %s%s\n   %s records, %s samples (events): %s sched events", in->path,
		in->pipe ? " (pipe mode)" : "", fmt_count(in->records, a, sizeof(a)),
		fmt_count(in->samples, b, sizeof(b)), fmt_count(in->sched_samples, c, sizeof(c)));
	if (in->mem_samples)
		fprintf(f, ", %s memory samples", fmt_count(in->mem_samples, a, sizeof(a)));
	fputc('\n', f);
	/* the records as locus record counts them, the formats and symbols apart */
	fprintf(f, "   %s of records", fmt_bytes(in->bytes, e, sizeof(e)));
	if (in->file_bytes)
		fprintf(f, " (the file %s with its formats and symbols)",
			fmt_bytes(in->file_bytes, d, sizeof(d)));
	fputc('\n', f);
	if (in->ss_records)
		fprintf(f, "   %s /proc/schedstat records (SCHEDSTAT_CPU and _DOMAIN), %d snapshot%s\n",
			fmt_count(in->ss_records, a, sizeof(a)), in->ss_snapshots,
			in->ss_snapshots == 1 ? "" : "s");
	if (in->hostname[0] || in->cmdline[0]) {
		char t[800];

		snprintf(t, sizeof(t), "%s (%s) by '%s'", in->hostname[0] ? in->hostname : "?",
			 in->osrelease[0] ? in->osrelease : "?", in->cmdline);
		fprint_folded(f, "   recorded on ", t, 5, 80);
	}
	input_tasks(f, in);
	if (in->from_ns || in->to_ns) {
		fprintf(f, "   window: %s to %s from the first event (--from/--to): %s events "
			   "outside it left out (forks and exits kept)\n",
			fmt_ns(in->from_ns, a, sizeof(a)),
			in->to_ns ? fmt_ns(in->to_ns, b, sizeof(b)) : "the end",
			fmt_count(in->windowed, c, sizeof(c)));
	}
	input_unused(f, in, blame);
	fprintf(f, "   topology: %s\n", in->topo_note);
	end_text(f, in);
}

void report_doc_text(FILE *f, void *arg)
{
	struct report_doc *o = arg;
	const struct file_input *in = o->in;

	input_text(f, in, (o->sections & SEC_BLAME) != 0);
	if (in->sched_samples || (!in->mem_samples && !in->ss_records))
		sched_report_text(f, o->r, o->sections, &o->ctx);
	if (o->sections & SEC_BLAME)
		blame_report_text(f, o->blame, in->topo, "no sched event in the file");
	if (in->ss_records && (o->sections & SEC_CPUS)) /* its schedstat snapshots */
		schedstat_report_text(f, in->ss_ok ? &in->ss_delta : NULL, in->ss_why);
	if (in->mem_samples && (o->sections & SEC_CACHELINES))
		cacheline_report_text(f, o->cl, &in->syms);
	if (o->stacks && in->callchains) {
		struct stacks_frames fr = { in->stacks, &in->namer, o->stacks_addresses,
					    o->stacks_keep_unknown };

		stacks_report_text(f, o->stacks, &fr, STACKS_TOP);
	}
}

/* The "input" member: what was read, its window, and whether its end is missing. */
static void input_json(struct json *j, const struct report_doc *o)
{
	const struct file_input *in = o->in;
	char text[400];

	json_object(j, "input");
	json_string(j, "path", in->path);
	json_bool(j, "pipe", in->pipe);
	json_uint(j, "records", in->records);
	json_uint(j, "samples", in->samples);
	json_uint(j, "sched_samples", in->sched_samples);
	json_uint(j, "memory_samples", in->mem_samples);
	json_uint(j, "other_tracepoint_samples", in->other_tracepoints);
	if (o->sections & SEC_BLAME)
		json_uint(j, "irq_samples", in->irq_samples);
	json_uint(j, "undecodable_samples", in->undecodable);
	json_uint(j, "unknown_records", in->unknown_total);
	json_string(j, "hostname", in->hostname);
	json_string(j, "osrelease", in->osrelease);
	json_string(j, "cmdline", in->cmdline);
	json_string(j, "topology", in->topo_note);
	if (in->workload_pid)
		json_int(j, "workload_pid", in->workload_pid);
	json_array(j, "added_pids");
	for (int i = 0; i < in->nadded; i++)
		json_int(j, NULL, in->added_pids[i]);
	json_array_end(j);
	if (in->from_ns || in->to_ns) {
		json_object(j, "window");
		json_number(j, "from_s", (double)in->from_ns / 1e9);
		if (in->to_ns)
			json_number(j, "to_s", (double)in->to_ns / 1e9);
		json_uint(j, "events_left_out", in->windowed);
		json_object_end(j);
	}
	json_bool(j, "end_missing", in->end.end != PROV_END_WHOLE);
	if (in->end.end != PROV_END_WHOLE)
		json_string(j, "end", prov_end_text(&in->end, text, sizeof(text)));
	json_object_end(j);
}

void report_doc_json(FILE *f, void *arg)
{
	struct report_doc *o = arg;
	const struct file_input *in = o->in;
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "locus_version", LOCUS_VERSION);
	input_json(&j, o);
	if (in->sched_samples || (!in->mem_samples && !in->ss_records))
		sched_report_json_members(&j, o->r, &o->ctx);
	if (o->sections & SEC_BLAME)
		blame_report_json(&j, o->blame, in->topo, "no sched event in the file");
	if (in->ss_records)
		schedstat_report_json(&j, in->ss_ok ? &in->ss_delta : NULL, in->ss_why);
	if (in->mem_samples)
		cacheline_report_json_members(&j, o->cl, &in->syms);
	if (o->stacks && in->callchains) {
		struct stacks_frames fr = { in->stacks, &in->namer, o->stacks_addresses,
					    o->stacks_keep_unknown };

		stacks_report_json(&j, o->stacks, &fr, STACKS_TOP);
	}
	json_object_end(&j);
	json_end(&j);
}

/* The --folded and --flame files of the stacks. 0, or -1 after saying why. */
static int stacks_files(const struct report_doc *d)
{
	const struct file_input *in = d->in;
	struct stacks_frames fr = { in->stacks, &in->namer, d->stacks_addresses,
				    d->stacks_keep_unknown };

	if (!in->callchains)
		locus_err("%s: no callchains in the file: the stacks written are empty (record "
			  "with locus record -g, or perf record -g)", in->path);
	return stacks_out_write(d->outs, d->nouts, d->stacks, &fr, &in->cap, in->path);
}

int report_doc_write(struct report_doc *d, const char *out, const char *json)
{
	int rc = 0;

	if (out) {
		if (write_file_atomically(out, report_doc_text, d) < 0)
			rc = -1;
	} else if (!(json && !strcmp(json, "-"))) {
		report_doc_text(stdout, d);
	}
	if (json && write_file_atomically(json, report_doc_json, d) < 0)
		rc = -1;
	if (d->nouts && stacks_files(d) < 0)
		rc = -1;
	if (d->svg && d->in->sched_samples && write_heatmap_svg(d->svg, d->r, &d->in->cap) < 0)
		rc = -1;
	return rc;
}
