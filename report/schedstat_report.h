/* schedstat_report.h - the run's /proc/schedstat deltas in text and JSON. */
#ifndef LOCUS_SCHEDSTAT_REPORT_H
#define LOCUS_SCHEDSTAT_REPORT_H

#include <stdio.h>

#include "../model/schedstat.h"

struct json;

/* The section (d NULL: one line saying why it is not available). */
void schedstat_report_text(FILE *f, const struct schedstat *d, const char *why);
/* "schedstat": {available, version, jiffies, by_level: [...], cpus: [...]}, or the reason. */
void schedstat_report_json(struct json *j, const struct schedstat *d, const char *why);

#endif
