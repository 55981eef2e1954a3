/* test_stacks.c - callchains: the sample decoder's field (hand-written kernel layout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/sample.h"

/* IDENTIFIER, TID, TIME, CPU, CALLCHAIN, RAW: what locus record -g writes for a tracepoint. */
static const uint64_t TRACEPOINT_G = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
				     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;

static void layout_for(struct sample_layout *l, uint64_t st)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_type = st };

	sample_layout_of(l, &a);
}

/* A body in the kernel's order with nr callchain entries ips (nr_written of them present). */
static size_t body(uint8_t *b, uint64_t nr, const uint64_t *ips, size_t nr_written,
		   const char *raw)
{
	uint64_t w[4] = { 7, (uint64_t)42 << 32 | 41, 123456789, 1 };
	uint32_t rs = (uint32_t)strlen(raw);
	size_t at = 0;

	memcpy(b, w, sizeof(w));
	at += sizeof(w);
	memcpy(b + at, &nr, 8);
	at += 8;
	memcpy(b + at, ips, nr_written * 8);
	at += nr_written * 8;
	memcpy(b + at, &rs, 4);
	memcpy(b + at + 4, raw, rs);
	return at + 4 + rs;
}

static void callchain_decoded(void **state)
{
	const uint64_t ips[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
				 0xffffffff81000020ULL, (uint64_t)PERF_CONTEXT_USER,
				 0x7f0000001000ULL };
	struct sample_layout l;
	struct pd_sample s;
	uint8_t b[512];
	size_t n;

	(void)state;
	layout_for(&l, TRACEPOINT_G);
	n = body(b + 4, 5, ips, 5, "abcd"); /* +4: an unaligned record, as in a file */
	assert_int_equal(sample_decode(&l, b + 4, n, &s), 0);
	assert_int_equal(s.callchain_nr, 5);
	for (uint32_t i = 0; i < 5; i++)
		assert_true(sample_callchain_ip(&s, i) == ips[i]);
	assert_int_equal(s.tid, 42);
	assert_int_equal(s.pid, 41);
	assert_true(s.time == 123456789);
	assert_int_equal(s.raw_size, 4); /* RAW found after the callchain */
	assert_memory_equal(s.raw, "abcd", 4);

	/* an empty chain (the tracepoints locus reads none of): nr 0, RAW right after */
	n = body(b, 0, ips, 0, "xy");
	assert_int_equal(sample_decode(&l, b, n, &s), 0);
	assert_int_equal(s.callchain_nr, 0);
	assert_int_equal(s.raw_size, 2);

	/* without CALLCHAIN in the attribute: none, whatever a previous decode left */
	layout_for(&l, TRACEPOINT_G & ~(uint64_t)PERF_SAMPLE_CALLCHAIN);
	memset(&s, 0xff, sizeof(s));
	{
		uint64_t w[4] = { 7, 1, 2, 3 };
		uint32_t rs = 0;

		memcpy(b, w, sizeof(w));
		memcpy(b + 32, &rs, 4);
		assert_int_equal(sample_decode(&l, b, 36, &s), 0);
		assert_null(s.callchain);
		assert_int_equal(s.callchain_nr, 0);
	}
}

/* Hostile nr: beyond the bound, beyond the record, or the record cut inside the chain. */
static void callchain_hostile(void **state)
{
	const uint64_t ips[3] = { 1, 2, 3 };
	const uint64_t bad[] = { SAMPLE_CALLCHAIN_MAX + 1, (uint64_t)1 << 61, UINT64_MAX, 4 };
	struct sample_layout l;
	struct pd_sample s;
	uint8_t b[512];
	size_t n;

	(void)state;
	layout_for(&l, TRACEPOINT_G);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = body(b, bad[i], ips, 3, "");
		assert_int_equal(sample_decode(&l, b, n, &s), -1);
	}
	n = body(b, 3, ips, 3, "");
	for (size_t cut = 33; cut < n; cut++) /* every length short of the whole record */
		assert_int_equal(sample_decode(&l, b, cut, &s), -1);
	assert_int_equal(sample_decode(&l, b, n, &s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callchain_decoded),
		cmocka_unit_test(callchain_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
