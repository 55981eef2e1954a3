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

/* fp's stacks of view kind as a folded set (the lines locus report --folded writes). */
static void lines_to_set(struct file_pass *fp, enum stacks_kind kind, bool by_time,
			 struct folded_set *f)
{
	struct stack_namer namer;
	struct stacks_frames fr = stacks_frames_of(NULL, fp, &namer);
	struct stacks_lines ls;
	size_t len = 0, at = 0;

	stacks_folded_lines(&fp->stk.st, kind, by_time, &fr, &ls);
	for (size_t i = 0; i < ls.n; i++)
		len += strlen(ls.line[i].text) + 1;
	memset(f, 0, sizeof(*f));
	f->text = xmalloc(len ? len : 1);
	f->s = xcalloc(ls.n ? ls.n : 1, sizeof(*f->s));
	for (size_t i = 0; i < ls.n; i++) {
		size_t l = strlen(ls.line[i].text) + 1;

		memcpy(f->text + at, ls.line[i].text, l);
		f->s[f->n++] = (struct folded_stack){ f->text + at, ls.line[i].weight };
		f->total += ls.line[i].weight;
		at += l;
	}
	stacks_lines_release(&ls);
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
	char err[400] = "";
	bool by_time;
	int kind = view_of(name, &by_time), rc = -1;

	if (file_pass_open(fp, &o, err, sizeof(err)) == 0) {
		file_pass_follow_workload(fp, &o); /* as locus report does */
		fp->stacks_on = true;
		if (file_pass_run(fp, NULL, err, sizeof(err)) == 0)
			rc = 0;
	}
	if (rc < 0)
		locus_err("%s: %s", path, err);
	else if (!fp->rp.rd.callchains)
		locus_err("%s: no callchains in the file (record with locus record -g, or perf "
			  "record -g)", path), rc = -1;
	if (rc == 0) {
		lines_to_set(fp, (enum stacks_kind)kind, by_time, f);
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
	char src[1200], ta[32], tb[32];
	struct stack_diff_out o = { p->base, p->cur, p->top, p->out, p->json, p->flame };
	struct flame_opts fo;
	bool ra, rb, by_time;
	int rc, kind = view_of(p->view ? p->view : "wakers", &by_time);

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
	if (rb) { /* the new recording's kernel and machine */
		snprintf(cap.kernel, sizeof(cap.kernel), "%s", rcap.kernel);
		snprintf(cap.host, sizeof(cap.host), "%s", rcap.host);
	} else {
		snprintf(cap.kernel, sizeof(cap.kernel), "not in folded files");
		snprintf(cap.host, sizeof(cap.host), "not in folded files");
	}
	snprintf(src, sizeof(src), "%s%s, base %s (%s in all), new %s (%s in all); drawn %s",
		 ra || rb ? "stacks of " : "folded stacks", ra || rb ? (p->view ? p->view :
		 "wakers") : "", p->base, fmt_count(a.total, ta, sizeof(ta)), p->cur,
		 fmt_count(b.total, tb, sizeof(tb)), cap.date);
	cap.date[0] = '\0'; /* said in the source: the date the picture was drawn */
	fo = (struct flame_opts){ .title = "Differential flame graph: width by the new run, "
					       "red = share grew, blue = share shrank",
				      .unit = !(ra || rb) ? "counts" : by_time ? "us off CPU" :
					      kind == STACKS_WAKERS ? "wakeups" : "switches",
				      .caption = &cap, .source = src };
	rc = stack_diff_write(&o, &d, &fo) < 0 ? EXIT_LOCUS_RUNTIME : EXIT_LOCUS_OK;
	stack_diff_release(&d);
out:
	folded_release(&a);
	folded_release(&b);
	return rc;
}
