/* svg.c - the waker x target heatmap as an SVG picture (log colour scale, axes, legend). */
#include <math.h>
#include <stdio.h>

#include "../common/util.h"
#include "heatmap.h"
#include "sched_report.h"
#include "xml.h"

/* White to dark red on a log scale. */
static void colour(uint64_t v, uint64_t max, char *buf, size_t len)
{
	double x;
	int r, g, b;

	if (!v) {
		snprintf(buf, len, "#f4f4f4");
		return;
	}
	x = max > 1 ? log((double)v) / log((double)max) : 1.0;
	r = (int)(255 - 75 * x);
	g = (int)(230 - 230 * x);
	b = (int)(200 - 200 * x);
	snprintf(buf, len, "#%02x%02x%02x", r, g < 0 ? 0 : g, b < 0 ? 0 : b);
}

void sched_report_svg(FILE *f, const struct sched_results *r, const char *title)
{
	struct heatmap h;
	int cell, left = 60, top = 50, size;
	char fill[16];

	heatmap_build(&h, r->topo, r->wake_matrix, 128);
	/* few CPUs: big cells with their counts in them; the picture at least as wide as its title */
	cell = h.n <= 4 ? 80 : h.n <= 16 ? 40 : h.n <= 64 ? 10 : 5;
	size = cell * h.n;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"11\">\n",
		left + size + 140 > 600 ? left + size + 140 : 600, top + size + 50);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<title>");
	xml_text(f, title);
	fprintf(f, "</title>\n");
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"14\">wakeups: waker %s (rows) to target %s "
		   "(columns), %llu in all</text>\n",
		left, h.unit, h.unit, (unsigned long long)h.total);
	for (int a = 0; a < h.n; a++) {
		for (int b = 0; b < h.n; b++) {
			uint64_t v = h.cell[(size_t)a * (size_t)h.n + (size_t)b];

			colour(v, h.max, fill, sizeof(fill));
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
				   "<title>%s %s -> %s %s: %llu</title></rect>\n",
				left + b * cell, top + a * cell, cell, cell, fill, h.unit, h.label[a],
				h.unit, h.label[b], (unsigned long long)v);
			if (cell >= 40 && v) { /* the count readable, not only in the tooltip */
				char n[32];

				fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
					   "font-size=\"%d\" fill=\"%s\">%s</text>\n",
					left + b * cell + cell / 2, top + a * cell + cell / 2 + 4,
					cell >= 80 ? 13 : 10,
					h.max > 1 && log((double)v) / log((double)h.max) > 0.6 ? "white"
											       : "black",
					cell >= 80 ? fmt_count(v, n, sizeof(n)) : fmt_short((double)v, n,
											      sizeof(n)));
			}
		}
		if (h.n <= 64 || a % 8 == 0)
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 4,
				top + a * cell + cell / 2 + 4, h.label[a]);
	}
	for (int b = 0; b < h.n; b += h.n <= 16 ? 1 : 8) /* centred over their column */
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			left + b * cell + (h.n <= 16 ? cell / 2 : 0), top - 6, h.label[b]);
	fprintf(f, "<text x=\"%d\" y=\"%d\">wakeups per cell</text>\n", left + size + 20,
		top - 6);
	for (int i = 0; i <= 4; i++) {
		uint64_t v = h.max ? (uint64_t)llround(exp(log((double)h.max) * i / 4.0)) : 0;

		colour(v, h.max, fill, sizeof(fill));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\">%llu</text>\n",
			left + size + 20, top + i * 20, fill, left + size + 40, top + i * 20 + 11,
			(unsigned long long)v);
	}
	fprintf(f, "</svg>\n");
	heatmap_release(&h);
}
