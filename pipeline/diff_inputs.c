/* diff_inputs.c - what locus diff compares, read; the stack diff built (diff_inputs.h). */
#include "diff_inputs.h"

#include <stdlib.h>
#include <string.h>

#include "../collectors/caption.h"
#include "../collectors/perfdata.h"
#include "../collectors/sweep_file.h"
#include "../common/util.h"
#include "file_session.h"

int diff_loop_load(const char *path, struct sweep_set *s, char *err, size_t len)
{
	return sweep_load(path, s, err, len);
}

bool diff_is_recording(const char *path)
{
	return pd_is_recording(path);
}

/*
 * A recording's stacks (its workload's tasks, as locus report follows them) folded by
 * fold into f, and its caption when cap. 0, or -1 after saying why.
 */
static int recording_load(const char *path, diff_fold_fn fold, void *ctx, struct folded_set *f,
			  struct svg_caption *cap)
{
	struct file_session *fp = xcalloc(1, sizeof(*fp));
	struct replay_opts o = { .path = path, .line_size = 64, .sort = CL_SORT_TOTAL };
	struct file_session_asks a = { .follow = true, .stacks = true }; /* as locus report does */
	char err[400] = "";
	int rc = file_session_read(fp, &o, &a, NULL, err, sizeof(err));

	if (rc < 0)
		locus_err("%s: %s", path, err);
	else if (!fp->rp.rd.callchains)
		locus_err("%s: no callchains in the file (record with locus record -g, or perf "
			  "record -g)", path), rc = -1;
	if (rc == 0) {
		/* frames named from the file's symbols */
		struct stack_namer namer = symbols_stack_namer(&fp->rp.syms);

		fold(ctx, file_session_stacks(fp), &fp->rp.rd.stacks, &namer, f);
		if (cap)
			caption_file(cap, &fp->rp.f, path);
	}
	file_session_release(fp);
	free(fp);
	return rc;
}

/* A folded file or a recording's view into f. 0, or -1 after saying why. */
static int stacks_load(const char *path, bool keep_unknown, diff_fold_fn fold, void *ctx,
		       struct folded_set *f, struct svg_caption *cap, bool *recorded)
{
	char err[600];

	*recorded = pd_is_recording(path);
	if (*recorded)
		return recording_load(path, fold, ctx, f, cap);
	if (folded_load(path, f, err, sizeof(err)) < 0) {
		locus_err("%s", err);
		return -1;
	}
	if (!keep_unknown) /* as locus writes its own folded stacks */
		folded_set_fold_unknown(f);
	return 0;
}

int diff_stacks_load(struct diff_stacks *ds, const char *base, const char *cur, bool keep_unknown,
		     diff_fold_fn fold, void *ctx, int argc, char **argv)
{
	memset(ds, 0, sizeof(*ds));
	if (stacks_load(base, keep_unknown, fold, ctx, &ds->base, NULL, &ds->base_recorded) < 0)
		return -1;
	if (stacks_load(cur, keep_unknown, fold, ctx, &ds->cur, &ds->cur_cap,
			&ds->cur_recorded) < 0) {
		folded_release(&ds->base);
		return -1;
	}
	if (stack_diff_build(&ds->d, &ds->base, &ds->cur) < 0) {
		locus_err("comparing %s and %s: out of memory", base, cur);
		folded_release(&ds->base);
		folded_release(&ds->cur);
		return -1;
	}
	caption_live(&ds->cap, argc, argv);
	return 0;
}

void diff_stacks_release(struct diff_stacks *ds)
{
	stack_diff_release(&ds->d);
	folded_release(&ds->base);
	folded_release(&ds->cur);
	memset(ds, 0, sizeof(*ds));
}
