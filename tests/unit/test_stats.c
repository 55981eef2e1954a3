/* test_stats.c - statistics against values computed by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../analyzers/stats.h"

#define assert_close(a, b, eps) assert_true(((a) - (b)) < (eps) && ((b) - (a)) < (eps))

static void mean_and_stddev(void **state)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	assert_close(stats_mean(v, 8), 5.0, 1e-12);
	/* sample stddev: sqrt(32/7) */
	assert_close(stats_stddev(v, 8), 2.138089935, 1e-8);
	assert_close(stats_stddev(v, 1), 0.0, 1e-12);
	assert_close(stats_mean(v, 0), 0.0, 1e-12);
}

static void t_quantiles(void **state)
{
	assert_close(stats_t95(1), 12.7062, 1e-4);
	assert_close(stats_t95(4), 2.7764, 1e-4);
	assert_close(stats_t95(30), 2.0423, 1e-4);
	/* qt(0.975, 60) = 2.000298; qt(0.975, 1000) = 1.962339 */
	assert_close(stats_t95(60), 2.000298, 2e-4);
	assert_close(stats_t95(1000), 1.962339, 1e-4);
	/* fractional df interpolates: between 2.5706 (5) and 2.4469 (6) */
	assert_close(stats_t95(5.5), 2.50875, 1e-4);
}

static void confidence_interval(void **state)
{
	const double v[] = { 10, 12, 11, 13, 9 };

	/* sd = 1.5811, t(4) = 2.7764, ci = 2.7764 * 1.5811 / sqrt(5) = 1.96321 */
	assert_close(stats_ci95(v, 5), 1.96321, 1e-4);
}

static void welch(void **state)
{
	/* by hand: means 11 and 15.667, variances 2.5 and 4.667; se^2 = 0.5 + 0.7778 */
	const double a[] = { 10, 12, 11, 13, 9 };
	const double b[] = { 15, 14, 17, 16, 13, 19 };
	double t, df;

	assert_int_equal(stats_welch(a, 5, b, 6, &t, &df), 0);
	assert_close(t, 4.128375, 1e-5);
	assert_close(df, 8.898234, 1e-5);
	assert_int_equal(stats_welch(a, 1, b, 6, &t, &df), -1);
	{
		const double c[] = { 1, 1, 1 };

		assert_int_equal(stats_welch(c, 3, c, 3, &t, &df), -1);
	}
}

/* The two-sided p of the 97.5% quantiles of Student's t (printed tables) is 0.05. */
static void t_p_values(void **state)
{
	(void)state;
	assert_close(stats_t_p2(12.7062, 1), 0.05, 1e-5);
	assert_close(stats_t_p2(-4.3027, 2), 0.05, 1e-5);
	assert_close(stats_t_p2(2.7764, 4), 0.05, 1e-5);
	assert_close(stats_t_p2(2.2281, 10), 0.05, 1e-5);
	assert_close(stats_t_p2(2.0423, 30), 0.05, 1e-5);
	assert_close(stats_t_p2(0, 5), 1, 1e-12);
	/* the 99.5% quantile, df 4: 4.6041 (two-sided 0.01) */
	assert_close(stats_t_p2(4.6041, 4), 0.01, 1e-5);
	assert_true(stats_t_p2(1e9, 3) < 1e-20);
}

/* Holm: sorted p (0.001, 0.02, 0.03, 0.2) against 0.05/4, /3, /2, /1. */
static void holm(void **state)
{
	const double p[] = { 0.03, 0.001, -1, 0.2, 0.02 };
	bool r[5];

	(void)state;
	assert_int_equal(stats_holm(p, 5, 0.05, r), 4);
	/* 0.001 <= 0.0125 rejected; 0.02 > 0.05/3: stop, the rest kept */
	assert_false(r[0]);
	assert_true(r[1]);
	assert_false(r[2]); /* untested: never rejected */
	assert_false(r[3]);
	assert_false(r[4]);
	{
		const double q[] = { 0.01, 0.04, 0.02 }; /* 0.01 <= .05/3, 0.02 <= .05/2, 0.04 <= .05 */

		assert_int_equal(stats_holm(q, 3, 0.05, r), 3);
		assert_true(r[0] && r[1] && r[2]);
	}
}

/* Wilson's interval against published values (Newcombe 1998, table I: 81/263, 15/148, 0/20) */
static void wilson(void **state)
{
	double lo, hi;

	stats_wilson95(81, 263, &lo, &hi);
	assert_close(lo, 0.2553, 1e-4);
	assert_close(hi, 0.3662, 1e-4);
	stats_wilson95(15, 148, &lo, &hi);
	assert_close(lo, 0.0624, 1e-4);
	assert_close(hi, 0.1605, 1e-4);
	stats_wilson95(0, 20, &lo, &hi);
	assert_close(lo, 0.0, 1e-12);
	assert_close(hi, 0.1611, 1e-4);
	stats_wilson95(0, 0, &lo, &hi); /* nothing sampled: says nothing */
	assert_close(lo, 0.0, 1e-12);
	assert_close(hi, 1.0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mean_and_stddev),
		cmocka_unit_test(t_quantiles),
		cmocka_unit_test(confidence_interval),
		cmocka_unit_test(welch),
		cmocka_unit_test(t_p_values),
		cmocka_unit_test(holm),
		cmocka_unit_test(wilson),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
