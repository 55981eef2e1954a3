/* report_doc.c - what locus report writes for a replayed file: the text and JSON documents. */
#include "report_doc.h"

#include <string.h>

#include "../common/util.h"
#include "../report/blame_report.h"
#include "../report/cacheline_report.h"
#include "../report/schedstat_report.h"
#include "../report/json.h"
#include "../report/stacks_report.h"

#define STACKS_TOP 5 /* stacks shown of each view */

void report_doc_init(struct report_doc *d, struct file_pass *fp, unsigned sections, int width)
{
	struct replay *st = &fp->rp;

	d->fp = fp;
	d->st = st;
	d->sections = sections;
	d->topo_note = st->topo_note;
	d->ctx = (struct sched_report_ctx){ st->rd.sched_samples > 0, "no sched tracepoint samples",
					    st->rd.sched_samples, st->f.pos, width };
}

/* A file whose end is missing says so first, folded to the report's width. */
static void end_text(FILE *f, const struct replay *st)
{
	struct provenance p = { 0 };
	char text[400];
	const char *s = text;

	replay_end(st, &p);
	if (p.end == PROV_END_WHOLE)
		return;
	prov_end_text(&p, text, sizeof(text));
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
static void input_tasks(FILE *f, const struct replay *st)
{
	const struct pd_file *pf = &st->f;

	if (pf->workload_pid) {
		fprintf(f, "   workload: pid %d", pf->workload_pid);
		for (int i = 0; i < pf->nadded; i++)
			fprintf(f, "%s%d", i ? "," : ", with pids ", pf->added_pids[i]);
		fprintf(f, "%s%s\n", pf->nadded ? " added by record -p" : "",
			st->o->pid != pf->workload_pid ? "" :
			pf->nadded ? " (their tasks are reported; -a for every task)" :
			" (its tasks are reported; -a for every task)");
	}
	if (st->o->pid && st->o->pid != pf->workload_pid) {
		fprintf(f, "   reported: the tasks of pid %d", st->o->pid);
		for (int i = 0; i < st->o->nmore; i++)
			fprintf(f, ", %d", st->o->more[i]);
		fprintf(f, " and their children (-p)\n");
	}
}

static void input_text(FILE *f, const struct replay *st, const char *topo_note, bool blame)
{
	const struct pd_file *pf = &st->f;
	uint64_t other = st->rd.other_tracepoints - (blame ? st->rd.irq_samples : 0);
	char a[32], b[32], c[32];

	fprintf(f, "\n Input: %s%s\n   %s records, %s samples: %s sched events", pf->path,
		pf->pipe ? " (pipe mode)" : "", fmt_count(pf->records, a, sizeof(a)),
		fmt_count(st->rd.samples, b, sizeof(b)), fmt_count(st->rd.sched_samples, c, sizeof(c)));
	if (st->rd.mem_samples)
		fprintf(f, ", %s memory samples", fmt_count(st->rd.mem_samples, a, sizeof(a)));
	fputc('\n', f);
	if (st->rd.ss.records)
		fprintf(f, "   %s /proc/schedstat records (SCHEDSTAT_CPU and _DOMAIN), %d snapshot%s\n",
			fmt_count(st->rd.ss.records, a, sizeof(a)), st->rd.ss.n,
			st->rd.ss.n == 1 ? "" : "s");
	if (pf->hostname[0] || pf->cmdline[0])
		fprintf(f, "   recorded on %s (%s) by '%.200s'\n", pf->hostname[0] ? pf->hostname : "?",
			pf->osrelease[0] ? pf->osrelease : "?", pf->cmdline);
	input_tasks(f, st);
	if (st->o->from_ns || st->o->to_ns) {
		fprintf(f, "   window: %s to %s from the first event (--from/--to): %s events "
			   "outside it left out (forks and exits kept)\n",
			fmt_ns(st->o->from_ns, a, sizeof(a)),
			st->o->to_ns ? fmt_ns(st->o->to_ns, b, sizeof(b)) : "the end",
			fmt_count(st->windowed, c, sizeof(c)));
	}
	if (pf->unknown_total) {
		fprintf(f, "   %llu records of unknown types were skipped (type:count",
			(unsigned long long)pf->unknown_total);
		for (int t = 0; t < PD_REC_MAX; t++)
			if (pf->unknown[t])
				fprintf(f, " %d:%llu", t, (unsigned long long)pf->unknown[t]);
		fprintf(f, ")\n");
	}
	if (other)
		fprintf(f, "   %llu samples of other tracepoints (sched_stat_runtime, ...) are not "
			   "used\n", (unsigned long long)other);
	if (blame && st->rd.irq_samples)
		fprintf(f, "   %llu irq tracepoint samples: the interrupts in the waits\n",
			(unsigned long long)st->rd.irq_samples);
	if (st->rd.undecodable)
		fprintf(f, "   %llu sched samples could not be decoded (malformed payloads)\n",
			(unsigned long long)st->rd.undecodable);
	fprintf(f, "   topology: %s\n", topo_note);
	end_text(f, st);
}

void report_doc_text(FILE *f, void *arg)
{
	struct report_doc *o = arg;

	input_text(f, o->st, o->topo_note, (o->sections & SEC_BLAME) != 0);
	if (o->st->rd.sched_samples || (!o->st->rd.mem_samples && !o->st->rd.ss.records))
		sched_report_text(f, file_pass_results(o->fp), o->sections, &o->ctx);
	if (o->sections & SEC_BLAME)
		blame_report_text(f, file_pass_blame(o->fp), &o->st->topo,
				  "no sched event in the file");
	if (o->st->rd.ss.records && (o->sections & SEC_CPUS)) { /* its schedstat snapshots */
		struct schedstat d = { 0 };
		char why[256];
		int ok = ss_records_delta(&o->st->rd.ss, &d, why, sizeof(why)) == 0;

		schedstat_report_text(f, ok ? &d : NULL, why);
		schedstat_release(&d);
	}
	if (o->st->rd.mem_samples && (o->sections & SEC_CACHELINES)) {
		struct symbolizer sz = symbols_symbolizer(&o->st->syms);

		cacheline_report_text(f, &o->fp->cl.cl, &sz);
	}
	if (o->fp->stacks_on && o->st->rd.callchains) {
		struct stack_namer nm = symbols_stack_namer(&o->st->syms);
		struct stacks_frames fr = { &o->st->rd.stacks, &nm, o->stacks_addresses };

		stacks_report_text(f, &o->fp->stk.st, &fr, STACKS_TOP);
	}
}

/* The "input" member: what was read, its window, and whether its end is missing. */
static void input_json(struct json *j, const struct report_doc *o)
{
	const struct replay *st = o->st;
	struct provenance p = { 0 };
	char text[400];

	json_object(j, "input");
	json_string(j, "path", st->f.path);
	json_bool(j, "pipe", st->f.pipe);
	json_uint(j, "records", st->f.records);
	json_uint(j, "samples", st->rd.samples);
	json_uint(j, "sched_samples", st->rd.sched_samples);
	json_uint(j, "memory_samples", st->rd.mem_samples);
	json_uint(j, "other_tracepoint_samples", st->rd.other_tracepoints);
	if (o->sections & SEC_BLAME)
		json_uint(j, "irq_samples", st->rd.irq_samples);
	json_uint(j, "undecodable_samples", st->rd.undecodable);
	json_uint(j, "unknown_records", st->f.unknown_total);
	json_string(j, "hostname", st->f.hostname);
	json_string(j, "osrelease", st->f.osrelease);
	json_string(j, "cmdline", st->f.cmdline);
	json_string(j, "topology", o->topo_note);
	if (st->f.workload_pid)
		json_int(j, "workload_pid", st->f.workload_pid);
	json_array(j, "added_pids");
	for (int i = 0; i < st->f.nadded; i++)
		json_int(j, NULL, st->f.added_pids[i]);
	json_array_end(j);
	if (st->o->from_ns || st->o->to_ns) {
		json_object(j, "window");
		json_number(j, "from_s", (double)st->o->from_ns / 1e9);
		if (st->o->to_ns)
			json_number(j, "to_s", (double)st->o->to_ns / 1e9);
		json_uint(j, "events_left_out", st->windowed);
		json_object_end(j);
	}
	replay_end(st, &p);
	json_bool(j, "end_missing", p.end != PROV_END_WHOLE);
	if (p.end != PROV_END_WHOLE)
		json_string(j, "end", prov_end_text(&p, text, sizeof(text)));
	json_object_end(j);
}

void report_doc_json(FILE *f, void *arg)
{
	struct report_doc *o = arg;
	struct replay *st = o->st;
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "locus_version", LOCUS_VERSION);
	input_json(&j, o);
	if (st->rd.sched_samples || (!st->rd.mem_samples && !st->rd.ss.records))
		sched_report_json_members(&j, file_pass_results(o->fp), &o->ctx);
	if (o->sections & SEC_BLAME)
		blame_report_json(&j, file_pass_blame(o->fp), &st->topo,
				  "no sched event in the file");
	if (st->rd.ss.records) {
		struct schedstat d = { 0 };
		char why[256];
		int ok = ss_records_delta(&st->rd.ss, &d, why, sizeof(why)) == 0;

		schedstat_report_json(&j, ok ? &d : NULL, why);
		schedstat_release(&d);
	}
	if (st->rd.mem_samples) {
		struct symbolizer sz = symbols_symbolizer(&st->syms);

		cacheline_report_json_members(&j, &o->fp->cl.cl, &sz);
	}
	if (o->fp->stacks_on && st->rd.callchains) {
		struct stack_namer nm = symbols_stack_namer(&st->syms);
		struct stacks_frames fr = { &st->rd.stacks, &nm, o->stacks_addresses };

		stacks_report_json(&j, &o->fp->stk.st, &fr, STACKS_TOP);
	}
	json_object_end(&j);
	json_end(&j);
}
