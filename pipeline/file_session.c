/* file_session.c - one pass over a file into a report's sinks (file_session.h). */
#include "file_session.h"

#include <stdio.h>
#include <string.h>

#include "../collectors/caption.h"
#include "../common/util.h"

int file_session_open(struct file_session *fp, const struct replay_opts *o, char *err,
		      size_t len)
{
	memset(fp, 0, sizeof(*fp));
	return replay_open(&fp->rp, o, &fp->plan.list, err, len);
}

int file_session_run(struct file_session *fp, const struct file_session_asks *a,
		     const struct timeline_sink_cfg *tl, char *err, size_t len)
{
	sink_plan_file(&fp->plan, &fp->rp, a, tl);
	if (replay_run(&fp->rp, err, len) < 0) {
		if (tl) /* what was read before the error */
			timeline_sink_flush_held(sink_plan_timeline(&fp->plan));
		return -1;
	}
	replay_stamp(&fp->rp, file_session_results(fp));
	return 0;
}

int file_session_read(struct file_session *fp, struct replay_opts *o,
		      const struct file_session_asks *a, const struct timeline_sink_cfg *tl,
		      char *err, size_t len)
{
	const struct sinks *l = &fp->plan.list;
	int rc = file_session_open(fp, o, err, len);

	if (rc == 0) {
		if (a->follow)
			file_session_follow_workload(fp, o);
		rc = file_session_run(fp, a, tl, err, len);
	}
	if (rc == 0 && o->from_ns && l->have_first &&
	    o->from_ns > l->last_ns - l->first_ns) { /* an empty window: no report */
		snprintf(err, len, "--from is past the recording's end (it lasts %.3f s)",
			 (double)(l->last_ns - l->first_ns) / 1e9);
		rc = -1;
	}
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	return rc;
}

void file_session_follow_workload(struct file_session *fp, struct replay_opts *o)
{
	if (!fp->rp.f.workload_pid)
		return;
	o->pid = fp->rp.f.workload_pid;
	o->nmore = fp->rp.f.nadded;
	memcpy(o->more, fp->rp.f.added_pids, sizeof(o->more));
}

struct sched_results *file_session_results(struct file_session *fp)
{
	struct sink_begin b;

	replay_begin_info(&fp->rp, &b);
	return sink_plan_results(&fp->plan, &b);
}

const struct blame_results *file_session_blame(const struct file_session *fp)
{
	return sink_plan_blame(&fp->plan);
}

const struct cacheline *file_session_cachelines(struct file_session *fp)
{
	return sink_plan_cachelines(&fp->plan);
}

const struct stacks *file_session_stacks(struct file_session *fp)
{
	const struct stack_table *tab;
	struct stack_namer nm;

	return sink_plan_stacks(&fp->plan, &tab, &nm);
}

int file_session_timeline(struct file_session *fp, const char *cap_path,
			  struct pass_timeline *t)
{
	const struct replay *st = &fp->rp;
	const struct sinks *l = &fp->plan.list;
	struct timeline_sink *ts = sink_plan_timeline(&fp->plan);

	memset(t, 0, sizeof(*t));
	if (!st->rd.sched_samples || !ts)
		return -1;
	t->tl = &ts->tl;
	t->topo = &st->topo;
	t->r = file_session_results(fp);
	t->span_ns = l->last_ns > l->first_ns ? l->last_ns - l->first_ns : 0;
	t->events = st->rd.sched_samples;
	t->bytes = st->f.pos - (st->f.pipe ? PD_PIPE_HEADER_SIZE : st->f.data_off); /* records */
	if (cap_path)
		caption_file(&t->cap, &st->f, cap_path);
	return 0;
}

void file_session_release(struct file_session *fp)
{
	sink_plan_release(&fp->plan);
	replay_release(&fp->rp);
	memset(fp, 0, sizeof(*fp));
}

void file_session_input(struct file_session *fp, struct file_input *in)
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
		.windowed = fp->plan.list.windowed, .ss_records = rd->ss.records,
		.ss_snapshots = rd->ss.n,
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

void file_session_progress(const struct pd_file *f, void *ctx)
{
	(void)ctx;
	if (f->pipe)
		fprintf(stderr, "\rlocus: %llu records", (unsigned long long)f->records);
	else
		fprintf(stderr, "\rlocus: %3.0f%% of %s (%llu records)",
			100.0 * (double)(f->pos - f->data_off) / (double)(f->data_size + 1), f->path,
			(unsigned long long)f->records);
}

bool file_session_found(const struct file_session *fp)
{
	const struct replay *st = &fp->rp;

	return st->rd.sched_samples || st->rd.mem_samples || st->rd.ss.records;
}

void file_session_notes(const struct file_session *fp, const char *path, bool quiet)
{
	const struct replay *st = &fp->rp;

	locus_verbose("%s: %zu events held at most, %llu re-sorted within a CPU, %llu late, "
		      "%llu forced releases (no rounds)", path, st->ro.peak,
		      (unsigned long long)st->ro.unordered, (unsigned long long)st->ro.late,
		      (unsigned long long)st->ro.relieved);
	if (!quiet && strncmp(st->topo_note, "from the file", 13))
		fprintf(stderr, "locus: %s: topology: %s\n", path, st->topo_note);
	if (!file_session_found(fp))
		locus_err("%s: no sched tracepoint or memory samples in the file (record with locus "
			  "record, perf sched record or perf c2c record)", path);
}
