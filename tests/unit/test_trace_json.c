/*
 * test_trace_json.c - the deferred trace (items first into a scratch file, the head when
 * the results are known) writes the same bytes as the direct one, whatever the limit cuts:
 * the oracle is trace_json_begin + items + end over the same items in the same run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/trace_json.h"

#define NITEMS 400

static void items(struct tl_item *it)
{
	for (int i = 0; i < NITEMS; i++) {
		memset(&it[i], 0, sizeof(it[i]));
		it[i].kind = (enum tl_kind)(i % 5 == 0 ? TL_FLOW : i % 5 == 1 ? TL_COUNTER :
					    i % 5 == 2 ? TL_MIGRATE : TL_SLICE);
		it[i].cpu = i % 4;
		it[i].from_cpu = (i + 1) % 4;
		it[i].t0 = 1000000000ull + 1000ull * (uint64_t)i;
		it[i].t1 = it[i].t0 + 500 + (uint64_t)(i % 7) * 100;
		it[i].tid = 100 + i % 9;
		it[i].pid = 100;
		snprintf(it[i].comm, sizeof(it[i].comm), "task-%d", i % 9);
		it[i].id = (uint64_t)i;
		it[i].value = i % 3;
	}
}

/* The whole document into a string (caller frees); its counts into *tj. */
static char *slurp(FILE *f, size_t *n)
{
	long len;
	char *s;

	fflush(f);
	len = ftell(f);
	s = malloc((size_t)len + 1);
	rewind(f);
	*n = fread(s, 1, (size_t)len, f);
	return s;
}

static void same_bytes(uint64_t limit)
{
	static struct tl_item it[NITEMS];
	struct sched_results r;
	struct trace_json d, def;
	FILE *a = tmpfile(), *b = tmpfile(), *body = tmpfile();
	char *sa, *sb;
	size_t na, nb;

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(body);
	memset(&r, 0, sizeof(r));
	items(it);
	trace_json_begin(&d, a, 4, limit, "title", &r, 1234, 5678);
	trace_json_body(&def, body, 4, limit);
	for (int i = 0; i < NITEMS; i++) {
		trace_json_item(&d, &it[i]);
		trace_json_item(&def, &it[i]);
	}
	trace_json_end(&d);
	assert_int_equal(trace_json_deferred_end(&def, b, "title", &r, 1234, 5678), 0);
	sa = slurp(a, &na);
	sb = slurp(b, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(sa, sb, na);
	assert_int_equal(d.bytes, def.bytes);
	assert_int_equal(d.events, def.events);
	assert_int_equal(d.dropped, def.dropped);
	if (limit && limit < 20000)
		assert_true(d.dropped > 0); /* the limit cut: the case this guards */
	trace_json_release(&def);
	free(sa);
	free(sb);
	fclose(a);
	fclose(b);
	fclose(body);
}

static void no_limit(void **state)
{
	(void)state;
	same_bytes(0);
}

/* Limits inside the head, and at each item's first byte, one before and one after (where a
 * cut one byte off would show). */
static void every_cut(void **state)
{
	static struct tl_item it[NITEMS];
	static uint64_t at[NITEMS];
	struct sched_results r;
	struct trace_json d;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	memset(&r, 0, sizeof(r));
	items(it);
	trace_json_begin(&d, f, 4, 0, "title", &r, 1234, 5678);
	for (int i = 0; i < NITEMS; i++) {
		at[i] = d.bytes;
		trace_json_item(&d, &it[i]);
	}
	fclose(f);
	for (uint64_t limit = 1; limit < at[0]; limit += 37)
		same_bytes(limit);
	for (int i = 0; i < NITEMS; i += 3)
		for (int k = -1; k <= 1; k++)
			same_bytes(at[i] + (uint64_t)k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_limit),
		cmocka_unit_test(every_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
