/*
 * diff_inputs.h - what locus diff compares, read: benchmark loops (locus run -r, locus stat
 * --json files), or two sets of stacks, each a folded-stacks file or a recording with
 * callchains read in one pass as locus report reads it (its workload's tasks), one view of
 * each folded, and the stack diff built from them.
 */
#ifndef LOCUS_DIFF_INPUTS_H
#define LOCUS_DIFF_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "../analyzers/stack_diff.h"
#include "../analyzers/stacks.h"
#include "../common/folded.h"
#include "../model/caption.h"
#include "../model/stack.h"
#include "../model/sweep.h"

/* A loop file (locus run -r --json, locus stat --json) into s. 0, or -1 with why in err. */
int diff_loop_load(const char *path, struct sweep_set *s, char *err, size_t len);
/* Whether path holds a recording (a perf.data file, or pipe-mode stream). */
bool diff_is_recording(const char *path);

/*
 * A recording's view of its stacks as folded stacks into f: how the command writes them
 * (report/stacks_out.h), the stacks s of the recording, their callchains tab, their frames
 * named by nm.
 */
typedef void (*diff_fold_fn)(void *ctx, const struct stacks *s, const struct stack_table *tab,
			     const struct stack_namer *nm, struct folded_set *f);

struct diff_stacks {
	struct folded_set base, cur;	/* each side's stacks, folded */
	bool base_recorded, cur_recorded; /* a recording (else a folded file) */
	struct svg_caption cap;		/* this command's (argc words of argv) */
	struct svg_caption cur_cap;	/* the new recording's (cur_recorded) */
	struct stack_diff d;		/* the stacks whose share moved, most first */
};

/*
 * Both sides read (a recording folded by fold with ctx; a folded file's [unknown] frames
 * folded as locus folds its own unless keep_unknown) and the diff built into ds, with the
 * caption of the command argv. 0, or -1 after saying why in one line (ds then holds
 * nothing to release).
 */
int diff_stacks_load(struct diff_stacks *ds, const char *base, const char *cur, bool keep_unknown,
		     diff_fold_fn fold, void *ctx, int argc, char **argv);
void diff_stacks_release(struct diff_stacks *ds);

#endif
