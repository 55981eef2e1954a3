/* sweep_svg.c - the benchmark loop as a picture: metric per sweep value, class shares beside. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sweep_report.h"
#include "xml.h"

#define W 420	/* each panel */
#define H 260
#define L 60	/* left margin */
#define T 40	/* top margin */

/* A round tick step for an axis from 0 to max: 1, 2, 2.5 or 5 times a power of ten. */
static double nice_step(double max)
{
	double raw = max / 4, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

static double x_of(int v, int n, int x0)
{
	return x0 + (n == 1 ? W / 2.0 : 20 + (double)v * (W - 40) / (n - 1));
}

/* Left panel: each run as a dot, the mean as a line. */
static void metric_panel(FILE *f, const struct sweep_set *s, enum measure m, const char *what)
{
	double max = 0;

	for (int i = 0; i < s->nruns; i++)
		if (s->runs[i].ok && s->runs[i].have[m] && s->runs[i].m[m] > max)
			max = s->runs[i].m[m];
	{ /* the axis to a round top, ticks at round steps */
		double step = nice_step(max > 0 ? max * 1.05 : 1);
		int nt = (int)ceil((max > 0 ? max * 1.05 : 1) / step);

		max = step * nt;
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\">", L, T - 12);
		xml_text(f, what);
		fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			   "fill=\"none\" stroke=\"#888\"/>\n", L, T, W, H);
		for (int k = 0; k <= nt; k++)
			fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.6g</text>\n"
				   "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				L - 4, T + H - (double)k * H / nt + 4, step * k, L, T + H - (double)k * H / nt,
				L + W, T + H - (double)k * H / nt);
	}
	if (s->nvalues == 1) { /* one value: the mean as a bar across its dots */
		struct measure_sum ms;

		sweep_summarize(s->runs, s->nruns, s->values[0], m, &ms);
		if (ms.n)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"#c03020\" stroke-width=\"2\"><title>mean %.6g</title></line>\n",
				x_of(0, 1, L) - 40, T + H - ms.mean / max * H, x_of(0, 1, L) + 40,
				T + H - ms.mean / max * H, ms.mean);
	} else {
		fprintf(f, "<polyline fill=\"none\" stroke=\"#c03020\" stroke-width=\"2\" points=\"");
		for (int v = 0; v < s->nvalues; v++) {
			struct measure_sum ms;

			sweep_summarize(s->runs, s->nruns, s->values[v], m, &ms);
			if (ms.n)
				fprintf(f, "%.1f,%.1f ", x_of(v, s->nvalues, L),
					T + H - ms.mean / max * H);
		}
		fprintf(f, "\"/>\n");
	}
	for (int v = 0; v < s->nvalues; v++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x_of(v, s->nvalues, L),
			T + H + 16);
		xml_text(f, s->values[v]);
		fprintf(f, "</text>\n");
		for (int i = 0; i < s->nruns; i++) {
			const struct sweep_run *r = &s->runs[i];

			if (!r->ok || !r->have[m] || strcmp(r->value, s->values[v]))
				continue;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#303080\">"
				   "<title>run %d: %.6g</title></circle>\n", x_of(v, s->nvalues, L),
				T + H - r->m[m] / max * H, r->rep, r->m[m]);
		}
	}
	if (s->sweep_name[0]) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", L + W / 2, T + H + 34);
		xml_text(f, s->sweep_name);
		fprintf(f, "</text>\n");
	}
}

/* Right panel: the mean class shares of each value, stacked to 100%. */
static void class_panel(FILE *f, const struct sweep_set *s, int x0)
{
	static const char *const colour[LOC_NR] = { "#2a9d4b", "#2aa0b0", "#3060c0", "#d0a020",
					       "#c03020" };
	static const char *const name[LOC_NR] = { "same CPU", "SMT", "LLC", "node", "remote" };
	double bw = (double)(W - 40) / (s->nvalues > 0 ? s->nvalues : 1) * 0.6;
	bool seen[LOC_NR] = { false };

	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\">wakeups by class, waker CPU to "
		   "target CPU (mean %%)</text>\n", x0, T - 12);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		   "stroke=\"#888\"/>\n", x0, T, W, H);
	for (int k = 0; k <= 4; k++) /* the % axis */
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d%%</text>\n", x0 - 4,
			T + H - k * H / 4 + 4, k * 25);
	for (int v = 0; v < s->nvalues; v++) {
		double y = T + H, x = x0 + 20 + (v + 0.2) * (W - 40) / s->nvalues;

		for (int k = 0; k < LOC_NR; k++) {
			struct measure_sum ms;
			double h;

			sweep_summarize(s->runs, s->nruns, s->values[v], (enum measure)(M_SAME_CPU + k),
					&ms);
			if (!ms.n)
				continue;
			seen[k] = true;
			h = ms.mean / 100.0 * H;
			y -= h;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"%s\"><title>%s: %.1f%%</title></rect>\n", x, y, bw, h,
				colour[k], name[k], ms.mean);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x + bw / 2,
			T + H + 16);
		xml_text(f, s->values[v]);
		fprintf(f, "</text>\n");
	}
	for (int k = 0, row = 0; k < LOC_NR; k++) {
		if (!seen[k])
			continue; /* a class no run measured (the LLC where it is unknown) */
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\">%s</text>\n", x0 + W + 10, T + row * 18,
			colour[k], x0 + W + 24, T + row * 18 + 9, name[k]);
		row++;
	}
}

void sweep_report_svg(FILE *f, const struct sweep_set *s)
{
	char what[160];
	enum measure m = s->have_metric ? M_METRIC : M_CS;

	if (s->have_metric) {
		/* the unit once: "pgbench tps", not "pgbench tps, tps" */
		size_t ln = strlen(s->metric_name), lu = strlen(s->metric_unit);
		bool unit = lu && !(ln > lu && s->metric_name[ln - lu - 1] == ' ' &&
				    !strcmp(s->metric_name + ln - lu, s->metric_unit));

		snprintf(what, sizeof(what), "%s%s%s (%s is better)", s->metric_name,
			 unit ? ", " : "", unit ? s->metric_unit : "",
			 s->metric_higher ? "higher" : "lower");
	}
	else
		snprintf(what, sizeof(what), "context switches/s (no --metric)");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" "
		   "height=\"100%%\" fill=\"white\"/>\n<title>", 2 * (L + W) + 120, T + H + 50);
	xml_text(f, s->command);
	fprintf(f, "</title>\n");
	metric_panel(f, s, m, what);
	class_panel(f, s, 2 * L + W);
	fprintf(f, "</svg>\n");
}
