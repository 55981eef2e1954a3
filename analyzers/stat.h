/* stat.h - the counting results' means, deviations and derived figures (model/stat_result.h). */
#ifndef LOCUS_STAT_H
#define LOCUS_STAT_H

#include "../model/stat_result.h"

/* Compute means and deviations once all runs are in. */
void stat_finish(struct stat_result *r);

/* The derived figure for counter i, from the means of the finished result. */
struct stat_derived stat_derive(const struct stat_result *r, int i);

#endif
