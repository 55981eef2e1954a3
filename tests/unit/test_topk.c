/*
 * test_topk.c - Filtered Space-Saving (common/topk.h) against an exact count of the same
 * stream: exact while every key fits; on a skewed stream of 20,000 keys in 400 slots,
 * every guarantee (count - err <= true <= count, err <= bound <= N / cap, every key above
 * the bound kept) and the top 10 equal to the exact top 10; weighted increments; one-off
 * keys among 200,000 staying in the filter. And the hash map's delete, against a
 * reference, through thousands of random puts and deletes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

#include "../../common/topk.h"

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void exact_while_it_fits(void **state)
{
	struct topk t;
	bool fresh;

	(void)state;
	topk_init(&t, 8);
	for (int i = 0; i < 100; i++)
		topk_add(&t, (uint64_t)(i % 8), (uint64_t)(i % 8) + 1, &fresh);
	assert_int_equal(t.n, 8);
	assert_int_equal(t.evicted, 0);
	assert_int_equal(topk_bound(&t), 0);
	for (uint64_t k = 0; k < 8; k++) {
		int s = topk_find(&t, k);

		assert_true(s >= 0);
		assert_int_equal(t.slot[s].err, 0);
		/* 100 items: keys 0-3 thirteen times, 4-7 twelve times */
		assert_int_equal(t.slot[s].count, (k < 4 ? 13 : 12) * (k + 1));
	}
	assert_true(topk_add(&t, 3, 1, &fresh) >= 0);
	assert_false(fresh);
	topk_release(&t);
}

#define KEYS 20000

static const uint64_t *truth_of;

static int cmp_true(const void *a, const void *b)
{
	uint64_t x = truth_of[*(const int *)a], y = truth_of[*(const int *)b];

	return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

static void skewed_stream(void **state)
{
	static uint64_t truth[KEYS];
	static int order[KEYS];
	struct topk t;
	uint64_t x = 42, n = 0;
	bool fresh;

	(void)state;
	memset(truth, 0, sizeof(truth));
	topk_init(&t, 400);
	for (int i = 0; i < 400000; i++) {
		/* a quarter from 10 hot keys, key k taking 10 - k of every 55 (counts 1,818 apart,
		 * more than the bound N / cap = 1,000: the top 10 must come out exact), the rest
		 * uniform noise over 20,000 keys, some increments weighted */
		uint64_t k, w = 1 + (i % 7 == 0 ? rnd(&x) % 4 : 0);

		if (i % 4 == 0) {
			int h = (i / 4) % 55;

			k = 0;
			while (h >= 10 - (int)k) {
				h -= 10 - (int)k;
				k++;
			}
			w = 1;
		} else {
			k = 10 + rnd(&x) % (KEYS - 10);
		}
		truth[k] += w;
		n += w;
		topk_add(&t, k, w, &fresh);
	}
	assert_int_equal(t.total, n);
	assert_true(t.evicted > 0);
	assert_true(topk_bound(&t) <= n / 400);
	for (int s = 0; s < t.n; s++) {
		assert_true(t.slot[s].count >= truth[t.slot[s].key]);
		assert_true(t.slot[s].count - t.slot[s].err <= truth[t.slot[s].key]);
		assert_true(t.slot[s].err <= topk_bound(&t));
	}
	for (int k = 0; k < KEYS; k++) {
		order[k] = k;
		if (truth[k] > topk_bound(&t))
			assert_true(topk_find(&t, (uint64_t)k) >= 0);
	}
	truth_of = truth;
	qsort(order, KEYS, sizeof(int), cmp_true);
	{
		int top[400], nt = t.n;

		for (int s = 0; s < nt; s++)
			top[s] = s;
		/* the slots by count, largest first */
		for (int a = 0; a < nt; a++)
			for (int b = a + 1; b < nt; b++)
				if (t.slot[top[b]].count > t.slot[top[a]].count) {
					int c = top[a];

					top[a] = top[b];
					top[b] = c;
				}
		for (int i = 0; i < 10; i++)
			assert_int_equal(t.slot[top[i]].key, (uint64_t)order[i]);
	}
	topk_release(&t);
}

/*
 * The filter: among 200,000 keys seen once each, 8 keys seen every 8th increment are kept
 * in 64 slots with every guarantee, and the one-off keys mostly stay out of the slots
 * (plain Space-Saving gives each of them a slot, evicting one every time).
 */
static void one_offs_stay_out(void **state)
{
	struct topk t;
	uint64_t ones = 0, n = 0;
	bool fresh;

	(void)state;
	topk_init(&t, 64);
	for (uint64_t i = 0; i < 228571; i++) {
		uint64_t k = i % 8 == 0 ? (i / 8) % 8 : 1000 + i; /* hot 0-7, else new */

		ones += k >= 1000;
		n++;
		topk_add(&t, k, 1, &fresh);
	}
	assert_int_equal(t.total, n);
	assert_true(t.filtered > 0);
	assert_true(t.evicted < ones / 4);
	assert_true(topk_bound(&t) <= n / 64);
	for (uint64_t k = 0; k < 8; k++) {
		int s = topk_find(&t, k);

		assert_true(s >= 0); /* 3,571 each, far above the bound */
		assert_true(t.slot[s].count >= n / 64);
		assert_true(t.slot[s].count - t.slot[s].err <= (n + 63) / 64);
	}
	for (int s = 0; s < t.n; s++)
		if (t.slot[s].key >= 1000) /* a one-off's count: 1, overcounted by its err */
			assert_true(t.slot[s].count - t.slot[s].err <= 1);
	topk_release(&t);
}

static void map_delete(void **state)
{
	static uint32_t ref[4096];
	static bool in[4096];
	struct u64map m;
	uint64_t x = 7;

	(void)state;
	memset(in, 0, sizeof(in));
	u64map_init(&m);
	for (int i = 0; i < 200000; i++) {
		uint64_t k = rnd(&x) % 4096;

		if (rnd(&x) % 3) {
			ref[k] = (uint32_t)i;
			in[k] = true;
			u64map_put(&m, k * 0x9e3779b97f4a7c15ull, (uint32_t)i);
		} else {
			assert_int_equal(u64map_del(&m, k * 0x9e3779b97f4a7c15ull), in[k]);
			in[k] = false;
		}
		if (i % 1000 == 0)
			for (uint64_t j = 0; j < 4096; j++) {
				uint32_t *v = u64map_get(&m, j * 0x9e3779b97f4a7c15ull);

				assert_int_equal(v != NULL, in[j]);
				if (v)
					assert_int_equal(*v, ref[j]);
			}
	}
	u64map_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_while_it_fits),
		cmocka_unit_test(skewed_stream),
		cmocka_unit_test(one_offs_stay_out),
		cmocka_unit_test(map_delete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
