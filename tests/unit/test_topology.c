/* test_topology.c - the fixture trees load, and CPU pairs get the classes their hardware implies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* No cache directory: the LLC is unknown, never guessed; CPUs of one node are "same node". */
static void no_cache_info(void **state)
{
	struct topology t;
	struct topo_fold f;

	load(&t, FIX "nocache-8");
	assert_int_equal(t.nonline, 8);
	assert_int_equal(t.ncores, 4);
	assert_false(t.llc_known);
	assert_int_equal(t.nllcs, 0);
	assert_int_equal(topology_class(&t, 0, 4), LOC_SMT);
	assert_int_equal(topology_class(&t, 0, 1), LOC_NODE);
	assert_int_equal(topology_class(&t, 0, 2), LOC_REMOTE);
	assert_int_equal(topology_group(&t, 0, LOC_LLC), -1); /* no group to look for idle CPUs in */
	assert_false(topology_knows(&t, LOC_LLC));
	assert_true(topology_knows(&t, LOC_NODE));
	assert_string_equal(topology_class_label(&t, LOC_NODE), "same node (LLC unknown)");
	topology_fold(&f, &t, 3); /* 4 cores do not fit: per node, never per "LLC" */
	assert_string_equal(f.unit, "node");
	assert_int_equal(f.n, 2);
	topology_fold_release(&f);
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

struct tree {
	char path[64][300];	/* relative */
	char text[64][512];
	size_t len[64];
	int n;
};

/* Read a fixture tree's files and make its directories under dst. */
static void load_tree(const char *src, const char *dst, struct tree *t)
{
	char cmd[1024], line[300];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cd '%s' && find . -type d -exec mkdir -p '%s/{}' ';' && "
		 "find . -type f", src, dst);
	p = popen(cmd, "r");
	assert_non_null(p);
	t->n = 0;
	while (t->n < 64 && fgets(line, sizeof(line), p)) {
		char from[700];
		FILE *f;

		line[strcspn(line, "\n")] = '\0';
		snprintf(t->path[t->n], sizeof(t->path[0]), "%s", line + 2);
		snprintf(from, sizeof(from), "%s/%s", src, t->path[t->n]);
		f = fopen(from, "r");
		assert_non_null(f);
		t->len[t->n] = fread(t->text[t->n], 1, sizeof(t->text[0]), f);
		fclose(f);
		t->n++;
	}
	pclose(p);
}

/* Write the tree's files under dst, one in eight flipped, cut or garbled. */
static void write_mutated(const struct tree *t, const char *dst, uint64_t *x)
{
	for (int i = 0; i < t->n; i++) {
		char to[700], buf[512];
		size_t len = t->len[i];
		FILE *g;

		memcpy(buf, t->text[i], len);
		*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
		if (*x % 8 == 0 && len) {
			size_t at = (*x >> 8) % len;

			switch ((*x >> 20) % 4) {
			case 0: buf[at] = "0123456789,-x \n"[(*x >> 30) % 15]; break;
			case 1: len = at; break;
			case 2: memset(buf + at, '9', len - at); break;
			default: buf[at] ^= (char)(1 << ((*x >> 33) % 8));
			}
		}
		snprintf(to, sizeof(to), "%s/%s", dst, t->path[i]);
		g = fopen(to, "w");
		assert_non_null(g);
		fwrite(buf, 1, len, g);
		fclose(g);
	}
}

/* sysfs fixture trees with garbled files: each loads, or fails with a reason. */
static void mutated_trees(void **state)
{
	static const char *const src[] = { "tests/fixtures/topology/core2quad",
					   "tests/fixtures/topology/desktop-4c8t" };
	static struct tree trees[2];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char dir[2][32] = { "/tmp/locus-topo-XXXXXX", "/tmp/locus-topo-XXXXXX" }, cmd[200];
	int loaded = 0;

	for (int k = 0; k < 2; k++) {
		assert_non_null(mkdtemp(dir[k]));
		load_tree(src[k], dir[k], &trees[k]);
	}
	for (int i = 0; i < 800; i++) {
		struct topology t;
		char err[256] = "";

		write_mutated(&trees[i % 2], dir[i % 2], &x);
		if (topology_load(&t, dir[i % 2], err, sizeof(err)) == 0) {
			loaded++;
			/* whatever it read classifies every pair */
			for (int a = 0; a < t.ncpus; a++)
				for (int b = 0; b < t.ncpus; b++)
					assert_true(topology_class(&t, a, b) < LOC_NR);
			topology_release(&t);
		} else {
			assert_true(err[0] != '\0');
		}
	}
	for (int k = 0; k < 2; k++) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir[k]);
		assert_int_equal(system(cmd), 0);
	}
	assert_true(loaded > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_socket_smt), cmocka_unit_test(core2quad_l2_pairs),
		cmocka_unit_test(desktop),	  cmocka_unit_test(big_512),
		cmocka_unit_test(no_cache_info),
		cmocka_unit_test(missing_tree),	  cmocka_unit_test(out_of_range_is_remote),
		cmocka_unit_test(mutated_trees),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
