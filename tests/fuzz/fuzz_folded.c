/*
 * fuzz_folded.c - libFuzzer entry for the folded-stacks reader behind `locus diff` on
 * folded files: what it accepts is drawn as a flame graph, compared with itself and with
 * its first half (text, JSON, differential flame graph); a rejection must say why, on
 * one line (make fuzz; a short pass in make check).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzers/stack_diff.h"
#include "../../common/folded.h"
#include "../../report/flame.h"
#include "../../report/stack_diff_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(FILE *out, const struct folded_set *a, const struct folded_set *b)
{
	struct flame_stack *s = malloc((b->n ? b->n : 1) * sizeof(*s));
	struct flame_opts o = { .title = "fuzz", .unit = "counts" };
	struct stack_diff d;

	if (!s)
		abort();
	for (size_t i = 0; i < b->n; i++)
		s[i] = (struct flame_stack){ b->s[i].frames, b->s[i].value, 0 };
	if (flame_svg_write(out, s, b->n, &o) < 0)
		abort();
	free(s);
	if (stack_diff_build(&d, a, b) < 0)
		abort();
	stack_diff_text(out, &d, "a", "b", 20, NULL);
	stack_diff_json(out, &d, "a", "b", 20, "wakers");
	if (stack_diff_flame(out, &d, &o) < 0)
		abort();
	stack_diff_release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_set f, half;
	char err[600] = "";
	char *text = malloc(size ? size : 1), *copy;
	FILE *out;

	if (!text)
		abort();
	memcpy(text, data, size);
	if (folded_parse("fuzz", text, size, &f, err, sizeof(err)) < 0) {
		if (!err[0] || strchr(err, '\n'))
			abort(); /* rejected without saying why, or not on one line */
		return 0;
	}
	out = fopen("/dev/null", "w");
	if (!out)
		abort();
	render(out, &f, &f);
	/* the stacks of the first half of the lines as a base */
	copy = malloc(size ? size : 1);
	if (!copy)
		abort();
	{
		size_t cut = f.n > 1 ? (size_t)(f.s[f.n / 2].frames - f.text) : size;

		memcpy(copy, data, cut);
		if (folded_parse("half", copy, cut, &half, err, sizeof(err)) == 0) {
			render(out, &half, &f);
			folded_release(&half);
		}
	}
	fclose(out);
	folded_release(&f);
	return 0;
}
