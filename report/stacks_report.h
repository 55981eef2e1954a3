/*
 * stacks_report.h - the stacks analyzer's results rendered: folded stacks (the lines
 * flamegraph.pl and speedscope read: "root;...;leaf weight"), the top stacks in the
 * text report and the JSON.
 */
#ifndef LOCUS_STACKS_REPORT_H
#define LOCUS_STACKS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../analyzers/stacks.h"
#include "../model/stack.h"
#include "json.h"

/* How frames are written: names through a namer (NULL: every frame "[unknown]"), or
 * addresses ("0xffffffff81000130", as perf script -F ip prints them). */
struct stacks_frames {
	const struct stack_table *tab;
	const struct stack_namer *namer;
	int addresses;
	bool keep_unknown;	/* folded stacks keep the unwinder's "[unknown]" frames as
				 * recorded (else folded_fold_unknown: the root's dropped) */
};

/* Folded lines: each distinct stack once, its weight summed, sorted by text. */
struct stacks_line {
	char *text;		/* root first, ';' between frames */
	uint64_t weight;
};
struct stacks_lines {
	struct stacks_line *line;
	size_t n;
};

/* View k's folded lines (as stacks_write_folded writes them; weight 0 left out). */
void stacks_folded_lines(const struct stacks *s, enum stacks_kind k, int by_time,
			 const struct stacks_frames *fr, struct stacks_lines *out);
void stacks_lines_release(struct stacks_lines *l);

/*
 * View k as folded stacks into f, root first, one line per distinct stack (the rows of
 * every class summed; named frames with the root's "[unknown]" frames dropped and runs of
 * them one, unless fr->keep_unknown), sorted: weighted by count, or (by_time) by off-CPU microseconds
 * (blocked, offwake). Off-wake lines are the blocked stack, "--", then the waker's stack
 * leaf first (Gregg's off-wake flame graph). Kernel frames named by symbol end in "_[k]"
 * (stackcollapse-perf.pl --kernel's mark, which the flame renderer colours). Returns the lines written, -1 on a write
 * error.
 */
long stacks_write_folded(FILE *f, const struct stacks *s, enum stacks_kind k, int by_time,
			 const struct stacks_frames *fr);
/* The text section: per view, the counts by class and the top rows (stack and class). */
void stacks_report_text(FILE *f, const struct stacks *s, const struct stacks_frames *fr,
			int top);
/* The same as a "stacks" object. */
void stacks_report_json(struct json *j, const struct stacks *s, const struct stacks_frames *fr,
			int top);

#endif
