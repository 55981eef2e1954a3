/* test_sweep.c - metric presets and regexes, the JSON reader, sweep files, locus diff goldens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzers/metric.h"
#include "../../analyzers/sweep.h"
#include "../../collectors/sweep_file.h"
#include "../../common/jsonread.h"
#include "../../report/sweep_report.h"
#include "golden.h"

static double find(const char *spec, const char *dir, const char *text)
{
	struct metric m;
	char err[256];
	double v = -1;

	assert_int_equal(metric_init(&m, spec, dir, err, sizeof(err)), 0);
	if (metric_find(&m, text, &v) < 0)
		v = -1;
	metric_release(&m);
	return v;
}

static void presets(void **state)
{
	struct metric m;
	char err[256];

	assert_true(find("tbench", NULL, "...\nThroughput 645.668 MB/sec  2 clients  2 procs  "
				       "max_latency=4.138 ms\n") == 645.668);
	assert_true(find("hackbench", NULL, "Running in process mode with 4 groups\nTime: 3.781\n")
		    == 3.781);
	assert_true(find("pgbench", NULL, "latency average = 1.2 ms\ntps = 1234.5 (without initial "
					"connection time)\n") == 1234.5);
	assert_true(find("sysbench", NULL, "    events per second:  8123.45\n") == 8123.45);
	/* sysbench cpu prints both lines: the rate wins; threads prints only the total */
	assert_true(find("sysbench", NULL, "    events per second:  8123.45\n\nGeneral statistics:\n"
					 "    total number of events:              81234\n") == 8123.45);
	assert_true(find("sysbench", NULL, "General statistics:\n    total time:    10.0002s\n"
					 "    total number of events:              4321\n") == 4321);
	assert_true(find("netperf", NULL, "Local /Remote\nSocket Size   Request  Resp.   Elapsed  "
					"Trans.\n16384  131072 1        1       10.00    34567.89   \n")
		    == 34567.89);
	assert_true(find("schbench", NULL, "Wakeup Latencies percentiles (usec)\n\t50.0th: 12\n"
					 "\t99.0th: 28\n\t99.9th: 40\n") == 28);
	assert_true(find("pingpong", NULL, "pingpong: 1 pair, 200000 round trips each, 4.6 s, "
					 "43341 round trips/s\n") == 43341);
	/* the last match wins (progress lines before the result) */
	assert_true(find("hackbench", NULL, "Time: 1.0\nTime: 2.5\n") == 2.5);
	assert_true(find("hackbench", NULL, "no result here\n") == -1);
	/* directions */
	assert_int_equal(metric_init(&m, "hackbench", NULL, err, sizeof(err)), 0);
	assert_false(m.higher_better);
	metric_release(&m);
	assert_int_equal(metric_init(&m, "tbench", "lower", err, sizeof(err)), 0);
	assert_false(m.higher_better);
	metric_release(&m);
	assert_int_equal(metric_init(&m, "x=([0-9]+)", NULL, err, sizeof(err)), 0);
	assert_true(m.higher_better);
	metric_release(&m);
	assert_true(find("ops ([0-9.]+)/s", "higher", "ops 12.5/s\n") == 12.5);
}

static void bad_metrics(void **state)
{
	struct metric m;
	char err[256];

	assert_int_equal(metric_init(&m, "([0-9]+", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad metric regex '([0-9]+'"));
	/* a bare word is a misspelled preset: the list of presets, not a regex complaint */
	assert_int_equal(metric_init(&m, "tbnech", NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown metric preset 'tbnech' (presets: tbench, hackbench, "
				 "pgbench, sysbench, netperf, schbench, pingpong; or a regex with one "
				 "capture group)");
	assert_int_equal(metric_init(&m, "no groups", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "needs exactly one capture group (it has 0)"));
	assert_int_equal(metric_init(&m, "(a)(b)", NULL, err, sizeof(err)), -1);
	assert_int_equal(metric_init(&m, "tbench", "sideways", err, sizeof(err)), -1);
	assert_string_equal(err, "bad direction 'sideways' (higher or lower)");
}

static void json_reader(void **state)
{
	const char *ok = " {\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\","
			 " \"o\": {}} ";
	char err[200];
	struct jv *v = jv_parse(ok, strlen(ok), err, sizeof(err));
	const struct jv *a;

	assert_non_null(v);
	a = jv_get(v, "a");
	assert_int_equal(a->type, JV_ARRAY);
	assert_int_equal(a->n, 5);
	assert_true(a->items[1].num == -2500);
	assert_true(a->items[2].b);
	assert_int_equal(a->items[4].type, JV_NULL);
	assert_string_equal(jv_str(v, "s", ""), "x\n\xc3\xa9\xf0\x9f\x98\x80");
	assert_int_equal(jv_get(v, "o")->n, 0);
	assert_null(jv_get(v, "missing"));
	assert_true(jv_num(v, "s", 7) == 7); /* wrong type: the default */
	jv_free(v);

	static const char *const bad[][2] = {
		{ "", "line 1: unexpected end of input" },
		{ "{\"a\" 1}", "line 1: expected ':'" },
		{ "[1, 2", "line 1: expected ',' or ']'" },
		{ "\"abc", "line 1: unterminated string" },
		{ "\"\\q\"", "line 1: bad escape in a string" },
		{ "\"\\u12g4\"", "line 1: bad \\u escape" },
		{ "{\n\"a\": nul}", "line 2: expected a value" },
		{ "1 2", "line 1: text after the JSON value" },
		{ "1e999", "line 1: bad number" },
		{ "{1: 2}", "line 1: expected a member name" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_null(jv_parse(bad[i][0], strlen(bad[i][0]), err, sizeof(err)));
		assert_string_equal(err, bad[i][1]);
	}
	char deep[200];

	memset(deep, '[', sizeof(deep));
	assert_null(jv_parse(deep, sizeof(deep), err, sizeof(err)));
	assert_string_equal(err, "line 1: nested too deep");
}

static char *file_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(*len + 1);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* A set written as JSON reads back the same. */
static void round_trip(void **state)
{
	struct sweep_set a, b;
	char err[400], *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(sweep_load("tests/fixtures/sweep/base.json", &a, err, sizeof(err)), 0);
	assert_int_equal(a.nvalues, 3);
	assert_int_equal(a.nruns, 9);
	assert_string_equal(a.sweep_name, "n");
	assert_false(a.metric_higher);
	f = open_memstream(&text, &len);
	sweep_report_json(f, &a);
	fclose(f);
	assert_int_equal(sweep_parse(text, len, &b, err, sizeof(err)), 0);
	assert_int_equal(b.nruns, a.nruns);
	for (int i = 0; i < a.nruns; i++) {
		assert_string_equal(a.runs[i].value, b.runs[i].value);
		for (int m = 0; m < M_NR; m++) {
			assert_int_equal(a.runs[i].have[m], b.runs[i].have[m]);
			assert_true(a.runs[i].m[m] == b.runs[i].m[m]);
		}
	}
	assert_string_equal(a.kernel, b.kernel);
	assert_string_equal(a.command, b.command);
	free(text);
	sweep_set_release(&a);
	sweep_set_release(&b);
	/* files that are not run files */
	assert_int_equal(sweep_parse("{}", 2, &a, err, sizeof(err)), -1);
	assert_string_equal(err, "not a benchmark-loop file (format 'none', not locus-sweep-1): locus "
				 "diff compares what locus run --json writes with -r, --sweep or --metric, and "
				 "what locus stat --json writes");
	assert_int_equal(sweep_load("/nonexistent.json", &a, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot read /nonexistent.json: No such file or directory");
}

/* 20,000 mutations of a real file: each parses or is rejected with a reason. */
static void mutations(void **state)
{
	size_t len;
	char *orig = file_text("tests/fixtures/sweep/base.json", &len), *buf = malloc(len + 16);
	uint64_t x = 88172645463325252ull;
	int accepted = 0;

	for (int i = 0; i < 20000; i++) {
		struct sweep_set s;
		char err[400] = "";
		size_t n = len;

		memcpy(buf, orig, len);
		for (int k = 0; k < 1 + i % 4; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			switch (x % 4) {
			case 0: buf[(x >> 8) % n] = (char)(x >> 32); break;
			case 1: n = (x >> 8) % n + 1; break;
			case 2: buf[(x >> 8) % n] = "{}[],:\"\\0-e"[(x >> 40) % 11]; break;
			default: buf[(x >> 8) % n] ^= (char)(1 << ((x >> 40) % 8));
			}
		}
		if (sweep_parse(buf, n, &s, err, sizeof(err)) == 0) {
			struct diff_input in = { "m", &s };

			accepted++;
			diff_significant(&in, &in);
			sweep_set_release(&s);
		} else {
			assert_true(err[0] != '\0');
		}
	}
	assert_true(accepted > 0);
	free(buf);
	free(orig);
}

static void significance(void **state)
{
	struct measure_sum a = { 3, 1.0, 0.02, 0.0497, 0 }, b = { 3, 1.02, 0.02, 0.0497, 0 };
	struct measure_sum c = { 3, 2.0, 0.02, 0.0497, 0 }, one = { 1, 2.0, 0, 0, 0 };
	struct diff_row r;

	sweep_compare(&a, &b, 1, &r);
	assert_false(r.significant);
	assert_true(r.ratio > 1.0199 && r.ratio < 1.0201);
	assert_int_equal(r.verdict, 0);
	sweep_compare(&a, &c, 1, &r);
	assert_true(r.significant);
	assert_int_equal(r.verdict, 1); /* higher is better: better */
	sweep_compare(&a, &c, -1, &r);
	assert_int_equal(r.verdict, -1);
	sweep_compare(&a, &c, 0, &r);
	assert_true(r.significant);
	assert_int_equal(r.verdict, 0);
	sweep_compare(&a, &one, 1, &r); /* one run: no interval, never significant */
	assert_false(r.significant);
	/* sampled: beyond the runs' spread but within what the samples alone allow */
	a.sample95 = 0.6;
	c.sample95 = 0.5;
	sweep_compare(&a, &c, 1, &r);
	assert_false(r.significant);
	c.sample95 = 0.3;
	sweep_compare(&a, &c, 1, &r);
	assert_true(r.significant);
}

/* A sampled share's interval: from each run's Wilson interval, the mean's half-width. */
static void sample_interval(void **state)
{
	struct sweep_run runs[2] = { 0 };
	struct measure_sum s;

	for (int i = 0; i < 2; i++) {
		runs[i].ok = runs[i].have[M_IDLE_PCT] = runs[i].have_ci[M_IDLE_PCT] = true;
		runs[i].m[M_IDLE_PCT] = 2.0;
		runs[i].lo[M_IDLE_PCT] = 1.7;
		runs[i].hi[M_IDLE_PCT] = 2.5;
	}
	sweep_summarize(runs, 2, "", M_IDLE_PCT, &s);
	assert_int_equal(s.n, 2);
	/* half-widths 0.4 each: sqrt(0.16 + 0.16) / 2 */
	assert_true(s.sample95 > 0.28284 && s.sample95 < 0.28285);
	runs[1].have_ci[M_IDLE_PCT] = runs[0].have_ci[M_IDLE_PCT] = false;
	sweep_summarize(runs, 2, "", M_IDLE_PCT, &s);
	assert_true(s.sample95 == 0);
}

static char *diff_text(const char *base, const char *cur, bool json)
{
	struct sweep_set a, b;
	char err[400], *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(sweep_load(base, &a, err, sizeof(err)), 0);
	assert_int_equal(sweep_load(cur, &b, err, sizeof(err)), 0);
	{
		struct diff_input x = { base, &a }, y = { cur, &b };

		f = open_memstream(&text, &len);
		if (json)
			diff_report_json(f, &x, &y);
		else
			diff_report_text(f, &x, &y);
		fclose(f);
	}
	sweep_set_release(&a);
	sweep_set_release(&b);
	return text;
}

static void diff_goldens(void **state)
{
	char *same = diff_text("tests/fixtures/sweep/base.json", "tests/fixtures/sweep/same.json",
			       false);
	char *twice = diff_text("tests/fixtures/sweep/base.json",
				"tests/fixtures/sweep/slower2x.json", false);
	char *twice_json = diff_text("tests/fixtures/sweep/base.json",
				     "tests/fixtures/sweep/slower2x.json", true);
	struct sweep_set s;
	char err[200];

	assert_int_equal(golden_compare("tests/golden/diff_same.txt", same), 0);
	assert_int_equal(golden_compare("tests/golden/diff_slower2x.txt", twice), 0);
	assert_int_equal(golden_compare("tests/golden/diff_slower2x.json", twice_json), 0);
	assert_null(strstr(same, "  * ")); /* 1% noise: nothing marked */
	assert_null(strstr(same, "What changed")); /* nothing significant: no account */
	{ /* the seed's story: at 64 procs throughput fell while wakeups stacked on busy CPUs */
		char *t = diff_text("tests/fixtures/sweep/tbench_base.json",
				    "tests/fixtures/sweep/tbench_stacked.json", false);
		char *j = diff_text("tests/fixtures/sweep/tbench_base.json",
				    "tests/fixtures/sweep/tbench_stacked.json", true);
		const char *at = strstr(t, "What changed");

		assert_int_equal(golden_compare("tests/golden/diff_tbench_stacked.txt", t), 0);
		assert_int_equal(golden_compare("tests/golden/diff_tbench_stacked.json", j), 0);
		assert_non_null(at);
		assert_null(strstr(at, "procs=8")); /* unchanged at 8 procs: not in the account */
		assert_non_null(strstr(at, "procs=64: tbench throughput -30.4% (worse)"));
		/* ranked by how much they moved: idle passed over first, p99 after the shares */
		assert_true(strstr(at, "wakeups that passed over an idle CPU 2.0% -> 40.9%") <
			    strstr(at, "same-CPU wakeups 79.8% -> 21.9%"));
		assert_true(strstr(at, "same-CPU wakeups") <
			    strstr(at, "p99 wake-to-run 54.81 us -> 175.99 us (x3.211)"));
		free(t);
		free(j);
	}
	assert_non_null(strstr(twice, "+100.0%  * worse")); /* the metric doubled: lower is better */
	/* the text report of a loop */
	assert_int_equal(sweep_load("tests/fixtures/sweep/base.json", &s, err, sizeof(err)), 0);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		sweep_report_text(f, &s);
		fclose(f);
		assert_int_equal(golden_compare("tests/golden/sweep_base.txt", text), 0);
		free(text);
	}
	sweep_set_release(&s);
	free(same);
	free(twice);
	free(twice_json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(presets), cmocka_unit_test(bad_metrics),
		cmocka_unit_test(json_reader), cmocka_unit_test(round_trip),
		cmocka_unit_test(mutations), cmocka_unit_test(significance),
		cmocka_unit_test(sample_interval),
		cmocka_unit_test(diff_goldens),
	};

	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
