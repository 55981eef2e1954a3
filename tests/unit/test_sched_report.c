/* test_sched_report.c - golden scheduler reports for each fixture topology (2 to 512 CPUs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzers/wakeup.h"
#include "../../report/heatmap.h"
#include "../../report/sched_report.h"
#include "events.h"
#include "flows.h"
#include "golden.h"
#include "../../collectors/topology.h"

static char *render(const char *fixture, const struct flow *flows, int nflows, int width,
		    bool json)
{
	struct topology topo;
	struct wakeup w;
	struct wakeup_cfg cfg = { 0 };
	struct sched_report_ctx ctx = { true, NULL, 0, 0, width };
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(topology_load(&topo, fixture, err, sizeof(err)), 0);
	snprintf(topo.source, sizeof(topo.source), "%s", strrchr(fixture, '/') + 1);
	cfg.topo = &topo;
	cfg.waking_source = true;
	cfg.affinity_events = true; /* as the perf stream */
	wakeup_init(&w, &cfg);
	play(&w, flows, nflows);
	test_provenance(wakeup_results(&w), &topo);
	f = open_memstream(&buf, &len);
	if (json) {
		struct json j;

		json_init(&j, f);
		json_object(&j, NULL);
		sched_report_json_members(&j, wakeup_results(&w), &ctx);
		json_object_end(&j);
		json_end(&j);
	} else {
		sched_report_text(f, wakeup_results(&w), SEC_ALL, &ctx);
	}
	fclose(f);
	wakeup_release(&w);
	topology_release(&topo);
	return buf;
}

static void check(const char *fixture, const char *golden, const struct flow *flows, int n,
		  int width, bool json)
{
	char *text = render(fixture, flows, n, width, json);
	char path[256];

	snprintf(path, sizeof(path), "tests/golden/%s", golden);
	assert_int_equal(golden_compare(path, text), 0);
	/* every line fits the width asked for */
	if (!json)
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			assert_true((int)strlen(line) <= width);
	free(text);
}

static void desktop_4c8t(void **state)
{
	const struct flow fl[] = { { 1, 5, 5, 40 }, { 1, 2, 2, 25 }, { 0, 0, 0, 10 },
				   { 3, 6, 3, 5 } };

	check("tests/fixtures/topology/desktop-4c8t", "sched_desktop-4c8t.txt", fl, 4, 80, false);
	check("tests/fixtures/topology/desktop-4c8t", "sched_desktop-4c8t.json", fl, 4, 80, true);
}

static void core2quad(void **state)
{
	const struct flow fl[] = { { 0, 1, 1, 30 }, { 0, 2, 2, 12 }, { 3, 3, 3, 8 },
				   { 2, 0, 3, 4 } };

	check("tests/fixtures/topology/core2quad", "sched_core2quad.txt", fl, 4, 80, false);
}

/* No cache information: no LLC row, key or figure; the node class says the LLC is unknown. */
static void nocache_8(void **state)
{
	const struct flow fl[] = { { 0, 4, 4, 20 }, { 0, 1, 1, 15 }, { 0, 2, 2, 8 },
				   { 3, 3, 3, 6 }, { 1, 0, 5, 4 } };

	check("tests/fixtures/topology/nocache-8", "sched_nocache-8.txt", fl, 5, 80, false);
	check("tests/fixtures/topology/nocache-8", "sched_nocache-8.json", fl, 5, 80, true);
}

static void two_socket_64(void **state)
{
	const struct flow fl[] = { { 0, 32, 32, 50 }, { 0, 1, 1, 30 }, { 0, 16, 16, 9 },
				   { 5, 5, 5, 20 }, { 17, 40, 17, 6 }, { 63, 2, 31, 3 } };

	check("tests/fixtures/topology/2s16c2t-64", "sched_2s16c2t-64.txt", fl, 6, 80, false);
}

static void big_512(void **state)
{
	const struct flow fl[] = { { 0, 256, 256, 50 }, { 0, 1, 1, 30 }, { 0, 16, 16, 20 },
				   { 0, 32, 32, 10 }, { 300, 300, 300, 15 }, { 511, 100, 200, 4 } };

	check("tests/fixtures/topology/8n512", "sched_8n512.txt", fl, 6, 80, false);
	check("tests/fixtures/topology/8n512", "sched_8n512_wide.txt", fl, 6, 200, false);
}

static void heatmap_levels(void **state)
{
	assert_int_equal(heatmap_level(0, 100), 0);
	assert_int_equal(heatmap_level(1, 100), 1);
	assert_int_equal(heatmap_level(100, 100), 9);
	assert_int_equal(heatmap_level(10, 100), 5);
	assert_int_equal(heatmap_level(1, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(desktop_4c8t), cmocka_unit_test(core2quad),
		cmocka_unit_test(nocache_8),
		cmocka_unit_test(two_socket_64), cmocka_unit_test(big_512),
		cmocka_unit_test(heatmap_levels),
	};

	return cmocka_run_group_tests_name("sched_report", tests, NULL, NULL);
}
