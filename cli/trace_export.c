/* trace_export.c - a recording's timelines (Chrome trace, SVG) and stack files' options. */
#include "trace_export.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../collectors/caption.h"
#include "counting.h"
#include "opts.h"

struct trace_pass *trace_pass_new(struct trace_export *x, const char *path,
				  struct timeline_sink_cfg *tc)
{
	struct trace_pass *p = trace_pass_open(x, path);

	/* every event: it keeps what ran into its window itself; the analyzer's verdicts, of
	 * the window: as the report judges */
	if (p)
		*tc = (struct timeline_sink_cfg){ x->from_ns, x->to_ns, trace_pass_item,
						  trace_pass_started, p, NULL };
	return p;
}

int timeline_take(struct trace_export *x, const struct cli_cmd *cmd, int code, const char *arg)
{
	double secs;
	long mb;

	switch (code) {
	case OPT_TL_TRACE:
		x->trace = arg;
		return 1;
	case OPT_TL_SVG:
		x->svg = arg;
		return 1;
	case OPT_TL_FROM:
	case OPT_TL_TO:
		/* seconds into the recording, as ns */
		if (parse_double(arg, 0, 1e9, &secs) < 0) {
			cli_usage_error(cmd, "bad --%s '%s' (seconds into the recording)",
					code == OPT_TL_FROM ? "from" : "to", arg);
			return -1;
		}
		*(code == OPT_TL_FROM ? &x->from_ns : &x->to_ns) = (uint64_t)(secs * 1e9 + 0.5);
		x->window = true;
		return 1;
	case OPT_TL_LIMIT:
		if (parse_long(arg, 1, 1L << 20, &mb) < 0) {
			cli_usage_error(cmd, "bad --trace-limit '%s' (MiB, 1 or more)", arg);
			return -1;
		}
		x->limit = (uint64_t)mb << 20;
		return 1;
	}
	return 0;
}

int timeline_opts_finish(struct trace_export *x, const struct cli_cmd *cmd)
{
	if (x->window && !x->trace && !x->svg && !x->window_cuts_report) {
		cli_usage_error(cmd, "--from and --to choose the window of --trace and --svg-timeline");
		return -1;
	}
	if (x->limit && !x->trace) {
		cli_usage_error(cmd, "--trace-limit bounds the file of --trace (the SVG's size is "
				"bounded by its lanes)");
		return -1;
	}
	if (x->to_ns && x->to_ns <= x->from_ns) {
		cli_usage_error(cmd, "--to must come after --from");
		return -1;
	}
	if (!x->limit)
		x->limit = 1024ULL << 20;
	return cli_check_output(cmd, x->trace) < 0 || cli_check_output(cmd, x->svg) < 0 ? -1 : 0;
}

int trace_pass_finish(struct trace_pass *p, struct trace_export *x, struct file_pass *fp,
		      const char *what)
{
	const struct replay *st = &fp->rp;
	struct svg_caption cap = { 0 };

	if (!st->rd.sched_samples) {
		locus_err("%s: no sched events in the file: no timeline to write", what);
		return -1;
	}
	/* the recording's counts and results the timelines' heads carry */
	x->r = file_pass_results(fp);
	x->span_ns = st->last_ns > st->first_ns ? st->last_ns - st->first_ns : 0;
	x->events = st->rd.sched_samples;
	x->bytes = st->f.pos - (st->f.pipe ? PD_PIPE_HEADER_SIZE : st->f.data_off); /* records */
	if (p->svg)
		caption_file(&cap, &fp->rp.f, p->path);
	return trace_pass_emit(p, &fp->rp.topo, &fp->tl.tl, &cap);
}

int trace_export_file(const char *path, const char *sysfs_root, bool all, struct trace_export *x)
{
	/* the timeline's window, and its analyzer's; the heads: the whole recording's results */
	struct replay_opts o = { .path = path, .sysfs_root = sysfs_root, .line_size = 64,
				 .sort = CL_SORT_TOTAL, .from_ns = x->from_ns, .to_ns = x->to_ns };
	struct file_pass_asks a = { .follow = !all, .whole_results = true };
	struct file_pass *fp = xcalloc(1, sizeof(*fp));
	struct timeline_sink_cfg tc;
	struct trace_pass *p = trace_pass_new(x, path, &tc);
	char err[400];
	int rc = -1;

	if (!p) /* without its scratch file: said */
		goto out;
	if (file_pass_read(fp, &o, &a, &tc, err, sizeof(err)) < 0)
		locus_err("%s: %s: no timeline written", path, err);
	else
		rc = trace_pass_finish(p, x, fp, path);
out:
	trace_pass_free(p);
	file_pass_release(fp);
	free(fp);
	return rc;
}

int stacks_take(struct stacks_plan *p, const struct cli_cmd *cmd, int code, const char *arg)
{
	struct stacks_out o = { 0 };
	const char *eq;

	if (code == OPT_ST_ADDRS) {
		p->addresses = true;
		return 1;
	}
	if (code != OPT_ST_FOLDED && code != OPT_ST_FLAME)
		return 0;
	eq = strchr(arg, '=');
	if (!eq || stacks_out_view(&o, arg, (size_t)(eq - arg)) < 0 || !eq[1]) {
		cli_usage_error(cmd, "bad --%s '%s' (KIND=FILE, KIND one of wakers, blocked, "
				"offwake, blocked-time, offwake-time)",
				code == OPT_ST_FLAME ? "flame" : "folded", arg);
		return -1;
	}
	if (p->n == STACKS_OUT_MAX) {
		cli_usage_error(cmd, "more than %d --folded and --flame outputs", STACKS_OUT_MAX);
		return -1;
	}
	if (cli_check_output(cmd, eq + 1) < 0)
		return -1;
	o.flame = code == OPT_ST_FLAME;
	o.path = eq + 1;
	p->out[p->n++] = o;
	return 1;
}
