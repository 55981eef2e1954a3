/* test_pmu.c - PMU event aliases and the memory-sampling plan from fixture sysfs trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "../../collectors/pmu_event.h"

#define FIX "tests/fixtures/pmu/"

static void skylake_x(void **state)
{
	struct mem_plan p;
	char why[256];

	assert_int_equal(mem_plan_build(FIX "skx", &p, why, sizeof(why)), 0);
	assert_int_equal(p.n, 2);
	assert_false(p.aux_leader);
	assert_int_equal(p.attr[0].type, 4);
	assert_int_equal(p.attr[0].config, 0x1cd);	/* event 0xcd, umask 0x1 */
	assert_int_equal(p.attr[0].config1, 30);	/* ldlat=30 replaces the alias's 3 */
	assert_int_equal(p.attr[0].precise_ip, 3);
	assert_true(p.attr[0].sample_type & PERF_SAMPLE_DATA_SRC);
	assert_int_equal(p.attr[1].config, 0x82d0);	/* event 0xd0, umask 0x82 */
	assert_string_equal(p.name[1], "cpu/mem-stores/P");
}

static void sapphire_rapids(void **state)
{
	struct mem_plan p;
	char why[256];

	assert_int_equal(mem_plan_build(FIX "spr", &p, why, sizeof(why)), 0);
	assert_int_equal(p.n, 3);
	assert_true(p.aux_leader);
	assert_int_equal(p.attr[0].config, 0x8203);	/* mem-loads-aux leads */
	assert_int_equal(p.attr[1].config, 0x1cd);
	assert_int_equal(p.attr[1].config1, 30);
	assert_int_equal(p.attr[2].config, 0x2cd);
}

static void amd_ibs(void **state)
{
	struct mem_plan p;
	char why[256];

	assert_int_equal(mem_plan_build(FIX "zen3", &p, why, sizeof(why)), 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.attr[0].type, 11);
	assert_string_equal(p.name[0], "ibs_op//");
}

static void nothing(void **state)
{
	struct mem_plan p;
	char why[256] = "";

	assert_int_equal(mem_plan_build(FIX "none", &p, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no mem-loads"));
}

static void formats(void **state)
{
	struct perf_event_attr a;
	char err[256];

	/* split fields and unknown terms */
	assert_int_equal(pmu_event_encode(FIX "skx", "cpu", NULL, "event=0x3c,umask=0x1,inv,cmask=2",
					  &a, err, sizeof(err)), 0);
	assert_int_equal(a.config, 0x3c | 0x1 << 8 | 1 << 23 | 2ull << 24);
	assert_int_equal(pmu_event_encode(FIX "skx", "cpu", NULL, "nosuch=1", &a, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "nosuch"));
	assert_int_equal(pmu_event_encode(FIX "skx", "cpu", "nosuch", NULL, &a, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skylake_x), cmocka_unit_test(sapphire_rapids),
		cmocka_unit_test(amd_ibs),   cmocka_unit_test(nothing),
		cmocka_unit_test(formats),
	};

	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
