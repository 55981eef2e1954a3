/*
 * stack_diff_report.h - two sets of folded stacks compared (analyzers/stack_diff.h): the
 * stacks whose share moved most as text or JSON, and the differential flame graph.
 */
#ifndef LOCUS_STACK_DIFF_REPORT_H
#define LOCUS_STACK_DIFF_REPORT_H

#include <stdio.h>

#include "../analyzers/stack_diff.h"
#include "flame.h"

/* The top stacks by |change of share|, at most top of them, named base_name/cur_name. */
void stack_diff_text(FILE *f, const struct stack_diff *d, const char *base_name,
		     const char *cur_name, size_t top);
void stack_diff_json(FILE *f, const struct stack_diff *d, const char *base_name,
		     const char *cur_name, size_t top);
/* The differential flame graph: frames sized by the new counts, coloured by the change. */
int stack_diff_flame(FILE *f, const struct stack_diff *d, const struct flame_opts *o);

#endif
