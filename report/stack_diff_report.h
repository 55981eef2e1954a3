/*
 * stack_diff_report.h - two sets of folded stacks compared (analyzers/stack_diff.h): the
 * stacks whose share moved most as text or JSON, and the differential flame graph.
 */
#ifndef LOCUS_STACK_DIFF_REPORT_H
#define LOCUS_STACK_DIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../analyzers/stack_diff.h"
#include "../model/caption.h"
#include "flame.h"

/*
 * The top stacks by |change of share|, at most top of them, named base_name/cur_name; view
 * the recordings' view compared ("wakers"), NULL for folded files. Each stack whole, folded
 * under its row (no frame left out: the ones that tell two stacks apart may be anywhere).
 */
void stack_diff_text(FILE *f, const struct stack_diff *d, const char *base_name,
		     const char *cur_name, size_t top, const char *view);
void stack_diff_json(FILE *f, const struct stack_diff *d, const char *base_name,
		     const char *cur_name, size_t top, const char *view);
/* The differential flame graph: frames sized by the new counts, coloured by the change. */
int stack_diff_flame(FILE *f, const struct stack_diff *d, const struct flame_opts *o);

/* Where a comparison goes: the text to out (NULL: standard output, unless the JSON is), the
 * JSON to json ("-": standard output), the flame graph to flame; each may be NULL. */
struct stack_diff_out {
	const char *base, *cur;	/* the two files, as the text and JSON name them */
	size_t top;		/* stacks in the text and JSON */
	const char *out, *json, *flame;
	const char *view;	/* the recordings' view compared, NULL: folded files */
};

/* Every output o asks for, fo drawing the flame graph. 0, or -1 after saying why (every
 * output tried). */
int stack_diff_write(const struct stack_diff_out *o, const struct stack_diff *d,
		     const struct flame_opts *fo);

/* What was compared: folded files, or recordings' stacks of a view. */
struct stack_diff_what {
	const char *view;	/* the recordings' view ("wakers"), NULL: folded files */
	int kind;		/* the view's enum stacks_kind */
	bool by_time;		/* weighted by off-CPU time */
	uint64_t base_total, cur_total;	/* the two sets' counts */
};

/*
 * stack_diff_write with the flame graph captioned cap (this command's), its kernel and
 * machine from rcap (the new recording's; NULL: not in folded files), its source line
 * saying w and cap's date. 0, or -1 after saying why.
 */
int stack_diff_draw(const struct stack_diff_out *o, const struct stack_diff *d,
		    const struct stack_diff_what *w, struct svg_caption *cap,
		    const struct svg_caption *rcap);

#endif
