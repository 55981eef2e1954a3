/*
 * target.h - the fuzz target: one input file through the whole perf.data
 * replay, then every renderer of what was read: the text and JSON reports
 * (cachelines included), the heatmap SVG, and dashboard frames at two sizes.
 */
#ifndef LOCUS_FUZZ_TARGET_H
#define LOCUS_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../report/report_doc.h"
#include "../../cli/trace_export.h"
#include "../../pipeline/file_session.h"
#include "../../report/canvas.h"
#include "../../report/dash.h"
#include "../../report/svg_caption.h"

/* A dashboard frame of the file's results at w x h, as locus top would draw them. */
static inline void fuzz_dash(FILE *out, struct file_session *fp, int w, int h, bool cumulative)
{
	const struct replay *rp = &fp->rp;
	const struct sched_results *r = file_session_results(fp);
	struct dash_ui ui = { 0 };
	struct dash_view v;
	struct canvas c;

	memset(&v, 0, sizeof(v));
	ui.cumulative = cumulative;
	ui.sort[PANE_HEATMAP] = cumulative ? 2 : 0;
	v.r = r;
	v.topo = &rp->topo;
	v.span_s = r->last_ns > r->first_ns ? (double)(r->last_ns - r->first_ns) / 1e9 : 0;
	v.interval_s = 1;
	v.command = rp->f.cmdline;
	v.state = "exited 0";
	v.elapsed_s = v.span_s;
	v.total = r;
	v.cannot = "";
	for (int i = 0; i < DS_NR; i++) {
		uint64_t n = i < SM_NR ? sched_measure_get(r, i) : 0;

		v.series[i].supported = i < SM_NR;
		v.series[i].total = n;
		if (v.series[i].supported)
			dash_series_push(&v.series[i], v.span_s > 0 ? (double)n / v.span_s : 0);
	}
	v.ui = &ui;
	canvas_init(&c, w, h, !cumulative);
	dash_render(&c, &v);
	canvas_print(&c, out);
	canvas_release(&c);
}

/* Everything locus renders from a file that was read. */
static inline void fuzz_render(struct file_session *fp)
{
	FILE *out = fopen("/dev/null", "w");
	struct report_doc d;
	struct file_input in;

	if (!out)
		abort();
	file_session_input(fp, &in);
	for (int width = 80; width <= 200; width += 120) {
		report_doc_init(&d, &in, file_session_results(fp), file_session_blame(fp),
				file_session_cachelines(fp), file_session_stacks(fp),
				SEC_ALL | SEC_BLAME, width);
		report_doc_text(out, &d);
	}
	report_doc_json(out, &d);
	file_input_release(&in);
	{
		struct svg_caption cap = { 0 };

		snprintf(cap.command, sizeof(cap.command), "%s", fp->rp.f.cmdline);
		snprintf(cap.kernel, sizeof(cap.kernel), "%s", fp->rp.f.osrelease);
		sched_report_svg(out, file_session_results(fp), &cap);
	}
	fuzz_dash(out, fp, 80, 24, false);
	fuzz_dash(out, fp, 200, 60, true);
	fclose(out);
}

/*
 * Write data to a scratch file and replay it. Returns 1 when it was read,
 * 0 when it was rejected with a message in err, -1 when it was rejected
 * without one (a defect: every rejection must say why).
 */
static inline int fuzz_one(const uint8_t *data, size_t size, char *err, size_t errlen)
{
	static char path[64];
	struct replay_opts o = { .path = path, .sysfs_root = "tests/fixtures/topology/desktop-4c8t",
				 .line_size = 64, .sort = CL_SORT_TOTAL };
	struct file_session *fp = calloc(1, sizeof(*fp));
	/* the timelines too, as --trace and --svg-timeline: in the same pass */
	struct trace_export x = { .trace = "/dev/null", .svg = "/dev/null", .limit = 1 << 20,
				  .quiet = true };
	struct timeline_sink_cfg tc;
	struct trace_pass *tp = trace_pass_new(&x, path, &tc);
	FILE *f;
	int ok;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/locus-fuzz-%d.data", (int)getpid());
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	err[0] = '\0';
	if (!fp || !tp)
		abort();
	ok = file_session_open(fp, &o, err, errlen) == 0;
	/* who delayed the wakee too, on the trace's flows as well */
	ok = ok && file_session_run(fp, &(struct file_session_asks){ .blame = true }, &tc, err,
				    errlen) == 0;
	if (ok)
		fuzz_render(fp);
	if (ok && fp->rp.rd.sched_samples)
		trace_pass_finish(tp, &x, fp, path);
	trace_pass_free(tp);
	file_session_release(fp);
	free(fp);
	if (ok)
		return 1;
	return err[0] ? 0 : -1;
}

#endif
