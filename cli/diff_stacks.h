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

/* True when the file at path reads as folded stacks (not a loop's JSON). */
bool diff_is_folded(const char *path);
/* True when it is a recording (perf.data, locus record's or perf's: "PERFILE2"). */
bool diff_is_recording(const char *path);

/* Compare, write what was asked; the exit status. */
int diff_stacks(const struct diff_stacks_plan *p);

#endif
