/* blame_report.h - "Why woken tasks waited": who delayed the wakee, as text and JSON. */
#ifndef LOCUS_BLAME_REPORT_H
#define LOCUS_BLAME_REPORT_H

#include <stdio.h>

#include "../analyzers/blame.h"
#include "json.h"

/* The section; res NULL: not measured, why says so. */
void blame_report_text(FILE *f, const struct blame_results *res, const struct topology *topo,
		       const char *why);
/* Member "blame" of an open object (null with "blame_why" when res is NULL). */
void blame_report_json(struct json *j, const struct blame_results *res,
		       const struct topology *topo, const char *why);

#endif
