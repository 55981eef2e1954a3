/* cacheline_report.h - hot cachelines as text (a c2c table that reads plainly) and JSON. */
#ifndef LOCUS_CACHELINE_REPORT_H
#define LOCUS_CACHELINE_REPORT_H

#include <stdio.h>

#include "../analyzers/cacheline.h"
#include "../model/symbolize.h"
#include "json.h"

/* Lines shown in text (JSON holds up to 100). */
#define CL_REPORT_LINES 10

/* syms names code and data addresses (may be NULL: addresses are printed). */
void cacheline_report_text(FILE *f, const struct cacheline *c, const struct symbolizer *syms);
void cacheline_report_json_members(struct json *j, const struct cacheline *c,
				   const struct symbolizer *syms);
/* The section when memory sampling could not run: one line saying why. */
void cacheline_report_unsupported(FILE *f, const char *why);

#endif
