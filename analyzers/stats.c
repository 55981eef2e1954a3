/* stats.c - mean, standard deviation, confidence intervals and Welch's t test. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

#include "../common/util.h"

double stats_mean(const double *v, size_t n)
{
	double s = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

double stats_stddev(const double *v, size_t n)
{
	double m, s = 0;

	if (n < 2)
		return 0;
	m = stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

double stats_t95(double df)
{
	/* Two-sided 97.5% quantiles of Student's t, df 1..30. */
	static const double t[] = {
		12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
		2.2010,	 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
		2.0796,	 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
	};
	int lo;
	double frac;

	if (df < 1)
		df = 1;
	if (df <= 30) {
		/* Welch's df is fractional: interpolate between whole df. */
		lo = (int)floor(df);
		frac = df - lo;
		if (lo >= 30)
			return t[29];
		return t[lo - 1] + frac * (t[lo] - t[lo - 1]);
	}
	/* Cornish-Fisher expansion around the normal quantile 1.959964. */
	{
		double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z;

		return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
	}
}

double stats_ci95(const double *v, size_t n)
{
	if (n < 2)
		return 0;
	return stats_t95((double)(n - 1)) * stats_stddev(v, n) / sqrt((double)n);
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df)
{
	double va, vb, sa, sb, se2;

	if (na < 2 || nb < 2)
		return -1;
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	sa = va * va / (double)na;
	sb = vb * vb / (double)nb;
	se2 = sa + sb;
	if (se2 <= 0)
		return -1;
	*t = (stats_mean(b, nb) - stats_mean(a, na)) / sqrt(se2);
	*df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	return 0;
}

/* Continued fraction of the regularized incomplete beta (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;

		for (int half = 0; half < 2; half++) {
			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			h *= d * c;
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		}
		del = d * c;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function, for x in [0, 1]. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (df <= 0 || isnan(t))
		return 1;
	if (isinf(t))
		return 0;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

int stats_holm(const double *p, int n, double alpha, bool *reject)
{
	int *order, family = 0;

	for (int i = 0; i < n; i++) {
		reject[i] = false;
		family += p[i] >= 0;
	}
	if (!family)
		return 0;
	order = xcalloc((size_t)family, sizeof(*order));
	for (int i = 0, k = 0; i < n; i++)
		if (p[i] >= 0)
			order[k++] = i;
	/* insertion sort: families are a few dozen rows */
	for (int i = 1; i < family; i++)
		for (int k = i; k > 0 && p[order[k]] < p[order[k - 1]]; k--) {
			int t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (int k = 0; k < family && p[order[k]] <= alpha / (family - k); k++)
		reject[order[k]] = true;
	free(order);
	return family;
}

void stats_wilson95(double k, double n, double *lo, double *hi)
{
	const double z = 1.959964, z2 = z * z;
	double p, mid, half;

	if (n <= 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = k / n;
	mid = (p + z2 / (2 * n)) / (1 + z2 / n);
	half = z / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	*lo = k <= 0 || mid - half < 0 ? 0 : mid - half; /* exactly 0 and 1 at the ends */
	*hi = k >= n || mid + half > 1 ? 1 : mid + half;
}

/*
 * A cause seen in few units (sx^2 / sxx of them, the units' count were x alike in each):
 * at most the one-sided 95% Poisson bound on the units carrying it for k seen (3.00 for
 * none, the rule of three, 4.74 for one, ...), each x as long as the longest w; 0 when
 * seen in 10 or more (the normal approximation then holds).
 */
static double rare_bound(double n, double sx, double sxx, double wm, double sw)
{
	static const double upper[10] = { 3.00, 4.74, 6.30, 7.75, 9.15,
					  10.51, 11.84, 13.15, 14.43, 15.71 };
	double k = sxx > 0 ? ceil(sx * sx / sxx - 1e-9) : 1;

	if (k >= 10)
		return 0;
	return (upper[(int)k] < n ? upper[(int)k] : n) * wm / sw;
}

void stats_ratio95(double n, double sx, double sw, double sxx, double sxw, double sww,
		   double w_max, double *lo, double *hi)
{
	double r, v, h, wm = w_max > 0 ? w_max : sqrt(sww > 0 ? sww : 0);

	*lo = 0;
	*hi = 1;
	if (n < 1 || sw <= 0)
		return;
	if (sx <= 0) { /* none sampled: a bound on what the unsampled units could hold */
		h = (1 - pow(0.05, 1 / n)) * n * wm / sw;
		*hi = h < 1 ? h : 1;
		return;
	}
	if (n < 2)
		return;
	r = sx / sw;
	v = (sxx - 2 * r * sxw + r * r * sww) / (sw * sw) * n / (n - 1);
	h = stats_t95(n - 1) * sqrt(v > 0 ? v : 0);
	*lo = r - h > 0 ? r - h : 0;
	*hi = r + h < 1 ? r + h : 1;
	h = rare_bound(n, sx, sxx, wm, sw);
	if (h > *hi)
		*hi = h < 1 ? h : 1;
}
