/* trace_export.c - a recording replayed into a Chrome trace and an SVG timeline (trace_export.h). */
#include "trace_export.h"

#include <stdlib.h>
#include <string.h>

#include "../analyzers/timeline.h"
#include "../pipeline/file_pass.h"
#include "../analyzers/tl_lanes.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "../report/svg_timeline.h"
#include "../report/trace_json.h"
#include "caption.h"
#include "counting.h"
#include "opts.h"

struct pass {
	struct trace_export *x;
	const struct replay_opts *o;
	struct file_pass *fp;
	struct trace_json tj;
	bool json;		/* tj is open */
	struct tl_lanes lanes;
	bool svg;
	int rc;
};

static void both(void *ctx, const struct tl_item *it)
{
	struct pass *p = ctx;

	if (p->json)
		trace_json_item(&p->tj, it);
	if (p->svg)
		tl_lanes_item(&p->lanes, it);
}

/* The lanes' window, once the timeline has its first event. */
static void started(void *ctx, uint64_t first_ns)
{
	struct pass *p = ctx;
	uint64_t end = first_ns + p->x->span_ns, t0 = first_ns + p->x->from_ns;

	if (!p->svg)
		return;
	if (p->x->to_ns && first_ns + p->x->to_ns < end)
		end = first_ns + p->x->to_ns;
	tl_lanes_window(&p->lanes, first_ns, t0, end);
}

/* The replay itself, into the trace when f is not NULL. */
static void run(struct pass *p, FILE *f)
{
	struct trace_export *x = p->x;
	struct replay_opts ro = *p->o;
	/* the analyzer's verdicts, of the window: as the report judges */
	struct timeline_sink_cfg tc = { x->from_ns, x->to_ns, both, started, p, NULL };
	const struct timeline *tl = &p->fp->tl.tl;

	ro.from_ns = x->from_ns;
	ro.to_ns = x->to_ns;
	ro.progress = NULL;
	p->rc = -1;
	if (file_pass_open(p->fp, &ro, x->err, sizeof(x->err)) < 0)
		return;
	if (p->svg) {
		struct tl_lanes_cfg lc = { &p->fp->rp.topo, TIMELINE_SVG_WIDTH, 64,
					   TIMELINE_SVG_ARROWS };

		tl_lanes_init(&p->lanes, &lc);
	}
	if (f) {
		trace_json_begin(&p->tj, f, p->fp->rp.topo.ncpus, x->limit, p->o->path, x->r,
				 x->events, x->bytes);
		p->json = true;
	}
	if (file_pass_run(p->fp, &tc, x->err, sizeof(x->err)) == 0)
		p->rc = 0;
	if (f) {
		trace_json_end(&p->tj); /* valid JSON, even of what was read before an error */
		x->tbytes = p->tj.bytes;
		x->dropped = p->tj.dropped;
	}
	x->slices = tl->slices;
	x->flows = tl->flows;
	x->migrations = tl->migrations;
	x->counters = tl->counters;
}

static void trace_doc(FILE *f, void *ctx)
{
	run(ctx, f);
}

static void svg_doc(FILE *f, void *ctx)
{
	struct pass *p = ctx;
	struct svg_caption cap;
	struct svg_timeline_info in = { p->o->path, p->x->r, p->x->events, p->x->bytes,
					p->fp->tl.tl.missed, &cap };

	caption_file(&cap, &p->fp->rp.f, p->o->path);

	svg_timeline(f, &p->lanes, &in);
}

static void say(const struct pass *p)
{
	const struct trace_export *x = p->x;
	const struct timeline *tl = &p->fp->tl.tl;
	char a[32], b[32];

	if (x->trace && x->dropped)
		locus_err("%s: stopped at the limit of %llu MiB (--trace-limit): %llu events left "
			  "out; narrow the window with --from/--to", x->trace,
			  (unsigned long long)(x->limit >> 20), (unsigned long long)x->dropped);
	locus_verbose("%s: %llu flows of the workload the analyzer did not judge, %llu of its "
		      "verdicts on wakeups that made no flow", p->o->path,
		      (unsigned long long)tl->unjudged, (unsigned long long)tl->judged_unseen);
	if (x->quiet)
		return;
	if (tl->missed)
		fprintf(stderr, "locus: %s switch-ins inferred: the recording lacks them (records "
				"the stream lost; the kernel fired them): those periods start at the "
				"task's first event on the CPU (none drawn that ended there)\n",
			fmt_count(tl->missed, a, sizeof(a)));
	if (x->trace)
		fprintf(stderr, "locus: %s: %s bytes, %llu running periods, %llu wakeup flows, "
				"%llu migrations, %llu counter values\n",
			x->trace, fmt_count(x->tbytes, a, sizeof(a)), (unsigned long long)x->slices,
			(unsigned long long)x->flows, (unsigned long long)x->migrations,
			(unsigned long long)x->counters);
	if (x->svg)
		fprintf(stderr, "locus: %s: %s of %s, %d lanes (one per %s), %d wakeup arrows of "
				"%s\n",
			x->svg, fmt_ns(p->lanes.t1 - p->lanes.t0, a, sizeof(a)), p->o->path,
			p->lanes.fold.n, p->lanes.fold.unit, p->lanes.narrows,
			fmt_count(p->lanes.wl_flows, b, sizeof(b)));
}

/* Seconds into a recording, as ns: a finite number in [0, 1e9]. */
static int parse_seconds(const char *arg, uint64_t *ns)
{
	char *end;
	double d = strtod(arg, &end);

	if (end == arg || *end || !(d >= 0 && d <= 1e9))
		return -1;
	*ns = (uint64_t)(d * 1e9 + 0.5);
	return 0;
}

int timeline_take(struct trace_export *x, const struct cli_cmd *cmd, int code, const char *arg)
{
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
		if (parse_seconds(arg, code == OPT_TL_FROM ? &x->from_ns : &x->to_ns) < 0) {
			cli_usage_error(cmd, "bad --%s '%s' (seconds into the recording)",
					code == OPT_TL_FROM ? "from" : "to", arg);
			return -1;
		}
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

int trace_export_file(const char *path, const char *sysfs_root, bool all, struct trace_export *x)
{
	struct replay_opts o = { .path = path, .sysfs_root = sysfs_root, .line_size = 64,
				 .sort = CL_SORT_TOTAL };
	struct file_pass *fp = xcalloc(1, sizeof(*fp));
	struct replay *st = &fp->rp;
	char err[400];
	int rc = -1;

	if (file_pass_open(fp, &o, err, sizeof(err)) == 0) {
		if (!all && st->f.workload_pid) {
			o.pid = st->f.workload_pid;
			o.nmore = st->f.nadded;
			memcpy(o.more, st->f.added_pids, sizeof(o.more));
		}
		if (file_pass_run(fp, NULL, err, sizeof(err)) == 0)
			rc = 0;
	}
	if (rc < 0) {
		locus_err("%s: %s: no timeline written", path, err);
	} else if (!st->rd.sched_samples) {
		locus_err("%s: no sched events in the file: no timeline to write", path);
		rc = -1;
	} else {
		x->r = file_pass_results(fp);
		x->span_ns = st->last_ns > st->first_ns ? st->last_ns - st->first_ns : 0;
		x->events = st->rd.sched_samples;
		x->bytes = st->f.pos;
		rc = trace_export(&o, x);
	}
	file_pass_release(fp);
	free(fp);
	return rc;
}

int trace_export(const struct replay_opts *o, struct trace_export *x)
{
	struct pass p = { .x = x, .o = o, .svg = x->svg != NULL };
	uint64_t span = x->span_ns;
	int rc = -1;

	if (x->from_ns > span) {
		char a[32];

		locus_err("%s: --from is past the recording's end (%s in)", o->path,
			  fmt_ns(span, a, sizeof(a)));
		return -1;
	}
	p.fp = xcalloc(1, sizeof(*p.fp));
	if (x->trace) {
		if (write_file_atomically(x->trace, trace_doc, &p) < 0)
			goto out;
	} else {
		run(&p, NULL);
	}
	if (p.rc < 0) {
		if (x->trace)
			locus_err("%s: %s (%s holds what was read before)", o->path, x->err,
				  x->trace);
		else
			locus_err("%s: %s", o->path, x->err);
		goto out;
	}
	if (x->svg && write_file_atomically(x->svg, svg_doc, &p) < 0)
		goto out;
	say(&p);
	rc = 0;
out:
	if (p.svg && p.lanes.px)
		tl_lanes_release(&p.lanes);
	file_pass_release(p.fp);
	free(p.fp);
	return rc;
}
