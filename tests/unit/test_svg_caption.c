/* test_svg_caption.c - the caption every SVG draws: its two lines, cut long commands, unknowns said. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/svg_caption.h"

static void lines(void **state)
{
	struct svg_caption c = { .command = "locus run -- hackbench", .kernel = "6.1.0-18 x86_64",
				 .host = "box", .date = "2026-12-02 03:50 UTC" };
	struct topology t;
	struct provenance p = { .source = PROV_BPF };
	int core[4] = { 0, 1, 2, 3 }, node[4] = { 0, 0, 1, 1 };
	char a[600], b[600];

	(void)state;
	topology_from_arrays(&t, 4, core, NULL, node);
	svg_caption_lines(&c, &t, &p, NULL, a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "command: locus run -- hackbench");
	assert_string_equal(b, "kernel 6.1.0-18 x86_64 | machine box (4 CPUs, 2 nodes) | "
			       "2026-12-02 03:50 UTC | source: BPF in the kernel");
	/* the loop's own topology words instead, no source known */
	svg_caption_lines(&c, NULL, NULL, "2 CPUs, 2 cores", a, sizeof(a), b, sizeof(b));
	assert_string_equal(b, "kernel 6.1.0-18 x86_64 | machine box (2 CPUs, 2 cores) | "
			       "2026-12-02 03:50 UTC");
	/* a pinned workload, an interrupted run: both said in the picture */
	snprintf(p.affinity, sizeof(p.affinity), "0");
	snprintf(c.ended, sizeof(c.ended), "interrupted by SIGINT (Ctrl-C)");
	svg_caption_lines(&c, &t, &p, NULL, a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "command: locus run -- hackbench [interrupted by SIGINT (Ctrl-C)]");
	assert_string_equal(b, "kernel 6.1.0-18 x86_64 | machine box (4 CPUs, 2 nodes) | "
			       "2026-12-02 03:50 UTC | source: BPF in the kernel | the workload's "
			       "affinity: 0");
	topology_release(&t);
}

static void unknown_and_cut(void **state)
{
	struct svg_caption c;
	char a[24], b[200];

	(void)state;
	memset(&c, 0, sizeof(c));
	svg_caption_lines(&c, NULL, NULL, NULL, a, sizeof(a), b, sizeof(b));
	assert_string_equal(a, "command: unknown");
	assert_string_equal(b, "kernel unknown | machine unknown");
	snprintf(c.command, sizeof(c.command), "locus run -r 5 --sweep n=1,2,4,8 -- hackbench");
	svg_caption_lines(&c, NULL, NULL, NULL, a, sizeof(a), b, sizeof(b));
	assert_int_equal(strlen(a), sizeof(a) - 1);
	assert_string_equal(a + sizeof(a) - 4, "..."); /* cut, and says so */
	/* how it ended stays whole: the command is cut before it */
	{
		char w[60];

		snprintf(c.ended, sizeof(c.ended), "the file is cut short");
		svg_caption_lines(&c, NULL, NULL, NULL, w, sizeof(w), b, sizeof(b));
		assert_non_null(strstr(w, "... [the file is cut short]"));
		assert_true(strlen(w) < sizeof(w));
	}
}

static void drawn_escaped(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(svg_caption_draw(f, 10, 100, "command: a && b <x>", "kernel k"), 26);
	fclose(f);
	assert_non_null(strstr(buf, "<g class=\"caption\""));
	assert_non_null(strstr(buf, "command: a &amp;&amp; b &lt;x&gt;"));
	assert_non_null(strstr(buf, "y=\"113\">kernel k</text>"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines),
		cmocka_unit_test(unknown_and_cut),
		cmocka_unit_test(drawn_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
