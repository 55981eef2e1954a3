/*
 * test_schedstat.c - /proc/schedstat versions 15, 16 and 17 from fixture
 * files in the kernel's own layout: parsed, differenced, rendered; and the
 * files it must refuse, each with its reason.
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
#include "../../report/json.h"
#include "../../report/schedstat_report.h"
#include "golden.h"

#define FIX "tests/fixtures/schedstat/"

static void load_delta(int version, struct schedstat *d)
{
	struct schedstat a, b;
	char path[128], err[256];

	snprintf(path, sizeof(path), FIX "v%d-before", version);
	assert_int_equal(schedstat_read(path, &b, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), FIX "v%d-after", version);
	assert_int_equal(schedstat_read(path, &a, err, sizeof(err)), 0);
	assert_int_equal(b.version, version);
	assert_int_equal(b.ncpus, 4);
	assert_int_equal(b.ndoms, 8);
	assert_int_equal(schedstat_delta(&b, &a, d, err, sizeof(err)), 0);
	schedstat_release(&a);
	schedstat_release(&b);
}

/* The same machine and deltas in every version: the idle types land where they belong. */
static void versions(void **state)
{
	for (int v = 15; v <= 17; v++) {
		struct schedstat d;
		uint64_t lb[2][SS_IDLE_NR] = { { 0 } }, remote[2] = { 0 }, affine[2] = { 0 };

		load_delta(v, &d);
		assert_int_equal(d.timestamp, 250);
		assert_int_equal(d.cpus[2].cpu, 2);
		assert_int_equal(d.cpus[2].c[SS_TTWU_COUNT], 1600);
		assert_int_equal(d.cpus[2].c[SS_RUN_DELAY], 400000);
		for (int i = 0; i < d.ndoms; i++) {
			for (int t = 0; t < SS_IDLE_NR; t++)
				lb[d.doms[i].level][t] += d.doms[i].lb[t][SS_LB_COUNT];
			remote[d.doms[i].level] += d.doms[i].d[SS_TTWU_WAKE_REMOTE];
			affine[d.doms[i].level] += d.doms[i].d[SS_TTWU_MOVE_AFFINE];
		}
		/* busy 1xx, idle 2xx, newly idle 3xx per CPU, twice over, four CPUs */
		assert_int_equal(lb[0][SS_BUSY], 800);
		assert_int_equal(lb[0][SS_IDLE], 1600);
		assert_int_equal(lb[0][SS_NEWLY_IDLE], 2400);
		assert_int_equal(lb[1][SS_BUSY], 880);
		assert_int_equal(remote[0], 400);
		assert_int_equal(remote[1], 408);
		assert_int_equal(affine[1], 168);
		assert_string_equal(d.doms[0].mask, "3");
		assert_string_equal(d.doms[1].name, v >= 17 ? "MC" : "");
		if (v >= 17)
			assert_int_equal(d.doms[0].lb[SS_BUSY][SS_LB_IMB_UTIL], 16);
		{ /* -C 0,2: those CPUs and their domains only */
			static const int keep[] = { 2, 0 };

			schedstat_keep_cpus(&d, keep, 2);
			assert_int_equal(d.ncpus, 2);
			assert_int_equal(d.ndoms, 4);
			assert_int_equal(d.cpus[1].cpu, 2);
			assert_int_equal(d.doms[3].cpu, 2);
		}
		schedstat_release(&d);
	}
}

static char *render(int version, bool json)
{
	struct schedstat d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	load_delta(version, &d);
	if (json) {
		struct json j;

		json_init(&j, f);
		json_object(&j, NULL);
		schedstat_report_json(&j, &d, "");
		json_object_end(&j);
		json_end(&j);
	} else {
		schedstat_report_text(f, &d, "");
	}
	fclose(f);
	schedstat_release(&d);
	return text;
}

static void goldens(void **state)
{
	char *t15 = render(15, false), *t17 = render(17, false), *j17 = render(17, true);
	char *off = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&off, &len);

	assert_int_equal(golden_compare("tests/golden/schedstat_v15.txt", t15), 0);
	assert_int_equal(golden_compare("tests/golden/schedstat_v17.txt", t17), 0);
	assert_int_equal(golden_compare("tests/golden/schedstat_v17.json", j17), 0);
	assert_non_null(strstr(t17, "0 SMT"));
	schedstat_report_text(f, NULL, "/proc/schedstat: No such file or directory");
	fclose(f);
	assert_string_equal(off, "\n Scheduler domains (/proc/schedstat): not available: "
				 "/proc/schedstat: No such\n   file or directory\n");
	free(t15);
	free(t17);
	free(j17);
	free(off);
}

static void refused(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "version 14\ntimestamp 1\ncpu0 1 2 3 4 5 6 7 8 9\n", "locus reads versions 15 to 17" },
		{ "version 15\ntimestamp 1\ndomain0 3 1 2\n", "a domain line before any cpu line" },
		{ "version 15\ntimestamp 1\ncpu0 1 2 3\n", "bad cpu line" },
		{ "version 15\ntimestamp 1\ncpu0 1 2 3 4 5 6 7 8 9\ndomain0 3 1 2 3\n",
		  "too few counters for version 15" },
		{ "version 17\ntimestamp 1\ncpu0 1 2 3 4 5 6 7 8 9\ndomain0 MC\n", "has no CPU mask" },
		{ "timestamp 1\n", "no version line" },
		{ "version 16\ntimestamp 1\ncpu0 1 2 3 4 5 6 7 8 9\nnode0 3\n", "unknown line" },
	};
	struct schedstat s, a, b, d;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(schedstat_parse(bad[i].text, &s, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].why);
	}
	/* the snapshots the wrong way round: counters went back */
	assert_int_equal(schedstat_read(FIX "v16-before", &b, err, sizeof(err)), 0);
	assert_int_equal(schedstat_read(FIX "v16-after", &a, err, sizeof(err)), 0);
	assert_int_equal(schedstat_delta(&a, &b, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "went back"));
	schedstat_release(&a);
	schedstat_release(&b);
	assert_int_equal(schedstat_read(FIX "missing", &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CONFIG_SCHEDSTATS"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(versions),
		cmocka_unit_test(goldens),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
