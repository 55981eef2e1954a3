/* test_topology.c - the fixture trees load, and CPU pairs get the classes their hardware implies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../collectors/topology.h"

#define FIX "tests/fixtures/topology/"

static void load(struct topology *t, const char *name)
{
	char err[256] = "";

	assert_int_equal(topology_load(t, name, err, sizeof(err)), 0);
}

static void two_socket_smt(void **state)
{
	struct topology t;

	load(&t, FIX "2s16c2t-64");
	assert_int_equal(t.nonline, 64);
	assert_int_equal(t.ncores, 32);
	assert_true(t.llc_known);
	assert_int_equal(t.nllcs, 2);
	assert_int_equal(t.llc_level, 3);
	assert_int_equal(t.nnodes, 2);
	assert_int_equal(t.npackages, 2);
	assert_int_equal(topology_class(&t, 0, 0), LOC_SAME_CPU);
	assert_int_equal(topology_class(&t, 0, 32), LOC_SMT); /* CPU 0's sibling */
	assert_int_equal(topology_class(&t, 32, 0), LOC_SMT);
	assert_int_equal(topology_class(&t, 0, 1), LOC_LLC);
	assert_int_equal(topology_class(&t, 0, 47), LOC_LLC);
	assert_int_equal(topology_class(&t, 0, 16), LOC_REMOTE);
	assert_int_equal(topology_class(&t, 15, 48), LOC_REMOTE);
	assert_int_equal(t.distance[0 * 2 + 1], 21);
	assert_int_equal(t.distance[1 * 2 + 1], 10);
	topology_release(&t);
}

static void core2quad_l2_pairs(void **state)
{
	struct topology t;

	load(&t, FIX "core2quad");
	assert_int_equal(t.nonline, 4);
	assert_int_equal(t.ncores, 4);
	assert_int_equal(t.nllcs, 2);
	assert_int_equal(t.llc_level, 2);
	assert_int_equal(topology_class(&t, 0, 1), LOC_LLC);
	assert_int_equal(topology_class(&t, 2, 3), LOC_LLC);
	assert_int_equal(topology_class(&t, 1, 2), LOC_NODE);
	assert_int_equal(topology_class(&t, 0, 3), LOC_NODE);
	topology_release(&t);
}

static void desktop(void **state)
{
	struct topology t;

	load(&t, FIX "desktop-4c8t");
	assert_int_equal(t.nonline, 8);
	assert_int_equal(t.ncores, 4);
	assert_int_equal(t.nllcs, 1);
	assert_int_equal(topology_class(&t, 1, 5), LOC_SMT);
	assert_int_equal(topology_class(&t, 1, 2), LOC_LLC);
	assert_int_equal(topology_class(&t, 7, 4), LOC_LLC);
	topology_release(&t);
}

static void big_512(void **state)
{
	struct topology t;

	load(&t, FIX "8n512");
	assert_int_equal(t.nonline, 512);
	assert_int_equal(t.ncores, 256);
	assert_int_equal(t.nllcs, 16);
	assert_int_equal(t.nnodes, 8);
	assert_int_equal(topology_class(&t, 0, 256), LOC_SMT);
	assert_int_equal(topology_class(&t, 0, 15), LOC_LLC);
	assert_int_equal(topology_class(&t, 0, 16), LOC_NODE); /* second LLC of the package */
	assert_int_equal(topology_class(&t, 0, 32), LOC_REMOTE);
	assert_int_equal(topology_class(&t, 511, 255), LOC_SMT);
	assert_int_equal(t.distance[0 * 8 + 1], 16);
	assert_int_equal(t.distance[0 * 8 + 2], 32);
	assert_int_equal(topology_group(&t, 300, LOC_SMT), 44);
	assert_int_equal(topology_group(&t, 300, LOC_NODE), 1);
	topology_release(&t);
}

static void missing_tree(void **state)
{
	struct topology t;
	char err[256] = "";

	assert_int_equal(topology_load(&t, "tests/fixtures/nonexistent", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read"));
}

static void out_of_range_is_remote(void **state)
{
	const int core[] = { 0, 0 }, node[] = { 0, 0 };
	struct topology t;

	topology_from_arrays(&t, 2, core, NULL, node);
	assert_false(t.llc_known);
	assert_int_equal(topology_class(&t, 0, 1), LOC_SMT);
	assert_int_equal(topology_class(&t, 0, 7), LOC_REMOTE);
	assert_int_equal(topology_class(&t, -1, 0), LOC_REMOTE);
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_socket_smt), cmocka_unit_test(core2quad_l2_pairs),
		cmocka_unit_test(desktop),	  cmocka_unit_test(big_512),
		cmocka_unit_test(missing_tree),	  cmocka_unit_test(out_of_range_is_remote),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
