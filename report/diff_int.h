/* diff_int.h - what the diff report's files share (not a public header). */
#ifndef LOCUS_DIFF_INT_H
#define LOCUS_DIFF_INT_H

#include <stdio.h>

#include "sweep_report.h"

struct json;

/* The family-wise false-alarm rate of one comparison's '*' marks. */
#define DIFF_ALPHA 0.05

/*
 * Calls fn (when not NULL) for each (value, measure) both sets measured, in the table's
 * order, each row's significance corrected for the number of comparisons (Holm-Bonferroni
 * over the comparable rows). Returns how many rows were tested (the family).
 */
int diff_each_row(const struct diff_input *base, const struct diff_input *cur,
		   void (*fn)(void *ctx, const char *value, int m, const struct diff_row *row),
		   void *ctx);
/* After the table: per value, the metric's change and the largest significant ones beside it. */
void diff_explain_text(FILE *f, const struct diff_input *base, const struct diff_input *cur);
/* The same as "explanation": [...] in an open JSON object. */
void diff_explain_json(struct json *j, const struct diff_input *base, const struct diff_input *cur);

#endif
