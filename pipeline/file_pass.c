/* file_pass.c - one pass over a file into a report's sinks (file_pass.h). */
#include "file_pass.h"

#include <stdio.h>
#include <string.h>

#include "../collectors/caption.h"
#include "../common/util.h"

int file_pass_open(struct file_pass *fp, const struct replay_opts *o, char *err, size_t len)
{
	struct cacheline_cfg cc;

	memset(fp, 0, sizeof(*fp));
	if (replay_open(&fp->rp, o, &fp->sinks, err, len) < 0)
		return -1;
	cc = (struct cacheline_cfg){ &fp->rp.topo, o->line_size, o->sort, CL_MIN_SAMPLES };
	cacheline_sink_init(&fp->cl, &cc);
	fp->cl_on = true;
	return 0;
}

/* The wakeup analyzer's idle verdicts to the sinks that mark or count them. */
static void verdicts(void *ctx, const struct idle_told *v)
{
	struct file_pass *fp = ctx;

	if (fp->timeline)
		timeline_sink_verdict(&fp->tl, v);
	if (fp->blame)
		blame_sink_verdict(&fp->bl, v);
}

int file_pass_run(struct file_pass *fp, const struct timeline_sink_cfg *tl, char *err, size_t len)
{
	const struct replay_opts *o = fp->rp.o;
	struct wakeup_cfg wc = { 0 };

	wc.system_wide = o->pid == 0;
	if (tl) { /* one event at a time, the timeline first, told the analyzer's verdicts */
		timeline_sink_init(&fp->tl, tl);
		fp->tl.cfg.judge = &fp->wk;
		fp->timeline = true;
		sinks_add(&fp->sinks, &fp->tl.k);
	}
	if (fp->blame) { /* before the analyzer: it finishes after it, told its last verdicts */
		blame_sink_init(&fp->bl, &fp->wk);
		if (tl) { /* each wakeup's split on its flow, before its verdict releases it */
			fp->bl.told = timeline_sink_blame;
			fp->bl.told_ctx = &fp->tl;
		}
		sinks_add(&fp->sinks, &fp->bl.k);
	}
	if (tl || fp->blame) { /* one event at a time: they ask it what it tracks */
		wc.verdict = verdicts;
		wc.verdict_ctx = fp;
	}
	/* one by one too where the stacks follow the analyzer's task trees */
	wakeup_sink_init(&fp->wk, &wc, tl != NULL || fp->blame || (fp->stacks_on && o->pid));
	if (o->pid)
		wakeup_sink_track(&fp->wk, o->pid);
	for (int i = 0; o->pid && i < o->nmore; i++)
		wakeup_sink_track(&fp->wk, o->more[i]);
	sinks_add(&fp->sinks, &fp->wk.k);
	if (fp->whole_results && (o->from_ns || o->to_ns)) {
		wc.verdict = NULL;
		wakeup_sink_init(&fp->whole, &wc, false);
		fp->whole.k.whole = true;
		for (int i = 0; o->pid && i <= o->nmore; i++)
			wakeup_sink_track(&fp->whole, i ? o->more[i - 1] : o->pid);
		sinks_add(&fp->sinks, &fp->whole.k);
		fp->two = true;
	}
	sinks_add(&fp->sinks, &fp->cl.k);
	if (fp->stacks_on) {
		stacks_sink_init(&fp->stk);
		if (o->pid) /* the report's tasks: the workload's tree, -p */
			stacks_sink_scope(&fp->stk, &fp->wk);
		sinks_add(&fp->sinks, &fp->stk.k);
	}
	if (replay_run(&fp->rp, err, len) < 0) {
		if (fp->timeline)
			timeline_sink_flush_held(&fp->tl); /* what was read before the error */
		return -1;
	}
	replay_stamp(&fp->rp, file_pass_results(fp));
	return 0;
}

int file_pass_read(struct file_pass *fp, struct replay_opts *o, const struct file_pass_asks *a,
		   const struct timeline_sink_cfg *tl, char *err, size_t len)
{
	int rc = file_pass_open(fp, o, err, len);

	if (rc == 0) {
		if (a->follow)
			file_pass_follow_workload(fp, o);
		fp->stacks_on = a->stacks || (a->stacks_if_recorded && pd_has_callchains(&fp->rp.f));
		fp->blame = a->blame;
		fp->whole_results = a->whole_results;
		rc = file_pass_run(fp, tl, err, len);
	}
	if (rc == 0 && o->from_ns && fp->rp.have_first &&
	    o->from_ns > fp->rp.last_ns - fp->rp.first_ns) { /* an empty window: no report */
		snprintf(err, len, "--from is past the recording's end (it lasts %.3f s)",
			 (double)(fp->rp.last_ns - fp->rp.first_ns) / 1e9);
		rc = -1;
	}
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	return rc;
}

void file_pass_follow_workload(struct file_pass *fp, struct replay_opts *o)
{
	if (!fp->rp.f.workload_pid)
		return;
	o->pid = fp->rp.f.workload_pid;
	o->nmore = fp->rp.f.nadded;
	memcpy(o->more, fp->rp.f.added_pids, sizeof(o->more));
}

struct sched_results *file_pass_results(struct file_pass *fp)
{
	struct sink_begin b;

	replay_begin_info(&fp->rp, &b);
	return wakeup_sink_results(fp->two ? &fp->whole : &fp->wk, &b);
}

const struct blame_results *file_pass_blame(const struct file_pass *fp)
{
	return fp->blame ? blame_sink_results(&fp->bl) : NULL;
}

void file_pass_release(struct file_pass *fp)
{
	bool listed = fp->sinks.n > 0;

	sinks_release(&fp->sinks);
	if (fp->cl_on && !listed)
		fp->cl.k.ops->release(&fp->cl.k);
	replay_release(&fp->rp);
	memset(fp, 0, sizeof(*fp));
}

void file_pass_input(struct file_pass *fp, struct file_input *in)
{
	struct replay *st = &fp->rp;
	const struct pd_file *pf = &st->f;
	const struct pd_reader *rd = &st->rd;

	memset(in, 0, sizeof(*in));
	*in = (struct file_input){
		.path = pf->path, .pipe = pf->pipe, .records = pf->records,
		/* the records' bytes, as locus record counts what it wrote (not the formats and
		 * symbols a file keeps beside them) */
		.bytes = pf->pos - (pf->pipe ? PD_PIPE_HEADER_SIZE : pf->data_off),
		.file_bytes = pf->file_size,
		.samples = rd->samples, .sched_samples = rd->sched_samples,
		.mem_samples = rd->mem_samples, .undecodable = rd->undecodable,
		.callchains = rd->callchains, .other_tracepoints = rd->other_tracepoints,
		.irq_samples = rd->irq_samples, .unknown_total = pf->unknown_total,
		.unknown = pf->unknown, .nunknown = PD_REC_MAX, .hostname = pf->hostname,
		.osrelease = pf->osrelease, .cmdline = pf->cmdline,
		.workload_pid = pf->workload_pid, .added_pids = pf->added_pids,
		.nadded = pf->nadded, .pid = st->o->pid, .more = st->o->more,
		.nmore = st->o->nmore, .from_ns = st->o->from_ns, .to_ns = st->o->to_ns,
		.windowed = st->windowed, .ss_records = rd->ss.records, .ss_snapshots = rd->ss.n,
		.topo_note = st->topo_note, .topo = &st->topo,
		.syms = symbols_symbolizer(&st->syms), .namer = symbols_stack_namer(&st->syms),
		.stacks = &rd->stacks,
	};
	if (rd->ss.records)
		in->ss_ok = ss_records_delta(&rd->ss, &in->ss_delta, in->ss_why,
					     sizeof(in->ss_why)) == 0;
	replay_end(st, &in->end);
	caption_file(&in->cap, pf, pf->path);
}

void file_input_release(struct file_input *in)
{
	schedstat_release(&in->ss_delta);
}

void file_pass_progress(const struct pd_file *f, void *ctx)
{
	(void)ctx;
	if (f->pipe)
		fprintf(stderr, "\rlocus: %llu records", (unsigned long long)f->records);
	else
		fprintf(stderr, "\rlocus: %3.0f%% of %s (%llu records)",
			100.0 * (double)(f->pos - f->data_off) / (double)(f->data_size + 1), f->path,
			(unsigned long long)f->records);
}

bool file_pass_found(const struct file_pass *fp)
{
	const struct replay *st = &fp->rp;

	return st->rd.sched_samples || st->rd.mem_samples || st->rd.ss.records;
}

void file_pass_notes(const struct file_pass *fp, const char *path, bool quiet)
{
	const struct replay *st = &fp->rp;

	locus_verbose("%s: %zu events held at most, %llu re-sorted within a CPU, %llu late, "
		      "%llu forced releases (no rounds)", path, st->ro.peak,
		      (unsigned long long)st->ro.unordered, (unsigned long long)st->ro.late,
		      (unsigned long long)st->ro.relieved);
	if (!quiet && strncmp(st->topo_note, "from the file", 13))
		fprintf(stderr, "locus: %s: topology: %s\n", path, st->topo_note);
	if (!file_pass_found(fp))
		locus_err("%s: no sched tracepoint or memory samples in the file (record with locus "
			  "record, perf sched record or perf c2c record)", path);
}
