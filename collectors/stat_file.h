/* stat_file.h - read a `locus stat --json` file back as a set locus diff compares. */
#ifndef LOCUS_STAT_FILE_H
#define LOCUS_STAT_FILE_H

#include <stddef.h>

#include "../model/sweep.h"

struct jv;

/*
 * The parsed JSON of locus stat (or locus run without a loop) into s: kind SWEEP_STAT,
 * one value "", a run per repetition with its elapsed time as the metric (s, lower is
 * better) and locus stat's counters as M_ST_* counts. Returns 0, or -1 with a one-line
 * reason in err (s is then empty).
 */
int stat_file_parse(const struct jv *root, struct sweep_set *s, char *err, size_t errlen);

#endif
