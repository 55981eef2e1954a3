/* diff_stacks.h - `locus diff` on two sets of stacks (folded files or recordings with
 * callchains): the stacks whose share moved. */
#ifndef LOCUS_CLI_DIFF_STACKS_H
#define LOCUS_CLI_DIFF_STACKS_H

#include <stdbool.h>
#include <stddef.h>

struct diff_stacks_plan {
	const char *base, *cur;	/* the two files */
	const char *flame;	/* --flame: the differential flame graph's SVG */
	const char *json, *out;	/* --json, -o */
	const char *view;	/* --stacks: a recording's view (wakers, blocked, offwake,
				 * blocked-time, offwake-time); NULL: wakers */
	size_t top;		/* --top: stacks in the text and JSON */
	int argc;		/* the command line, for the picture's caption */
	char **argv;
};

/* Compare, write what was asked; the exit status. */
int diff_stacks(const struct diff_stacks_plan *p);

#endif
