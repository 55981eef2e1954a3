/* test_stat.c - aggregation over runs, derived rates, and the golden text and JSON reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "../../analyzers/stat.h"
#include "../../report/stat_report.h"
#include "golden.h"

static const char *const names[] = { "task-clock", "context-switches", "cpu-migrations",
				     "cycles", "instructions", "hitm" };
static const bool hw[] = { false, false, false, true, true, true };
#define NC 6
#define NOPMU "no hardware PMU: the kernel exports no cpu PMU (virtual machine?)"

/* Two runs of a made-up pingpong on a machine without a PMU. */
static void build(struct stat_result *r)
{
	struct stat_reading rd[NC] = { 0 };
	const double cs[2] = { 40010, 39990 };
	const double tc[2] = { 450e6, 430e6 };

	stat_init(r, NC, names, NULL, hw, 0, NULL);
	for (int run = 0; run < 2; run++) {
		rd[0] = (struct stat_reading){ true, true, tc[run], 100, 100, NULL, NULL };
		rd[1] = (struct stat_reading){ true, true, cs[run], 100, 100, NULL, NULL };
		rd[2] = (struct stat_reading){ true, true, 3, 100, 100, NULL, NULL };
		for (int i = 3; i < NC; i++)
			rd[i] = (struct stat_reading){ false, false, 0, 0, 0, NULL, NULL };
		stat_add_run(r, rd, 500e6 + run * 20e6);
		stat_add_split(r, 39950 + run * 10, 40 - run * 10, SPLIT_RUSAGE);
		for (int i = 3; i < NC; i++)
			stat_set_unsupported(r, i, i == NC - 1 ? "libpfm4 knows no HITM event" : NOPMU);
	}
	stat_finish(r);
}

static void aggregates(void **state)
{
	struct stat_result r;
	struct stat_derived d;

	build(&r);
	assert_int_equal(r.runs, 2);
	assert_true(r.c[1].mean == 40000);
	assert_true(r.c[1].stddev > 14.14 && r.c[1].stddev < 14.15);
	assert_false(r.c[3].supported);
	assert_string_equal(r.c[3].reason, NOPMU);
	assert_int_equal(r.c[3].counted_runs, 0);
	assert_true(r.voluntary_mean == 39955);
	assert_true(r.involuntary_mean == 35);
	d = stat_derive(&r, 0);
	assert_true(d.valid);
	assert_string_equal(d.unit, "CPUs utilized");
	assert_true(d.value > 0.862 && d.value < 0.863); /* 440e6 / 510e6 */
	d = stat_derive(&r, 1);
	assert_string_equal(d.unit, "/sec");
	assert_true(d.value > 78431 && d.value < 78432); /* 40000 / 0.51 */
	/* instructions per cycle needs cycles: not derived from an unsupported one */
	d = stat_derive(&r, 4);
	assert_false(d.valid);
	assert_int_equal(stat_find(&r, "cycles"), 3);
	assert_int_equal(stat_find(&r, "nope"), -1);
	stat_release(&r);
}

static void multiplexed_scaling_fraction(void **state)
{
	struct stat_result r;
	struct stat_reading rd = { true, true, 1000, 200, 50, NULL, NULL };
	const char *n1[] = { "context-switches" };

	stat_init(&r, 1, n1, NULL, NULL, 0, NULL);
	stat_add_run(&r, &rd, 1e9);
	stat_finish(&r);
	assert_true(r.c[0].running_fraction == 0.25);
	stat_release(&r);
}

static char *render(void (*fn)(FILE *, const struct stat_result *, const struct stat_report_ctx *),
		    const struct stat_result *r)
{
	struct stat_report_ctx ctx = { .command = "locus bench pingpong --loops 20000",
				       .scope = "workload", .scope_text = "workload tree" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, r, &ctx);
	fclose(f);
	return buf;
}

static void json_doc(FILE *f, const struct stat_result *r, const struct stat_report_ctx *ctx)
{
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	stat_report_json_members(&j, r, ctx);
	json_object_end(&j);
	json_end(&j);
}

static void golden_text(void **state)
{
	struct stat_result r;
	char *text;

	build(&r);
	text = render(stat_report_text, &r);
	assert_int_equal(golden_compare("tests/golden/stat_two_runs.txt", text), 0);
	free(text);
	stat_release(&r);
}

static void golden_json(void **state)
{
	struct stat_result r;
	char *text;

	build(&r);
	text = render(json_doc, &r);
	assert_int_equal(golden_compare("tests/golden/stat_two_runs.json", text), 0);
	free(text);
	stat_release(&r);
}

/*
 * run -p 1234 -- CMD: task-clock from the workload's rusage, context-switches and
 * cpu-migrations from the trace, which also follows pid 1234: two blocks, the trace's
 * split beneath its own count; a real counter would get its own total and the why.
 */
static void scopes_text(void **state)
{
	static const char *const n[] = { "task-clock", "context-switches", "cpu-migrations" };
	struct stat_reading rd[3] = {
		{ true, true, 450e6, 1, 1, NULL, "rusage" },
		{ true, true, 60000, 1, 1, NULL, "sched trace" },
		{ true, true, 7, 1, 1, NULL, "sched trace" },
	};
	struct stat_report_ctx ctx = { .command = "tbench 2", .scope = "workload",
				       .scope_text = "workload tree",
				       .trace = { "workload tree + pid 1234", 40000, 20000, 7 } };
	struct stat_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	stat_init(&r, 3, n, NULL, NULL, 0, NULL);
	stat_add_run(&r, rd, 500e6);
	stat_add_split(&r, 40000, 20000, SPLIT_TRACE);
	stat_finish(&r);
	f = open_memstream(&buf, &len);
	stat_report_text(f, &r, &ctx);
	fclose(f);
	assert_int_equal(golden_compare("tests/golden/stat_scopes.txt", buf), 0);
	free(buf);
	/* the same counts with a real context-switches counter (-e): its own total, the why */
	stat_release(&r);
	rd[1].source = NULL;
	rd[1].value = 59990;
	rd[2].source = NULL;
	rd[2].value = 5;
	stat_init(&r, 3, n, NULL, NULL, 0, NULL);
	stat_add_run(&r, rd, 500e6);
	stat_add_split(&r, 40000, 20000, SPLIT_TRACE);
	stat_finish(&r);
	buf = NULL;
	f = open_memstream(&buf, &len);
	stat_report_text(f, &r, &ctx);
	fclose(f);
	assert_int_equal(golden_compare("tests/golden/stat_scopes_counter.txt", buf), 0);
	free(buf);
	stat_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aggregates),
		cmocka_unit_test(multiplexed_scaling_fraction),
		cmocka_unit_test(golden_text),
		cmocka_unit_test(golden_json),
		cmocka_unit_test(scopes_text),
	};

	return cmocka_run_group_tests_name("stat", tests, NULL, NULL);
}
