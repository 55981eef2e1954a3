/* hist.h - log-linear histogram of nanosecond values: 16 steps per power of two (~6%). */
#ifndef LOCUS_HIST_H
#define LOCUS_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 4
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint64_t b[HIST_BUCKETS];
};

void hist_init(struct hist *h);
/* Add n values of v at once. */
void hist_add_n(struct hist *h, uint64_t v, uint64_t n);
/*
 * Add counts kept in the same buckets elsewhere (the BPF programs): nb of them
 * from b[0], with their exact smallest and largest value and their sum.
 */
void hist_add_buckets(struct hist *h, const unsigned long long *b, int nb, uint64_t min,
		      uint64_t max, double sum);
/* Add every value of src into dst. */
void hist_merge(struct hist *dst, const struct hist *src);
/* The value at percentile p (0-100): the bucket's midpoint, clamped to [min, max]; 0 if empty. */
uint64_t hist_percentile(const struct hist *h, double p);
/* Bucket index of a value, and the smallest value of a bucket (both exposed for tests). */
static inline int hist_index(uint64_t v)
{
	int p;

	if (v < HIST_SUB)
		return (int)v;
	p = 63 - __builtin_clzll(v);
	return (p - HIST_SUB_BITS + 1) * HIST_SUB + (int)((v >> (p - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

uint64_t hist_bucket_low(int idx);
/* Add one value (inline: the analyzers add one per wakeup, into three histograms). */
static inline void hist_add(struct hist *h, uint64_t v)
{
	if (h->count == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += (double)v;
	h->b[hist_index(v)]++;
}

/* Count of values in [2^k, 2^(k+1)) (k = 0 also holds 0): the log2 view reports print. */
uint64_t hist_log2_count(const struct hist *h, int k);
/* The end of log2 bucket k, 2^(k+1) (k = 63: UINT64_MAX, as 2^64 does not fit). */
uint64_t hist_log2_end(int k);

#endif
