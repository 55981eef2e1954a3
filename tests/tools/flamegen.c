/*
 * flamegen.c - a test tool: one folded-stacks file drawn as a flame graph by locus's
 * renderer (report/flame.c), so the tests can check a plain flame graph in a browser and
 * against the file's own counts. Usage: build/flamegen IN.folded OUT.svg [WIDTH]
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../common/folded.h"
#include "../../report/flame.h"

int main(int argc, char **argv)
{
	struct folded_set f;
	struct flame_stack *s;
	struct svg_caption cap = { .command = "build/flamegen (a test tool)",
				   .kernel = "not in folded files", .host = "not in folded files" };
	struct flame_opts o = { .title = "Flame graph", .unit = "counts", .caption = &cap };
	char err[600];
	FILE *out;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: flamegen IN.folded OUT.svg [WIDTH]\n");
		return 2;
	}
	if (folded_load(argv[1], &f, err, sizeof(err)) < 0) {
		fprintf(stderr, "locus: %s\n", err);
		return 1;
	}
	o.source = argv[1];
	o.width_px = argc > 3 ? atoi(argv[3]) : 0;
	s = calloc(f.n, sizeof(*s));
	out = fopen(argv[2], "w");
	if (!s || !out)
		return 1;
	for (size_t i = 0; i < f.n; i++)
		s[i] = (struct flame_stack){ f.s[i].frames, f.s[i].value, 0 };
	rc = flame_svg_write(out, s, f.n, &o) < 0 || fclose(out) != 0;
	free(s);
	folded_release(&f);
	return rc;
}
