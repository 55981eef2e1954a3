/* heatmap.c - folding and text rendering of CPU x CPU matrices, readable from 2 to 512 CPUs. */
#include "heatmap.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

const char heatmap_ramp[] = " .:-=+*#%@";
#define ramp heatmap_ramp

int heatmap_level(uint64_t v, uint64_t max)
{
	int l;

	if (v == 0 || max == 0)
		return 0;
	l = 1 + (int)(8.999 * log((double)v) / log((double)max > 1 ? (double)max : 2.0));
	return l < 1 ? 1 : l > 9 ? 9 : l;
}

void heatmap_build(struct heatmap *h, const struct topology *t, const uint64_t *matrix,
		   int max_groups)
{
	struct topo_fold fo;
	int *index;

	memset(h, 0, sizeof(*h));
	topology_fold(&fo, t, max_groups);
	index = fo.index;
	h->n = fo.n;
	snprintf(h->unit, sizeof(h->unit), "%s", fo.unit);
	h->cell = xcalloc((size_t)h->n * (size_t)h->n, sizeof(uint64_t));
	h->label = fo.label;
	fo.label = NULL;
	h->first = fo.first;
	fo.first = NULL;
	h->level = fo.level;
	for (int a = 0; a < t->ncpus; a++) {
		if (index[a] < 0)
			continue;
		for (int b = 0; b < t->ncpus; b++) {
			uint64_t v = matrix[(size_t)a * (size_t)t->ncpus + (size_t)b];

			if (!v || index[b] < 0)
				continue;
			h->cell[(size_t)index[a] * (size_t)h->n + (size_t)index[b]] += v;
			h->total += v;
		}
	}
	for (size_t i = 0; i < (size_t)h->n * (size_t)h->n; i++)
		if (h->cell[i] > h->max)
			h->max = h->cell[i];
	topology_fold_release(&fo);
}

void heatmap_release(struct heatmap *h)
{
	free(h->cell);
	free(h->label);
	free(h->first);
	memset(h, 0, sizeof(*h));
}

/* Width of a number column: the widest count plus a space, at least 5. */
static int number_width(const struct heatmap *h)
{
	char buf[32];
	int w = (int)strlen(fmt_count(h->max, buf, sizeof(buf))) + 1;

	return w < 5 ? 5 : w;
}

static void print_numbers(FILE *f, const struct heatmap *h, const char *row_what,
			  const char *col_what)
{
	char buf[32];
	int w = number_width(h);
	fprintf(f, "    %s (rows) -> %s (columns)\n", row_what, col_what);
	fprintf(f, "    %8s", "");
	for (int b = 0; b < h->n; b++)
		fprintf(f, "%*s", w, h->label[b]);
	fputc('\n', f);
	for (int a = 0; a < h->n; a++) {
		fprintf(f, "    %8s", h->label[a]);
		for (int b = 0; b < h->n; b++) {
			uint64_t v = h->cell[(size_t)a * (size_t)h->n + (size_t)b];

			fprintf(f, "%*s", w, v ? fmt_count(v, buf, sizeof(buf)) : ".");
		}
		fputc('\n', f);
	}
}

static void print_ramp(FILE *f, const struct heatmap *h, const char *row_what,
		       const char *col_what, int width)
{
	int step = 12 + 2 * h->n <= width ? 2 : 1; /* characters per cell */
	int skipped = 0;
	double prev = 0;
	int col;
	int every = step == 2 ? 4 : 8;		    /* column label spacing */
	char mx[32];

	fprintf(f, "    %s (rows) -> %s (columns), one cell per %s\n", row_what, col_what, h->unit);
	fprintf(f, "    %6s ", "");
	for (int b = 0; b < h->n; b += every) {
		int lw = step * every;

		fprintf(f, "%-*.*s", lw, lw, h->label[b]);
	}
	fputc('\n', f);
	for (int a = 0; a < h->n; a++) {
		bool empty = true;

		for (int b = 0; b < h->n && empty; b++)
			empty = h->cell[(size_t)a * (size_t)h->n + (size_t)b] == 0;
		if (empty) {
			skipped++;
			continue;
		}
		fprintf(f, "    %6s|", h->label[a]);
		for (int b = 0; b < h->n; b++) {
			char ch = ramp[heatmap_level(h->cell[(size_t)a * (size_t)h->n + (size_t)b],
						     h->max)];

			fputc(ch, f);
			if (step == 2)
				fputc(ch == ' ' ? ' ' : ch, f);
		}
		fputs("|\n", f);
	}
	if (skipped)
		fprintf(f, "    (%d %s rows with nothing in them are left out)\n", skipped, h->unit);
	/* every character of the ramp the cells can take, with the least count that draws it */
	col = fprintf(f, "    legend (log scale): ' ' 0");
	for (int l = 1; l <= 9; l++) {
		double lo = l == 1 ? 1 : ceil(exp((double)(l - 1) / 8.999 * log((double)h->max)));

		if (l == 1 || lo > prev) {
			char one[40];
			int n = snprintf(one, sizeof(one), "  '%c' >=%.0f", ramp[l], lo);

			if (col + n > (width > 60 ? width : 80)) { /* on, under the first entry */
				fprintf(f, "\n%23s", "");
				col = 23;
				n = fprintf(f, "%s", one + 2);
			} else {
				n = fprintf(f, "%s", one);
			}
			col += n;
		}
		prev = lo;
	}
	fprintf(f, "  (max %s)\n", fmt_count(h->max, mx, sizeof(mx)));
}

void heatmap_print(FILE *f, const struct heatmap *h, const char *row_what, const char *col_what,
		   int width)
{
	if (h->total == 0) {
		fprintf(f, "    (none)\n");
		return;
	}
	if (h->n <= 16 && 12 + h->n * number_width(h) <= width)
		print_numbers(f, h, row_what, col_what);
	else
		print_ramp(f, h, row_what, col_what, width);
}
