/* sched_delta.h - copies of scheduler results, and the difference of two (an interval). */
#ifndef LOCUS_SCHED_DELTA_H
#define LOCUS_SCHED_DELTA_H

#include "../model/sched_results.h"

/*
 * Deep-copy src into dst (dst's own arrays are freed first; dst must be
 * zeroed or a previous copy). dst shares src's topology pointer.
 */
void sched_results_copy(struct sched_results *dst, const struct sched_results *src);
/*
 * The same without the per-CPU delay histograms (8 KiB a CPU), which stay
 * empty (dst->no_cpu_delays): a live view's snapshot every second.
 */
void sched_results_copy_light(struct sched_results *dst, const struct sched_results *src);

/*
 * out = cur - prev: what happened between two snapshots of one run (prev is
 * the earlier). Counts, matrices, per-CPU figures and histogram buckets are
 * subtracted; tasks and pairs are matched by thread ids, and those with no
 * activity in between are left out; both tables are sorted like the
 * analyzer sorts them. A NULL prev copies cur. out's memory is reused like
 * dst's. Per-CPU delays are left empty when either side has none.
 */
void sched_results_delta(struct sched_results *out, const struct sched_results *cur,
			 const struct sched_results *prev);

/* h = a - b, bucket by bucket (b must be an earlier state of a). */
void hist_sub(struct hist *h, const struct hist *a, const struct hist *b);

#endif
