/* stats.c - mean, standard deviation, confidence intervals and Welch's t test. */
#include "stats.h"

#include <math.h>

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
