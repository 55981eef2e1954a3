/* schedstat_read.h - /proc/schedstat snapshots, and the sysctl that makes its counters move. */
#ifndef LOCUS_SCHEDSTAT_READ_H
#define LOCUS_SCHEDSTAT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/schedstat.h"

/* Read and parse path (/proc/schedstat). Returns 0, or -1 with a one-line reason. */
int schedstat_read(const char *path, struct schedstat *s, char *err, size_t len);
/*
 * Make the counters move: kernel.sched_schedstats to 1 when it is 0 (as perf
 * sched stats does); *restore says to put 0 back after. Returns 0, or -1 with
 * why they stay still.
 */
int schedstat_enable(bool *restore, char *err, size_t len);
void schedstat_restore(bool restore);

#endif
