/*
 * test_tidmap.c - the tid index (common/tidmap.h) against a reference through random puts
 * and deletes: tids in the direct pages, at their edges and beyond them (negative, above
 * PID_MAX_LIMIT), pages given back when their last tid goes, the count of entries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

#include "../../common/tidmap.h"

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

#define NT 3000

/* The tids drawn: small ones, both sides of a page edge and of the direct range, and far. */
static int32_t tid_of(int k)
{
	static const int32_t far[] = { -1, -2, INT32_MIN, INT32_MAX, (int32_t)TIDMAP_DIRECT,
				       (int32_t)TIDMAP_DIRECT + 1, (int32_t)TIDMAP_DIRECT - 1, 0,
				       (int32_t)TIDMAP_PAGE - 1, (int32_t)TIDMAP_PAGE };

	if (k < 10)
		return far[k];
	/* small tids across the edge at 5,120; large ones up to 4,010,493 */
	return k < NT / 2 ? 5000 + k : 4000000 + (k - NT / 2) * 7;
}

static void against_reference(void **state)
{
	static int32_t ref[NT];
	struct tidmap m;
	uint64_t x = 11;
	size_t n = 0;

	(void)state;
	for (int k = 0; k < NT; k++)
		ref[k] = -1;
	tidmap_init(&m);
	for (int i = 0; i < 300000; i++) {
		int k = (int)(rnd(&x) % NT);

		if (rnd(&x) % 3) {
			n += ref[k] < 0;
			ref[k] = (int32_t)(rnd(&x) % 1000000);
			tidmap_put(&m, tid_of(k), ref[k]);
		} else {
			n -= ref[k] >= 0;
			ref[k] = -1;
			tidmap_del(&m, tid_of(k));
		}
		assert_int_equal(m.n, n);
		if (i % 5000 == 0)
			for (int j = 0; j < NT; j++)
				assert_int_equal(tidmap_get(&m, tid_of(j)), ref[j]);
	}
	for (int k = 0; k < NT; k++)
		tidmap_del(&m, tid_of(k));
	assert_int_equal(m.n, 0);
	for (uint32_t p = 0; p < TIDMAP_DIRECT / TIDMAP_PAGE; p++)
		assert_null(m.page[p]); /* every page given back with its last tid */
	assert_int_equal(m.far.n, 0);
	tidmap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(against_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
