/*
 * test_flame.c - folded stacks read strictly (each bad line refused with its line number
 * and why), and the flame graph drawn from them: widths equal value/total, frames merged
 * by path, hostile names escaped, 10,000-frame stacks cut where stated, differential
 * colours by the change of share (not of counts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/folded.h"
#include "../../report/flame.h"

static int parse(const char *text, struct folded_set *f, char *err, size_t len)
{
	return folded_parse("f.folded", strdup(text), strlen(text), f, err, len);
}

static void reads_good(void **state)
{
	struct folded_set f;
	char err[300] = "";

	(void)state;
	assert_int_equal(parse("main;a;b 3\nmain;a 2\nx y;[unknown] 18446744073709551610", &f,
			       err, sizeof(err)), 0);
	assert_int_equal(f.n, 3);
	assert_string_equal(f.s[0].frames, "main;a;b");
	assert_int_equal(f.s[1].value, 2);
	assert_string_equal(f.s[2].frames, "x y;[unknown]"); /* frames may hold spaces */
	assert_true(f.total == 18446744073709551615ull);
	folded_release(&f);
}

static void refuses_bad(void **state)
{
	static const struct { const char *in, *err; } bad[] = {
		{ "a 1\n\nb 2\n", "f.folded:2: an empty line" },
		{ "a 1\nb\n", "f.folded:2: no space before a count" },
		{ "a 1\nb x\n", "f.folded:2: the count is not a whole decimal number" },
		{ "a -1\n", "f.folded:1: the count is not a whole decimal number" },
		{ "a 1 2\n", "f.folded:1: two counts" },
		{ "a 1\na;;b 2\n", "f.folded:2: an empty frame" },
		{ ";a 2\n", "f.folded:1: an empty frame" },
		{ " 2\n", "f.folded:1: no stack before the count" },
		{ "a 2\r\n", "f.folded:1: a carriage return" },
		{ "a 18446744073709551616\n", "f.folded:1: the count does not fit 64 bits" },
		{ "a 18446744073709551615\nb 1\n", "f.folded:2: the counts' sum does not fit" },
		{ "a\tb 1\n", "f.folded:1: a tab" },
		{ "a 1\nb ", "f.folded:2: no count after the stack" },
		{ "", "f.folded: no stacks" },
	};
	struct folded_set f;
	char err[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (parse(bad[i].in, &f, err, sizeof(err)) != -1)
			fail_msg("input %zu accepted", i);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("input %zu: got '%s', want '%s...'", i, err, bad[i].err);
		assert_null(strchr(err, '\n')); /* one line */
	}
	/* a NUL byte, on its line */
	{
		char *t = malloc(8);

		memcpy(t, "a 1\nb\0 1", 8);
		assert_int_equal(folded_parse("n", t, 8, &f, err, sizeof(err)), -1);
		assert_string_equal(err, "n:2: a NUL byte (not a text file)");
	}
}

/* Folded stacks told from a loop's JSON by their first bytes: "[unknown];main" is a stack. */
static void sniffs(void **state)
{
	(void)state;
	assert_true(folded_sniff("main;a 3\n", 9));
	assert_true(folded_sniff("[unknown];main 3\n", 17));
	assert_true(folded_sniff("[kernel.kallsyms] 3\n", 20));
	assert_false(folded_sniff("{\"runs\": []}", 13));
	assert_false(folded_sniff(" \n[\n {\"a\": 1}]", 16));
	assert_false(folded_sniff("[]", 2));
	assert_false(folded_sniff("", 0));
}

static char *draw(const struct flame_stack *s, size_t n, const struct flame_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(flame_svg_write(f, s, n, o), 0);
	fclose(f);
	return buf;
}

/* The rect width of the frame whose <g> carries attrs (data-x/v/d), or -1. */
static double width_of(const char *svg, const char *attrs)
{
	const char *g = strstr(svg, attrs), *w;

	if (!g || !(w = strstr(g, "width=\"")))
		return -1;
	return strtod(w + 7, NULL);
}

/* The unwinder's unknown frames: dropped at the root, a run of them one elsewhere. */
static void unknown_folded(void **state)
{
	static const char *const cases[][2] = {
		{ "[unknown];__write;vfs_write_[k]", "__write;vfs_write_[k]" },
		{ "[unknown];[unknown];main;read", "main;read" },
		{ "main;[unknown];[unknown];[unknown];read", "main;[unknown];read" },
		{ "main;read;[unknown];[unknown]", "main;read;[unknown]" },
		{ "[unknown];[unknown]", "[unknown]" },
		{ "[unknown]", "[unknown]" },
		{ "main;read", "main;read" },
		{ "[unknownx];main", "[unknownx];main" },
		/* off-wake: the waker leaf first, its root last */
		{ "[unknown];a;b;--;w1;w2;[unknown];[unknown]", "a;b;--;w1;w2" },
		{ "a;--;[unknown];[unknown];w;[unknown]", "a;--;[unknown];w" },
		{ "[unknown];--;[unknown]", "[unknown];--;[unknown]" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[128];

		snprintf(buf, sizeof(buf), "%s", cases[i][0]);
		assert_int_equal(folded_fold_unknown(buf), strlen(cases[i][1]));
		assert_string_equal(buf, cases[i][1]);
	}
}

static void widths_by_value(void **state)
{
	const struct flame_stack s[] = {
		{ "main;a;b", 3, 0 }, { "main;c", 4, 0 }, { "main;a", 1, 0 }, { "main;a;b", 2, 0 },
	};
	struct flame_opts o = { .title = "t", .unit = "wakeups", .width_px = 1020 };
	char *svg;

	(void)state;
	svg = draw(s, 4, &o);
	/* 1000 px for 10: main 1000, a = 6 from x 0 (sorted: its own 1 first), b = 5 from x 1,
	 * c = 4 from x 6 */
	assert_true(width_of(svg, "data-x=\"0\" data-v=\"10\" data-d=\"1\"") == 1000.0);
	assert_true(width_of(svg, "data-x=\"0\" data-v=\"6\" data-d=\"2\"") == 600.0);
	assert_true(width_of(svg, "data-x=\"1\" data-v=\"5\" data-d=\"3\"") == 500.0);
	assert_true(width_of(svg, "data-x=\"6\" data-v=\"4\" data-d=\"2\"") == 400.0);
	assert_non_null(strstr(svg, "10 wakeups in 4 stacks"));
	assert_non_null(strstr(svg, "<script"));
	free(svg);
}

static void hostile_names(void **state)
{
	char *deep = malloc(10000 * 4 + 1), *p = deep, *longname = malloc(5001), *svg;
	struct flame_stack s[3] = {
		{ "<script>alert(1)</script>;a&b;\"q\" 'x';]]>", 5, 0 },
		{ NULL, 5, 0 }, { NULL, 1, 0 },
	};
	struct flame_opts o = { .unit = "ns" };

	(void)state;
	for (int i = 0; i < 10000; i++)
		p += sprintf(p, "%s%03d", i ? ";" : "", i % 1000);
	memset(longname, 'L', 5000);
	longname[5000] = '\0';
	s[1].frames = deep;
	s[2].frames = longname;
	svg = draw(s, 3, &o);
	assert_null(strstr(svg, "<script>alert"));
	assert_null(strstr(svg, "a&b"));
	assert_non_null(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(svg, "&quot;q&quot;"));
	assert_int_equal(strstr(svg, "]]>") - svg, strrchr(strstr(svg, "<![CDATA["), ']') - 1 - svg);
	assert_non_null(strstr(svg, "1 stack deeper than 1024 frames cut there"));
	assert_non_null(strstr(svg, "data-d=\"1024\""));
	assert_null(strstr(svg, "data-d=\"1025\""));
	free(svg);
	free(deep);
	free(longname);
}

/* Valid UTF-8 kept (a name is not mangled), invalid bytes and cut sequences as '?'. */
static void utf8_names(void **state)
{
	char longname[400] = "";
	const struct flame_stack s[] = {
		{ "caf\xc3\xa9;bad\xff\xc3x;over\xc0\xaf", 3, 0 }, { longname, 1, 0 },
	};
	struct flame_opts o = { .width_px = 400 };
	char *svg, *p;

	(void)state;
	for (int i = 0; i < 100; i++)
		strcat(longname, "\xc3\xa9"); /* 100 'é': cut between characters, never inside */
	svg = draw(s, 2, &o);
	assert_non_null(strstr(svg, "<title>caf\xc3\xa9\n"));
	assert_non_null(strstr(svg, "<title>bad??x\n"));
	assert_non_null(strstr(svg, "<title>over??\n"));
	p = strstr(svg, "\xc3\xa9..</text>");
	assert_non_null(p); /* the label of the 100 'é' cut after a whole character */
	free(svg);
}

static void kinds_and_diff(void **state)
{
	/* the base: a 1 of 2 (50%), the new: a 1 of 4 (25%): fewer by share though equal by count */
	const struct flame_stack s[] = {
		{ "a", 1, 1 }, { "b_[k]", 3, 1 }, { "[unknown]", 0, 5 },
	};
	struct flame_opts o = { .unit = "wakeups", .differential = 1 };
	char *svg;

	(void)state;
	svg = draw(s, 3, &o);
	/* a: 25% now, 1/7 before: grew; b: 75% now, 1/7 before: grew most, full red */
	assert_non_null(strstr(svg, "change +10.71 points"));
	assert_non_null(strstr(svg, "b [kernel]\n3 wakeups, 75.00%; base 1, 14.29%; change +60.71"));
	assert_non_null(strstr(svg, "fill=\"rgb(255,45,45)\""));
	assert_non_null(strstr(svg, "stacks only in the base: 71.4% of it, not drawn (swap the files to see them)"));
	free(svg);
	o.differential = 0;
	svg = draw(s, 3, &o);
	assert_non_null(strstr(svg, "data-k=\"k\""));
	assert_non_null(strstr(svg, "data-k=\"u\""));
	free(svg);
}

/* Two runs a few counts apart (a +0.05-point change): pale, not the full colour that the
 * largest change would give when it is this small (the scale is full at 1 point at least). */
static void tiny_changes_pale(void **state)
{
	const struct flame_stack s[] = { { "a", 1001, 1000 }, { "b", 999, 1000 } };
	struct flame_opts o = { .unit = "wakeups", .differential = 1 };
	char *svg;

	(void)state;
	svg = draw(s, 2, &o);
	assert_non_null(strstr(svg, "change +0.05 points"));
	assert_non_null(strstr(svg, "full at 1.00 points"));
	assert_null(strstr(svg, "fill=\"rgb(255,45,45)\" rx"));	/* no frame in full red */
	assert_null(strstr(svg, "fill=\"rgb(45,45,255)\" rx"));	/* nor full blue */
	assert_non_null(strstr(svg, "fill=\"rgb(255,235,235)\" rx")); /* a: 0.05 of the scale */
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_good),
		cmocka_unit_test(refuses_bad),
		cmocka_unit_test(sniffs),
		cmocka_unit_test(unknown_folded),
		cmocka_unit_test(widths_by_value),
		cmocka_unit_test(hostile_names),
		cmocka_unit_test(utf8_names),
		cmocka_unit_test(kinds_and_diff),
		cmocka_unit_test(tiny_changes_pale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
