/*
 * test_schedstat_record.c - /proc/schedstat snapshots as perf's SCHEDSTAT
 * records: the bytes where perf's struct perf_record_schedstat_cpu/_domain put
 * them (offsets written out here from perf's event.h, not from the codec), and
 * the fixtures of versions 15 to 17 written and read back to the same deltas
 * as their text; records the reader refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/schedstat_read.h"
#include "../../collectors/schedstat_record.h"

#define FIX "tests/fixtures/schedstat/"

static void load(int version, const char *which, struct schedstat *s)
{
	char path[128], err[256];

	snprintf(path, sizeof(path), FIX "v%d-%s", version, which);
	assert_int_equal(schedstat_read(path, s, err, sizeof(err)), 0);
}

static uint64_t u(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	memcpy(&v, p, (size_t)bytes); /* little-endian host, as the file */
	return v;
}

/* perf's layout, field by field, for the first CPU and its first domain of v15. */
static void layout(void **state)
{
	struct schedstat s;
	uint8_t *b;
	size_t n;

	(void)state;
	load(15, "before", &s);
	n = ss_records_encode(&s, &b);
	assert_int_equal(n, (size_t)s.ncpus * 72 + (size_t)s.ndoms * 208);
	/* PERF_RECORD_SCHEDSTAT_CPU: type, misc, size; timestamp, cpu, version, pad */
	assert_int_equal(u(b, 4), 85);
	assert_int_equal(u(b + 6, 2), 72);
	assert_int_equal(u(b + 8, 8), 4295000000ull);
	assert_int_equal(u(b + 16, 4), 0);
	assert_int_equal(u(b + 20, 2), 15);
	/* "cpu0 3 0 1000 400 800 300 5000000 200000 900": six u32, three u64 */
	assert_int_equal(u(b + 24, 4), 3);
	assert_int_equal(u(b + 32, 4), 1000);
	assert_int_equal(u(b + 44, 4), 300);
	assert_int_equal(u(b + 48, 8), 5000000);
	assert_int_equal(u(b + 56, 8), 200000);
	assert_int_equal(u(b + 64, 8), 900);
	/* PERF_RECORD_SCHEDSTAT_DOMAIN: the level at 22, then the line's columns as u32 */
	b += 72;
	assert_int_equal(u(b, 4), 86);
	assert_int_equal(u(b + 6, 2), 208);
	assert_int_equal(u(b + 22, 2), 0);
	/* "domain0 3 200 100 2 7 2 1 3 4 100 50 ..." (v15: idle first) */
	assert_int_equal(u(b + 24, 4), 200);
	assert_int_equal(u(b + 28, 4), 100);
	assert_int_equal(u(b + 24 + 4 * 8, 4), 100); /* busy lb_count */
	assert_int_equal(u(b + 24 + 4 * 33, 4), 50); /* ttwu_wake_remote */
	free(b - 72);
	schedstat_release(&s);
}

/* Written and read back: the deltas of the text, every counter. */
static void round_trip(void **state)
{
	(void)state;
	for (int v = 15; v <= 17; v++) {
		struct schedstat before, after, want, got;
		struct ss_records sr = { 0 };
		uint8_t *b[2];
		size_t n[2];
		char why[256];

		load(v, "before", &before);
		load(v, "after", &after);
		assert_int_equal(schedstat_delta(&before, &after, &want, why, sizeof(why)), 0);
		n[0] = ss_records_encode(&before, &b[0]);
		n[1] = ss_records_encode(&after, &b[1]);
		for (int k = 0; k < 2; k++)
			for (size_t at = 0; at < n[k]; at += u(b[k] + at + 6, 2))
				ss_records_add(&sr, b[k] + at, u(b[k] + at + 6, 2));
		assert_int_equal(sr.n, 2);
		assert_int_equal(sr.bad, 0);
		assert_int_equal(ss_records_delta(&sr, &got, why, sizeof(why)), 0);
		assert_int_equal(got.version, v);
		assert_int_equal(got.ncpus, want.ncpus);
		assert_int_equal(got.ndoms, want.ndoms);
		for (int i = 0; i < want.ncpus; i++)
			assert_memory_equal(got.cpus[i].c, want.cpus[i].c, sizeof(want.cpus[i].c));
		for (int i = 0; i < want.ndoms; i++) {
			assert_int_equal(got.doms[i].level, want.doms[i].level);
			assert_memory_equal(got.doms[i].lb, want.doms[i].lb, sizeof(want.doms[i].lb));
			assert_memory_equal(got.doms[i].d, want.doms[i].d, sizeof(want.doms[i].d));
		}
		schedstat_release(&want);
		schedstat_release(&got);
		schedstat_release(&before);
		schedstat_release(&after);
		ss_records_release(&sr);
		free(b[0]);
		free(b[1]);
	}
}

/* What the reader refuses, each counted with its reason. */
static void refused(void **state)
{
	struct schedstat s;
	struct ss_records sr = { 0 };
	uint8_t *b, rec[208];
	char why[256];
	struct schedstat d;

	(void)state;
	load(16, "before", &s);
	ss_records_encode(&s, &b);
	/* a domain with no CPU record before it */
	ss_records_add(&sr, b + 72, 208);
	assert_int_equal(sr.bad, 1);
	assert_non_null(strstr(sr.why, "not after its CPU's record"));
	/* a version locus does not read */
	memcpy(rec, b, 72);
	rec[20] = 14;
	ss_records_add(&sr, rec, 72);
	assert_int_equal(sr.bad, 2);
	/* shorter than its header */
	ss_records_add(&sr, b, 16);
	assert_int_equal(sr.bad, 3);
	assert_int_equal(ss_records_delta(&sr, &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "3 of 3 SCHEDSTAT records refused"));
	ss_records_release(&sr);
	free(b);
	schedstat_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
