/*
 * stack_diff.h - two sets of folded stacks joined by stack: each stack's base and new
 * count, their shares of each set's total, and the change of share, ordered by how far
 * the share moved. Shares, not counts, so runs of different length compare.
 */
#ifndef LOCUS_STACK_DIFF_H
#define LOCUS_STACK_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "../common/folded.h"

struct stack_change {
	const char *frames;	/* within one of the sets' text: valid while they live */
	uint64_t base, cur;	/* the stack's counts (repeats added) */
	double base_share, cur_share; /* of each set's total, 0..1 (0 where a total is 0) */
	double change;		/* cur_share - base_share */
};

struct stack_diff {
	struct stack_change *c;	/* largest |change| first, then by frames */
	size_t n;
	uint64_t base_total, cur_total;
};

/* Join base and cur into d (sets unchanged, to outlive d). 0, or -1 out of memory. */
int stack_diff_build(struct stack_diff *d, const struct folded_set *base,
		     const struct folded_set *cur);
void stack_diff_release(struct stack_diff *d);

#endif
