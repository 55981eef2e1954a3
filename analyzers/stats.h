/* stats.h - descriptive statistics and significance tests over small samples. */
#ifndef LOCUS_STATS_H
#define LOCUS_STATS_H

#include <stdbool.h>
#include <stddef.h>

double stats_mean(const double *v, size_t n);
/* Sample standard deviation (n-1 denominator); 0 for n < 2. */
double stats_stddev(const double *v, size_t n);
/* Two-sided 95% Student t critical value for df degrees of freedom. */
double stats_t95(double df);
/* Half-width of the 95% confidence interval of the mean; 0 for n < 2. */
double stats_ci95(const double *v, size_t n);
/*
 * The Wilson score interval at 95% of a share: k of n sampled (fractions, 0-1).
 * n <= 0: [0, 1] (nothing sampled says nothing).
 */
void stats_wilson95(double k, double n, double *lo, double *hi);
/*
 * A share's 95% interval from a cluster sample: n units sampled at random (wakeups), each
 * with a total w_i (its wait) of which x_i is the part measured (a cause's time); the share
 * is R = sum x / sum w. The sums: sx = sum x, sw = sum w, sxx = sum x^2, sxw = sum x w,
 * sww = sum w^2 (in one unit); w_max the largest w_i (<= 0: unknown, sqrt(sww) stands in).
 * - x seen (sx > 0, n >= 2): the ratio estimator's, R +- t(n-1) se, the variance
 *   n / (n - 1) sum (x_i - R w_i)^2 / (sum w)^2 (linearized), clamped to [0, 1]; a
 *   normal approximation, which undercovers an x seen in few units: where sx^2 / sxx
 *   (the units carrying x, were x alike in each) is under 10, hi is at least the units'
 *   one-sided 95% Poisson bound for that count (4.74 for one, 6.30 for two, ...) over n,
 *   each x as long as the longest w, over the mean w (as for none, below);
 * - x never seen (sx = 0): [0, hi], hi a bound, not an estimate: at most 1 - 0.05^(1/n)
 *   of the units carry it (the exact one-sided 95% binomial bound for none in n: the "rule
 *   of three", ~3/n), each with x no longer than the longest w sampled, over the mean w:
 *   hi = (1 - 0.05^(1/n)) n w_max / sw. It assumes no unsampled w beyond w_max;
 * - n < 1 or sw <= 0, or x seen with n < 2: [0, 1] (no spread to go by).
 */
void stats_ratio95(double n, double sx, double sw, double sxx, double sxw, double sww,
		   double w_max, double *lo, double *hi);
/*
 * Welch's t statistic and its degrees of freedom for two samples.
 * Returns 0 on success, -1 when either sample has fewer than two values or
 * both have no variance.
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df);
/* Two-sided p-value of Student's t statistic t with df degrees of freedom. */
double stats_t_p2(double t, double df);
/*
 * Holm-Bonferroni over the n p-values p[] (a negative p is no test: not in the family,
 * never rejected): reject[i] is set where the null hypothesis is rejected at family-wise
 * level alpha. Returns the family's size (the tests counted).
 */
int stats_holm(const double *p, int n, double alpha, bool *reject);

#endif
