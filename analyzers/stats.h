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
