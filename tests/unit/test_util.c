/* test_util.c - parsing and formatting helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../common/jsonread.h"
#include "../../common/util.h"

static void cpu_list_ranges(void **state)
{
	int *cpus;
	char err[128];
	int n = parse_cpu_list("8,0-2,2,5", 16, &cpus, err, sizeof(err));

	assert_int_equal(n, 5);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	assert_int_equal(cpus[2], 2);
	assert_int_equal(cpus[3], 5);
	assert_int_equal(cpus[4], 8);
	free(cpus);
}

static void cpu_list_errors(void **state)
{
	static const char *const bad[] = { "", "a", "1-", "-1", "3-1", "1,,2", "1,", "0-16",
					   "1 2", "0x1" };
	int *cpus;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_cpu_list(bad[i], 16, &cpus, err, sizeof(err)), -1);
		assert_null(cpus);
		assert_true(err[0] != '\0');
	}
	parse_cpu_list("0-16", 16, &cpus, err, sizeof(err));
	assert_string_equal(err, "CPU 16 does not exist (this machine has CPUs 0-15)");
}

static void long_parsing(void **state)
{
	long v;

	assert_int_equal(parse_long("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_long("101", 0, 100, &v), -1);
	assert_int_equal(parse_long("4x", 0, 100, &v), -1);
	assert_int_equal(parse_long("", 0, 100, &v), -1);
	assert_int_equal(parse_long("-1", 0, 100, &v), -1);
	assert_int_equal(parse_long("99999999999999999999999", 0, 100, &v), -1);
}

/* A number in range, the whole text (top -d, --from/--to); NaN and garbage refused. */
static void double_parsing(void **state)
{
	double d = 0;

	assert_int_equal(parse_double("0.5", 0.1, 3600, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(parse_double("1e3", 0, 1e9, &d), 0);
	assert_true(d == 1000);
	assert_int_equal(parse_double("0.05", 0.1, 3600, &d), -1);
	assert_int_equal(parse_double("2s", 0, 10, &d), -1);
	assert_int_equal(parse_double("", 0, 10, &d), -1);
	assert_int_equal(parse_double("nan", 0, 10, &d), -1);
	assert_int_equal(parse_double("-1", 0, 10, &d), -1);
	assert_true(d == 1000); /* untouched on error */
}

/* A name's index in a table indexed by an enum; holes never match. */
static void name_lookup(void **state)
{
	static const char *const names[] = { "auto", NULL, "perf" };

	assert_int_equal(parse_name("auto", names, 3), 0);
	assert_int_equal(parse_name("perf", names, 3), 2);
	assert_int_equal(parse_name("bpf", names, 3), -1);
	assert_int_equal(parse_name("", names, 3), -1);
	assert_int_equal(parse_name("perf", names, 2), -1);
}

/* Numbers from files become integers only when whole and in range (no undefined casts). */
static void number_conversion(void **state)
{
	const char *doc = "{\"a\": 7, \"big\": 1e300, \"half\": 1.5, \"neg\": -3, \"s\": \"7\", "
			  "\"n\": null}";
	struct jv *root = jv_parse(doc, strlen(doc), NULL, 0);
	long v = 0;

	assert_int_equal(num_to_long(42.0, 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(num_to_long(1e300, 0, 1L << 30, &v), -1);
	assert_int_equal(num_to_long(-1e300, -5, 5, &v), -1);
	assert_int_equal(num_to_long(NAN, 0, 10, &v), -1);
	assert_int_equal(num_to_long(INFINITY, 0, 10, &v), -1);
	assert_int_equal(num_to_long(2.5, 0, 10, &v), -1);
	assert_int_equal(num_to_long(101, 0, 100, &v), -1);
	assert_int_equal(num_to_long(-1, -1, 0, &v), 0);
	assert_int_equal(v, -1);
	assert_non_null(root);
	assert_int_equal(jv_long(root, "a", 0, 10, 0, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(jv_long(root, "big", 0, 1000000, 0, &v), -1);
	assert_int_equal(jv_long(root, "half", 0, 10, 0, &v), -1);
	assert_int_equal(jv_long(root, "neg", 0, 10, 0, &v), -1);
	assert_int_equal(jv_long(root, "s", 0, 10, 0, &v), -1);
	assert_int_equal(jv_long(root, "n", 0, 10, 4, &v), 0); /* null: the default */
	assert_int_equal(v, 4);
	assert_int_equal(jv_long(root, "absent", 0, 10, 5, &v), 0);
	assert_int_equal(v, 5);
	jv_free(root);
}

/* Ratios keep three significant digits at every scale: never "0.00" for a ratio not 0. */
static void ratio_format(void **state)
{
	char b[24];

	(void)state;
	assert_string_equal(fmt_ratio(0.955, b, sizeof(b)), "0.955");
	assert_string_equal(fmt_ratio(1, b, sizeof(b)), "1.000");
	assert_string_equal(fmt_ratio(225.803, b, sizeof(b)), "225.8");
	assert_string_equal(fmt_ratio(0.0123456, b, sizeof(b)), "0.0123");
	assert_string_equal(fmt_ratio(0.0000123, b, sizeof(b)), "1.23e-05");
	assert_string_equal(fmt_ratio(45600, b, sizeof(b)), "4.56e+04");
	assert_string_equal(fmt_ratio(0, b, sizeof(b)), "0");
}

static void count_format(void **state)
{
	char buf[32];

	assert_string_equal(fmt_count(0, buf, sizeof(buf)), "0");
	assert_string_equal(fmt_count(999, buf, sizeof(buf)), "999");
	assert_string_equal(fmt_count(1000, buf, sizeof(buf)), "1,000");
	assert_string_equal(fmt_count(40012, buf, sizeof(buf)), "40,012");
	assert_string_equal(fmt_count(1234567890ull, buf, sizeof(buf)), "1,234,567,890");
	assert_string_equal(fmt_si(32410.0, buf, sizeof(buf)), "32.410 K");
	assert_string_equal(fmt_si(12.5, buf, sizeof(buf)), "12.500");
	assert_string_equal(fmt_bytes(812, buf, sizeof(buf)), "812 bytes");
	assert_string_equal(fmt_bytes(2516582, buf, sizeof(buf)), "2.4 MiB");
	/* a share of nothing is not a measured 0 */
	assert_string_equal(fmt_share(0, 0, 1, buf, sizeof(buf)), "-");
	assert_string_equal(fmt_share(1, 3, 1, buf, sizeof(buf)), "33.3%");
	assert_string_equal(fmt_share(5, 5, 0, buf, sizeof(buf)), "100%");
}

static void edits(void **state)
{
	assert_int_equal(edit_distance("run", "run"), 0);
	assert_int_equal(edit_distance("rnu", "run"), 1); /* a swap of neighbours */
	assert_int_equal(edit_distance("tp", "top"), 1);
	assert_int_equal(edit_distance("recrod", "record"), 1);
	assert_int_equal(edit_distance("stats", "stat"), 1);
	assert_int_equal(edit_distance("", "diff"), 4);
	assert_int_equal(edit_distance("averyveryverylongname", "run"), 9); /* capped */
}

/* Folded prose: no line over the width but a single long word, every word kept in order. */
static void folding(void **state)
{
	const char *text = "one two three four five six seven eight nine ten "
			   "averyveryveryverylongwordthatdoesnotfit eleven";
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int lines = fprint_folded(f, "   lead: ", text, 3, 24);

	fclose(f);
	assert_string_equal(out, "   lead: one two three\n"
				 "   four five six seven\n"
				 "   eight nine ten\n"
				 "   averyveryveryverylongwordthatdoesnotfit\n"
				 "   eleven\n");
	assert_int_equal(lines, 5);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_list_ranges),
		cmocka_unit_test(cpu_list_errors),
		cmocka_unit_test(long_parsing),
		cmocka_unit_test(double_parsing),
		cmocka_unit_test(name_lookup),
		cmocka_unit_test(ratio_format), cmocka_unit_test(count_format), cmocka_unit_test(number_conversion),
		cmocka_unit_test(edits), cmocka_unit_test(folding),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
