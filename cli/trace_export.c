/* trace_export.c - a recording replayed into a Chrome trace and an SVG timeline (trace_export.h). */
#include "trace_export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../analyzers/timeline.h"
#include "../analyzers/tl_lanes.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "../report/svg_timeline.h"
#include "../report/trace_json.h"
#include "caption.h"
#include "counting.h"
#include "opts.h"

/* The timeline's items, held until the pass ends: the results and the span are known then. */
struct trace_pass {
	struct trace_export *x;
	FILE *body;		/* --trace: the items, before the head they follow */
	struct trace_json tj;
	struct tl_item *held;	/* --svg-timeline: the lanes' items (counters apart) */
	size_t nheld, cap_held;
	bool started;		/* the timeline had its first event, at first_ns */
	uint64_t first_ns;
	struct tl_lanes lanes;
	bool svg;
	const char *path;	/* the recording */
	struct file_pass *fp;	/* after the pass: its timeline, topology and counts */
};

static void both(void *ctx, const struct tl_item *it)
{
	struct trace_pass *p = ctx;

	if (p->body)
		trace_json_item(&p->tj, it);
	if (p->svg && it->kind != TL_COUNTER) { /* the lanes draw no counter */
		if (p->nheld == p->cap_held) {
			p->cap_held = p->cap_held ? 2 * p->cap_held : 4096;
			p->held = xrealloc(p->held, p->cap_held * sizeof(*p->held));
		}
		p->held[p->nheld++] = *it;
	}
}

static void started(void *ctx, uint64_t first_ns)
{
	struct trace_pass *p = ctx;

	p->started = true;
	p->first_ns = first_ns;
}

/* A scratch file for the trace's items, gone when closed. NULL after saying why. */
static FILE *scratch(const char *path)
{
	FILE *f = tmpfile();

	if (!f)
		locus_err("%s: cannot write a scratch file for its events: %s (set TMPDIR)", path,
			  strerror(errno));
	return f;
}

struct trace_pass *trace_pass_new(struct trace_export *x, const char *path,
				  struct timeline_sink_cfg *tc)
{
	struct trace_pass *p = xcalloc(1, sizeof(*p));

	p->x = x;
	p->path = path;
	p->svg = x->svg != NULL;
	if (x->trace) {
		p->body = scratch(x->trace);
		if (!p->body) {
			free(p);
			return NULL;
		}
		trace_json_body(&p->tj, p->body, 0, x->limit);
	}
	/* every event: it keeps what ran into its window itself; the analyzer's verdicts, of
	 * the window: as the report judges */
	*tc = (struct timeline_sink_cfg){ x->from_ns, x->to_ns, both, started, p, NULL };
	return p;
}

/* The lanes, once the span is known: the window, then the items held. */
static void draw_lanes(struct trace_pass *p)
{
	struct tl_lanes_cfg lc = { &p->fp->rp.topo, TIMELINE_SVG_WIDTH, 64, TIMELINE_SVG_ARROWS };
	const struct trace_export *x = p->x;

	tl_lanes_init(&p->lanes, &lc);
	if (p->started) {
		uint64_t end = p->first_ns + x->span_ns, t0 = p->first_ns + x->from_ns;

		if (x->to_ns && p->first_ns + x->to_ns < end)
			end = p->first_ns + x->to_ns;
		tl_lanes_window(&p->lanes, p->first_ns, t0, end);
	}
	for (size_t i = 0; i < p->nheld; i++)
		tl_lanes_item(&p->lanes, &p->held[i]);
}

static void trace_doc(FILE *f, void *ctx)
{
	struct trace_pass *p = ctx;
	struct trace_export *x = p->x;

	p->tj.ncpus = p->fp->rp.topo.ncpus;
	if (trace_json_deferred_end(&p->tj, f, p->path, x->r, x->events, x->bytes) < 0)
		snprintf(x->err, sizeof(x->err), "the trace's head is over %u bytes",
			 TRACE_JSON_HEAD_MAX);
	x->tbytes = p->tj.bytes;
	x->dropped = p->tj.dropped;
}

static void svg_doc(FILE *f, void *ctx)
{
	struct trace_pass *p = ctx;
	struct svg_caption cap;
	struct svg_timeline_info in = { p->path, p->x->r, p->x->events, p->x->bytes,
					p->fp->tl.tl.missed, &cap };

	caption_file(&cap, &p->fp->rp.f, p->path);

	svg_timeline(f, &p->lanes, &in);
}

static void say(const struct trace_pass *p)
{
	const struct trace_export *x = p->x;
	const struct timeline *tl = &p->fp->tl.tl;
	char a[32], b[32];

	if (x->trace && x->dropped)
		locus_err("%s: stopped at the limit of %llu MiB (--trace-limit): %llu events left "
			  "out; narrow the window with --from/--to", x->trace,
			  (unsigned long long)(x->limit >> 20), (unsigned long long)x->dropped);
	locus_verbose("%s: %llu flows of the workload the analyzer did not judge, %llu of its "
		      "verdicts on wakeups that made no flow", p->path,
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
			x->svg, fmt_ns(p->lanes.t1 - p->lanes.t0, a, sizeof(a)), p->path,
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

int trace_pass_write(struct trace_pass *p, struct file_pass *fp)
{
	struct trace_export *x = p->x;
	uint64_t span = x->span_ns;

	p->fp = fp;
	x->err[0] = '\0';
	if (x->from_ns > span) {
		char a[32];

		locus_err("%s: --from is past the recording's end (%s in)", p->path,
			  fmt_ns(span, a, sizeof(a)));
		return -1;
	}
	if (p->svg)
		draw_lanes(p);
	if (x->trace && write_file_atomically(x->trace, trace_doc, p) < 0)
		return -1;
	x->slices = fp->tl.tl.slices;
	x->flows = fp->tl.tl.flows;
	x->migrations = fp->tl.tl.migrations;
	x->counters = fp->tl.tl.counters;
	if (x->err[0]) {
		locus_err("%s: %s", p->path, x->err);
		return -1;
	}
	if (x->svg && write_file_atomically(x->svg, svg_doc, p) < 0)
		return -1;
	say(p);
	return 0;
}

void trace_pass_free(struct trace_pass *p)
{
	if (!p)
		return;
	if (p->body)
		fclose(p->body);
	trace_json_release(&p->tj);
	if (p->svg && p->lanes.px)
		tl_lanes_release(&p->lanes);
	free(p->held);
	free(p);
}

/* The recording's counts and results the timelines' heads carry. */
void trace_export_results(struct trace_export *x, struct file_pass *fp)
{
	const struct replay *st = &fp->rp;

	x->r = file_pass_results(fp);
	x->span_ns = st->last_ns > st->first_ns ? st->last_ns - st->first_ns : 0;
	x->events = st->rd.sched_samples;
	x->bytes = st->f.pos;
}

int trace_export_file(const char *path, const char *sysfs_root, bool all, struct trace_export *x)
{
	struct replay_opts o = { .path = path, .sysfs_root = sysfs_root, .line_size = 64,
				 .sort = CL_SORT_TOTAL };
	struct file_pass *fp = xcalloc(1, sizeof(*fp));
	struct trace_pass *p = NULL;
	struct timeline_sink_cfg tc;
	char err[400];
	bool unread = true; /* until the pass ends */
	int rc = -1;

	if (file_pass_open(fp, &o, err, sizeof(err)) < 0)
		goto out;
	if (!all)
		file_pass_follow_workload(fp, &o);
	o.from_ns = x->from_ns; /* the timeline's window, and its analyzer's */
	o.to_ns = x->to_ns;
	fp->whole_results = true; /* the heads: the whole recording's results */
	p = trace_pass_new(x, path, &tc);
	unread = p != NULL; /* without its scratch file: said */
	if (!p || file_pass_run(fp, &tc, err, sizeof(err)) < 0)
		goto out;
	unread = false;
	if (!fp->rp.rd.sched_samples) {
		locus_err("%s: no sched events in the file: no timeline to write", path);
		goto out;
	}
	trace_export_results(x, fp);
	rc = trace_pass_write(p, fp);
out:
	if (unread)
		locus_err("%s: %s: no timeline written", path, err);
	trace_pass_free(p);
	file_pass_release(fp);
	free(fp);
	return rc;
}
