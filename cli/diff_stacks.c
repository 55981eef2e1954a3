/* diff_stacks.c - `locus diff [--flame OUT.svg] BASE.folded NEW.folded` (diff_stacks.h). */
#include "diff_stacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analyzers/stack_diff.h"
#include "../common/exitcodes.h"
#include "../common/folded.h"
#include "../common/util.h"
#include "../pipeline/file_pass.h"
#include "../report/stack_diff_report.h"
#include "../report/stacks_report.h"
#include "../collectors/caption.h"
#include "counting.h"
#include "report_stacks.h"

/* A view's name: its kind and whether weighted by time; -1 for an unknown name. */
static int view_of(const char *name, bool *by_time)
{
	struct stacks_out o;

	*by_time = false;
	if (stacks_out_view(&o, name, strlen(name)) < 0)
		return -1;
	*by_time = o.by_time;
	return (int)o.kind;
}

/*
 * A recording's stacks of view name (its workload's tasks, as locus report follows them),
 * and its caption when cap. 0, or -1 after saying why.
 */
static int recording_load(const char *path, const char *name, struct folded_set *f,
			  struct svg_caption *cap)
{
	struct file_pass *fp = xcalloc(1, sizeof(*fp));
	struct replay_opts o = { .path = path, .line_size = 64, .sort = CL_SORT_TOTAL };
	struct file_pass_asks a = { .follow = true, .stacks = true }; /* as locus report does */
	char err[400] = "";
	bool by_time;
	int kind = view_of(name, &by_time), rc = file_pass_read(fp, &o, &a, NULL, err, sizeof(err));

	if (rc < 0)
		locus_err("%s: %s", path, err);
	else if (!fp->rp.rd.callchains)
		locus_err("%s: no callchains in the file (record with locus record -g, or perf "
			  "record -g)", path), rc = -1;
	if (rc == 0) {
		struct stack_namer namer;
		struct stacks_frames fr = stacks_frames_of(NULL, fp, &namer);

		stacks_folded_set(&fp->stk.st, (enum stacks_kind)kind, by_time, &fr, f);
		if (cap)
			caption_file(cap, &fp->rp.f, path);
	}
	file_pass_release(fp);
	free(fp);
	return rc;
}

/* A folded file or a recording's view into f. 0, or -1 after saying why. */
static int stacks_load(const struct diff_stacks_plan *p, const char *path, struct folded_set *f,
		       struct svg_caption *cap, bool *recorded)
{
	char err[600];

	*recorded = pd_is_recording(path);
	if (*recorded)
		return recording_load(path, p->view ? p->view : "wakers", f, cap);
	if (folded_load(path, f, err, sizeof(err)) < 0) {
		locus_err("%s", err);
		return -1;
	}
	return 0;
}

int diff_stacks(const struct diff_stacks_plan *p)
{
	struct folded_set a, b;
	struct stack_diff d;
	struct svg_caption cap, rcap;
	struct stack_diff_out o = { p->base, p->cur, p->top, p->out, p->json, p->flame };
	struct stack_diff_what w = { NULL, 0, false, 0, 0 };
	bool ra, rb;
	int rc;

	w.kind = view_of(p->view ? p->view : "wakers", &w.by_time);
	if (p->view && view_of(p->view, &ra) < 0) {
		locus_err("--stacks '%s': a view is wakers, blocked, offwake, blocked-time or "
			  "offwake-time", p->view);
		return EXIT_LOCUS_USAGE;
	}
	if (stacks_load(p, p->base, &a, NULL, &ra) < 0)
		return EXIT_LOCUS_RUNTIME;
	if (stacks_load(p, p->cur, &b, &rcap, &rb) < 0) {
		folded_release(&a);
		return EXIT_LOCUS_RUNTIME;
	}
	if (stack_diff_build(&d, &a, &b) < 0) {
		locus_err("comparing %s and %s: out of memory", p->base, p->cur);
		rc = EXIT_LOCUS_RUNTIME;
		goto out;
	}
	caption_live(&cap, p->argc, p->argv);
	w.view = ra || rb ? (p->view ? p->view : "wakers") : NULL;
	w.base_total = a.total;
	w.cur_total = b.total;
	rc = stack_diff_draw(&o, &d, &w, &cap, rb ? &rcap : NULL) < 0 ? EXIT_LOCUS_RUNTIME
								      : EXIT_LOCUS_OK;
	stack_diff_release(&d);
out:
	folded_release(&a);
	folded_release(&b);
	return rc;
}
