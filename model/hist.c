/* hist.c - the one histogram and percentile module every report uses. */
#include "hist.h"

#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

uint64_t hist_bucket_low(int idx)
{
	int p, sub;

	if (idx < HIST_SUB)
		return (uint64_t)idx;
	p = idx / HIST_SUB + HIST_SUB_BITS - 1;
	sub = idx % HIST_SUB;
	return (uint64_t)(HIST_SUB + sub) << (p - HIST_SUB_BITS);
}

/* The smallest and largest value, with count values added (before count grows). */
static void range(struct hist *h, uint64_t min, uint64_t max)
{
	if (h->count == 0 || min < h->min)
		h->min = min;
	if (max > h->max)
		h->max = max;
}

void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	range(h, v, v);
	h->count += n;
	h->sum += (double)v * (double)n;
	h->b[hist_index(v)] += n;
}

void hist_add_buckets(struct hist *h, const unsigned long long *b, int nb, uint64_t min,
		      uint64_t max, double sum)
{
	uint64_t n = 0;

	if (nb > HIST_BUCKETS)
		nb = HIST_BUCKETS;
	for (int i = 0; i < nb; i++) {
		h->b[i] += b[i];
		n += b[i];
	}
	if (!n)
		return;
	range(h, min, max);
	h->count += n;
	h->sum += sum;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (int i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (p >= 100)
		return h->max;
	rank = p > 0 ? (uint64_t)((double)h->count * p / 100.0) : 0; /* p < 100 here */
	if (rank >= h->count)
		rank = h->count - 1;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen > rank) {
			uint64_t lo = hist_bucket_low(i);
			uint64_t hi = i + 1 < HIST_BUCKETS ? hist_bucket_low(i + 1) : lo;
			uint64_t mid = lo + (hi - lo) / 2;

			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

uint64_t hist_log2_end(int k)
{
	return k < 63 ? 1ull << (k + 1) : UINT64_MAX;
}

uint64_t hist_log2_count(const struct hist *h, int k)
{
	uint64_t lo = k == 0 ? 0 : 1ull << k;
	uint64_t hi = k >= 63 ? UINT64_MAX : (1ull << (k + 1)) - 1;
	uint64_t n = 0;
	int a = hist_index(lo), b = hist_index(hi);

	for (int i = a; i <= b; i++)
		n += h->b[i];
	return n;
}
