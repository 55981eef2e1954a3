/* stacks_out.h - the stack outputs of report and run (--folded, --flame KIND=FILE): which
 * view, where, and their writing. */
#ifndef LOCUS_STACKS_OUT_H
#define LOCUS_STACKS_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "../analyzers/stacks.h"
#include "../model/caption.h"
#include "stacks_report.h"

struct stacks_out {
	enum stacks_kind kind;
	bool by_time;
	bool flame;		/* an SVG, else folded text */
	const char *path;
};

struct folded_set;
/* View k of s (by_time: weighted by off-CPU time) as a folded set f (common/folded.h), the
 * lines --folded writes, frames named by fr; f owned by the caller (folded_release). */
void stacks_folded_set(const struct stacks *s, enum stacks_kind k, bool by_time,
		       const struct stacks_frames *fr, struct folded_set *f);
/* A view's name, its first len bytes ("wakers", "blocked", "offwake", "blocked-time",
 * "offwake-time"): its kind and weighting into o. 0, or -1 for another name. */
int stacks_out_view(struct stacks_out *o, const char *name, size_t len);
/*
 * Each of out[0..n) from s, frames named by fr; a flame graph says cap and that it is a
 * report of input. 0, or -1 after saying why (every output tried).
 */
int stacks_out_write(const struct stacks_out *out, int n, const struct stacks *s,
		     const struct stacks_frames *fr, const struct svg_caption *cap,
		     const char *input);

#endif
