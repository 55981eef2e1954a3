/*
 * svg.c - the waker x target heatmap as an SVG picture: log colour scale, axes, legend,
 * the class shares of the text report, node (and LLC) boundaries, and a caption.
 */
#include <math.h>
#include <stdio.h>

#include "../common/outfile.h"
#include "../common/util.h"
#include "heatmap.h"
#include "sched_report.h"
#include "svg_caption.h"
#include "xml.h"

/* A log scale where the counts span more than this factor, else a linear one from 0. */
#define LOG_SPAN 16

/*
 * Where v lies on the colour scale, 0-1: counts of one magnitude on a linear scale from 0
 * (1,537 and 4,983 a third and all of it: it was a log scale from 1, and both sat near its
 * top), counts that span magnitudes on a log scale from the smallest to the largest.
 */
static double level(uint64_t v, uint64_t lo, uint64_t hi)
{
	if (!v || !hi)
		return 0.0;
	if (hi <= lo * LOG_SPAN)
		return (double)v / (double)hi;
	if (v <= lo)
		return 0.0;
	return log((double)v / (double)lo) / log((double)hi / (double)lo);
}

/* The count at step i of 4 on the scale (the legend's swatches). */
static uint64_t step_value(int i, uint64_t lo, uint64_t hi)
{
	if (hi <= lo * LOG_SPAN)
		return (uint64_t)llround((double)hi * (i ? i : 0.5) / 4.0); /* half a step: the foot */
	return (uint64_t)llround((double)lo * exp(log((double)hi / (double)lo) * i / 4.0));
}

/* Pale yellow to dark red through orange (a sequential ramp a reader tells apart in five
 * steps, as ColorBrewer's YlOrRd); an empty cell light grey. */
static void colour(uint64_t v, uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	static const int stop[4][3] = { { 255, 237, 160 }, { 254, 178, 76 }, { 240, 59, 32 },
					{ 128, 0, 38 } };
	double x = level(v, lo, hi) * 3;
	int k = x >= 3 ? 2 : (int)x, c[3];

	if (!v) {
		snprintf(buf, len, "#f4f4f4");
		return;
	}
	for (int i = 0; i < 3; i++)
		c[i] = (int)lround(stop[k][i] + (stop[k + 1][i] - stop[k][i]) * (x - k));
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The smallest count of a cell that has any. */
static uint64_t min_cell(const struct heatmap *h)
{
	uint64_t lo = 0;

	for (size_t i = 0; i < (size_t)h->n * (size_t)h->n; i++)
		if (h->cell[i] && (!lo || h->cell[i] < lo))
			lo = h->cell[i];
	return lo;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

struct layout {
	int cell, left, top, size;
	uint64_t lo;	/* the smallest count of a cell: the colour scale's foot */
	bool nodes;	/* node boundaries drawn (more than one node among the groups) */
	bool llcs;	/* LLC boundaries drawn (groups finer than an LLC, cells big enough) */
};

/* The group's node, or its LLC (-1 unknown). */
static int group_at(const struct sched_results *r, const struct heatmap *h, int g,
		    enum locality level)
{
	return topology_group(r->topo, h->first[g], level);
}

/* One class's share as the text report's class table gives it: "same CPU 20.0%". */
static const char *share_text(const struct sched_results *r, int c, char *buf, size_t len)
{
	char sh[16];

	snprintf(buf, len, "%s %s", topology_class_label(r->topo, (enum locality)c),
		 fmt_share((double)r->by_class[c], (double)r->wakeups_placed, 1, sh, sizeof(sh)));
	return buf;
}

/*
 * The shares of the text report's class table: of the placed wakeups, per class the
 * topology tells apart, a line each under a heading, at (x, y). Drawn when f; the width
 * it takes (px) returned either way.
 */
static int shares(FILE *f, const struct sched_results *r, int x, int y)
{
	char n[32], pre[96], t[64];
	int w, row = 1;

	snprintf(pre, sizeof(pre), "of %s placed wakeups, waker CPU to target CPU:",
		 fmt_count(r->wakeups_placed, n, sizeof(n)));
	w = svg_text_width(pre, 11);
	if (f)
		fprintf(f, "<text class=\"shares\" x=\"%d\" y=\"%d\">%s</text>\n", x, y, pre);
	for (int c = 0; c < LOC_NR; c++) {
		if (!topology_knows(r->topo, (enum locality)c))
			continue; /* no figure for a class the topology cannot tell */
		share_text(r, c, t, sizeof(t));
		w = imax(w, svg_text_width(t, 12) + 10);
		if (f)
			fprintf(f, "<text class=\"share\" data-class=\"%s\" x=\"%d\" y=\"%d\" "
				   "font-weight=\"bold\">%s</text>\n", locality_name((enum locality)c),
				x + 10, y + 18 * row, t);
		row++;
	}
	return w;
}

/*
 * Lines where the node (or LLC) changes between neighbouring groups, across the whole
 * grid, and each run's label under the columns and left of the rows where it fits.
 */
static void boundaries(FILE *f, const struct sched_results *r, const struct heatmap *h,
		       const struct layout *L, enum locality level, int label_y)
{
	bool node = level == LOC_NODE;
	int start = 0;

	for (int g = 1; g <= h->n; g++) {
		int pos = L->cell * g, span;

		if (g < h->n && group_at(r, h, g, level) == group_at(r, h, g - 1, level))
			continue;
		if (g < h->n && (node || group_at(r, h, g, LOC_NODE) ==
						 group_at(r, h, g - 1, LOC_NODE)))
			fprintf(f, "<g class=\"%s-boundary\" data-after=\"%s\" stroke=\"%s\" "
				   "stroke-width=\"%s\"%s><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
				   "y2=\"%d\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>\n",
				node ? "node" : "llc", h->label[g], node ? "#1a1a1a" : "#444",
				node ? "1.5" : "1.2", node ? "" : " stroke-dasharray=\"4,2\"",
				L->left + pos, L->top - 2, L->left + pos, L->top + L->size + 2,
				L->left - 2, L->top + pos, L->left + L->size + 2, L->top + pos);
		span = L->cell * (g - start);
		if (span >= (node ? 18 : 30)) {
			int mid = L->cell * start + span / 2, id = group_at(r, h, start, level);

			fprintf(f, "<text class=\"%s-label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
				   "fill=\"%s\">%s%d</text>\n", node ? "node" : "llc", L->left + mid,
				label_y, node ? "#1a1a1a" : "#777", node ? "N" : "L", id);
			if (node)
				fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#1a1a1a\">N%d</text>\n", 6,
					L->top + mid + 4, id);
		}
		start = g;
	}
}

static void cells(FILE *f, const struct heatmap *h, const struct layout *L)
{
	char fill[16], n[32];

	for (int a = 0; a < h->n; a++) {
		for (int b = 0; b < h->n; b++) {
			uint64_t v = h->cell[(size_t)a * (size_t)h->n + (size_t)b];
			int x = L->left + b * L->cell, y = L->top + a * L->cell;

			colour(v, L->lo, h->max, fill, sizeof(fill));
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
				   "<title>%s %s -> %s %s: %s</title></rect>\n",
				x, y, L->cell, L->cell, fill, h->unit, h->label[a], h->unit,
				h->label[b], fmt_count(v, n, sizeof(n)));
			if (L->cell >= 40 && v) /* the count readable, not only in the tooltip */
				fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
					   "font-size=\"%d\" fill=\"%s\">%s</text>\n",
					x + L->cell / 2, y + L->cell / 2 + 4, L->cell >= 80 ? 13 : 10,
					level(v, L->lo, h->max) > 0.55 ? "white" : "black",
					L->cell >= 80 ? fmt_count(v, n, sizeof(n)) :
							fmt_short((double)v, n, sizeof(n)));
		}
		if (h->n <= 64 || a % 8 == 0)
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
				L->left - 4, L->top + a * L->cell + L->cell / 2 + 4, h->label[a]);
	}
	for (int b = 0; b < h->n; b += h->n <= 16 ? 1 : 8) /* centred over their column */
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			L->left + b * L->cell + (h->n <= 16 ? L->cell / 2 : 0), L->top - 6,
			h->label[b]);
}

static void legend(FILE *f, const struct heatmap *h, const struct layout *L)
{
	int x = L->left + L->size + 20;
	char fill[16], n[32];

	fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">wakeups per cell (%s)</text>\n", x,
		L->top - 6, h->max > L->lo * LOG_SPAN ? "log scale" : "linear");
	for (int i = 0; i <= 4; i++) { /* the scale's foot to its top */
		uint64_t v = h->max && L->lo ? step_value(i, L->lo, h->max) : 0;

		if (!v || (i && v == step_value(i - 1, L->lo, h->max)))
			continue; /* one count, one swatch */
		colour(v, L->lo, h->max, fill, sizeof(fill));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\">%s</text>\n",
			x, L->top + i * 20, fill, x + 20, L->top + i * 20 + 11,
			fmt_count(v, n, sizeof(n)));
	}
	if (L->nodes)
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1a1a1a\" "
			   "stroke-width=\"1.5\"/><text x=\"%d\" y=\"%d\">node boundary</text>\n",
			x, L->top + 112, x + 14, L->top + 112, x + 20, L->top + 116);
	if (L->llcs) {
		int y = L->top + (L->nodes ? 130 : 112);

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" "
			   "stroke-width=\"1.2\" stroke-dasharray=\"4,2\"/><text x=\"%d\" "
			   "y=\"%d\">LLC boundary</text>\n", x, y, x + 14, y, x + 20, y + 4);
	}
}

void sched_report_svg(FILE *f, const struct sched_results *r, const struct svg_caption *cap)
{
	struct heatmap h;
	struct layout L = { .left = 60, .top = 46 };
	char title[200], n[32], c1[600], c2[600];
	int below, width, height, sx;

	heatmap_build(&h, r->topo, r->wake_matrix, 128);
	L.lo = min_cell(&h);
	/* few CPUs: big cells with their counts in them; the picture at least as wide as its title */
	L.cell = h.n <= 2 ? 110 : h.n <= 4 ? 80 : h.n <= 16 ? 40 : h.n <= 64 ? 10 : 5;
	L.size = L.cell * h.n;
	for (int g = 1; g < h.n; g++) {
		L.nodes |= group_at(r, &h, g, LOC_NODE) != group_at(r, &h, g - 1, LOC_NODE);
		/* LLC lines only where one falls inside a node (a node line says the rest) */
		L.llcs |= h.level < LOC_LLC && r->topo->llc_known &&
			  group_at(r, &h, g, LOC_LLC) != group_at(r, &h, g - 1, LOC_LLC) &&
			  group_at(r, &h, g, LOC_NODE) == group_at(r, &h, g - 1, LOC_NODE);
	}
	if (L.nodes)
		L.left = 96; /* the node labels left of the row labels */
	snprintf(title, sizeof(title), "wakeups: waker %s (rows) to target %s (columns), %s in all",
		 h.unit, h.unit, fmt_count(h.total, n, sizeof(n)));
	svg_caption_lines(cap, r->topo, &r->prov, NULL, c1, sizeof(c1), c2, sizeof(c2));
	below = L.top + L.size + (L.nodes ? 16 : 0) + (L.llcs ? 14 : 0) + 24;
	/* the legend right of the grid, the class shares right of the legend */
	sx = L.left + L.size + 20 + 120;
	width = imax(sx + shares(NULL, r, 0, 0) + 10, 600);
	width = imax(width, imax(svg_text_width(c1, 10), svg_text_width(c2, 10)) + 20);
	width = imax(width, L.left + svg_text_width(title, 14) + 10);
	below = imax(below, L.top + 18 * (LOC_NR + 1) + 24);
	height = below + 34;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"11\">\n", width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<title>");
	xml_text(f, cap->command);
	fprintf(f, "</title>\n<text class=\"title\" x=\"%d\" y=\"18\" font-size=\"14\">%s</text>\n",
		L.left, title);
	shares(f, r, sx, L.top + 8);
	cells(f, &h, &L);
	if (L.llcs)
		boundaries(f, r, &h, &L, LOC_LLC, L.top + L.size + (L.nodes ? 30 : 14));
	if (L.nodes)
		boundaries(f, r, &h, &L, LOC_NODE, L.top + L.size + 14);
	legend(f, &h, &L);
	svg_caption_draw(f, 10, below, c1, c2);
	fprintf(f, "</svg>\n");
	heatmap_release(&h);
}

struct svg_job {
	const struct sched_results *r;
	const struct svg_caption *cap;
};

static void svg_doc(FILE *f, void *arg)
{
	const struct svg_job *job = arg;

	sched_report_svg(f, job->r, job->cap);
}

int write_heatmap_svg(const char *path, const struct sched_results *r,
		      const struct svg_caption *cap)
{
	struct svg_job job = { r, cap };

	return write_file_atomically(path, svg_doc, &job);
}
