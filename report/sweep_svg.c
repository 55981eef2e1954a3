/*
 * sweep_svg.c - the benchmark loop as a picture: metric per sweep value (each run, the mean,
 * its 95% interval), class shares beside (with theirs), and the caption of the loop's env.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "svg_caption.h"
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

/* An axis number: thousands separators when whole ("300,000"), else 6 digits. */
static const char *tick_text(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return v < 0 ? (snprintf(buf, len, "%.0f", v), buf) : fmt_count((uint64_t)v, buf, len);
	snprintf(buf, len, "%.6g", v);
	return buf;
}

/*
 * Measure m's 95% interval of the mean at value v as an error bar centred on x: a vertical
 * line from mean - ci95 to mean + ci95 with caps, clipped to the panel (y0 its bottom, px
 * pixels per unit), its numbers in data- attributes. Nothing when fewer than 2 runs or
 * when they all agree.
 */
static void errbar(FILE *f, enum measure m, const char *value, const struct measure_sum *ms,
		   double x, double y_mean, int y0, double px)
{
	double lo = ms->mean - ms->ci95, hi = ms->mean + ms->ci95;
	double ylo = y_mean + ms->ci95 * px, yhi = y_mean - ms->ci95 * px;
	bool clipped = ylo > y0 || yhi < T;

	if (ms->n < 2 || ms->ci95 <= 0)
		return; /* no spread to draw (the legend still says what a bar would be) */
	ylo = ylo > y0 ? y0 : ylo;
	yhi = yhi < T ? T : yhi;
	fprintf(f, "<g class=\"errbar\" data-measure=\"%s\" data-value=\"", measure_info(m)->key);
	xml_text(f, value);
	fprintf(f, "\" data-lo=\"%.9g\" data-hi=\"%.9g\" data-px-per-unit=\"%.9g\"%s "
		   "stroke=\"#111\" stroke-width=\"1.2\"><title>95%% interval of the mean: "
		   "%.6g to %.6g (%d runs)%s</title>\n<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" "
		   "y2=\"%.2f\"/><line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"/>"
		   "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"/></g>\n",
		lo, hi, px, clipped ? " data-clipped=\"1\"" : "", lo, hi, ms->n,
		clipped ? ", cut at the panel's edge" : "", x, ylo, x, yhi,
		x - 4, ylo, x + 4, ylo, x - 4, yhi, x + 4, yhi);
}

/* What the x axis holds: the sweep's name, or the one configuration's runs. */
static void x_label(FILE *f, const struct sweep_set *s, int x0)
{
	fprintf(f, "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x0 + W / 2,
		T + H + 34);
	if (s->sweep_name[0])
		xml_text(f, s->sweep_name);
	else
		fprintf(f, "one configuration (no --sweep), %d runs", s->repeat);
	fprintf(f, "</text>\n");
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
	for (int v = 0; v < s->nvalues; v++) { /* the error bars inside the axis too */
		struct measure_sum ms;

		sweep_summarize(s->runs, s->nruns, s->values[v], m, &ms);
		if (ms.n >= 2 && ms.mean + ms.ci95 > max)
			max = ms.mean + ms.ci95;
	}
	{ /* the axis to a round top, ticks at round steps */
		char tk[32];

		double step = nice_step(max > 0 ? max * 1.05 : 1);
		int nt = (int)ceil((max > 0 ? max * 1.05 : 1) / step);

		max = step * nt;
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\">", L, T - 12);
		xml_text(f, what);
		fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			   "fill=\"none\" stroke=\"#888\"/>\n", L, T, W, H);
		for (int k = 0; k <= nt; k++)
			fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n"
				   "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				L - 4, T + H - (double)k * H / nt + 4, tick_text(step * k, tk, sizeof(tk)),
				L, T + H - (double)k * H / nt, L + W, T + H - (double)k * H / nt);
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
		{ /* beside the dots, so that neither hides the other */
			struct measure_sum ms;

			sweep_summarize(s->runs, s->nruns, s->values[v], m, &ms);
			errbar(f, m, s->values[v], &ms, x_of(v, s->nvalues, L) + 9,
			       T + H - ms.mean / max * H, T + H, H / max);
		}
	}
	x_label(f, s, L);
	/* the legend: what each mark is */
	fprintf(f, "<g class=\"legend\" font-size=\"10\"><circle cx=\"%d\" cy=\"%d\" r=\"3\" "
		   "fill=\"#303080\"/><text x=\"%d\" y=\"%d\">each run</text>"
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c03020\" "
		   "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">mean</text>"
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#111\" "
		   "stroke-width=\"1.2\"/><text x=\"%d\" y=\"%d\">95%% interval of the mean "
		   "(Student's t, the runs of a value)</text></g>\n",
		L + 6, T + H + 50, L + 12, T + H + 54, L + 70, T + H + 50, L + 84, T + H + 50,
		L + 88, T + H + 54, L + 130, T + H + 44, L + 130, T + H + 56, L + 136, T + H + 54);
}

/* Right panel: the mean class shares of each value, stacked to 100%. */
static void class_panel(FILE *f, const struct sweep_set *s, int x0)
{
	static const char *const colour[LOC_NR] = { "#2a9d4b", "#2aa0b0", "#3060c0", "#d0a020",
					       "#c03020" };
	static const char *const name[LOC_NR] = { "same CPU", "SMT", "LLC", "node", "remote" };
	double bw = (double)(W - 40) / (s->nvalues > 0 ? s->nvalues : 1) * 0.6;
	double step = bw / 3 / LOC_NR < 6 ? bw / 3 / LOC_NR : 6; /* the classes' bars apart */
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
			/* beside the stack: the class's own share (a dot) and its interval, on
			 * the same % axis (a stacked boundary is a sum: no place for one share's) */
			if (ms.n >= 2 && ms.ci95 > 0) {
				double dx = x + bw + 4 + k * step, dy = T + H - ms.mean / 100.0 * H;

				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" "
					   "stroke=\"#111\" stroke-width=\"0.5\"/>\n", dx, dy, colour[k]);
				errbar(f, (enum measure)(M_SAME_CPU + k), s->values[v], &ms, dx, dy,
				       T + H, H / 100.0);
			}
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
	fprintf(f, "<g font-size=\"10\"><text x=\"%d\" y=\"%d\">beside each stack:</text>"
		   "<text x=\"%d\" y=\"%d\">a class's mean share</text>"
		   "<text x=\"%d\" y=\"%d\">(dot), its 95%% interval</text>"
		   "<text x=\"%d\" y=\"%d\">of the mean (bar)</text></g>\n",
		x0 + W + 10, T + 5 * 18 + 14, x0 + W + 10, T + 5 * 18 + 26, x0 + W + 10,
		T + 5 * 18 + 38, x0 + W + 10, T + 5 * 18 + 50);
	x_label(f, s, x0);
}

void sweep_caption_lines(const struct sweep_set *s, char *c1, size_t n1, char *c2, size_t n2)
{
	struct svg_caption cap;
	char cpus[400];
	int stopped = 0;

	memset(&cap, 0, sizeof(cap));
	snprintf(cap.command, sizeof(cap.command), "%s", s->cmdline[0] ? s->cmdline : s->command);
	snprintf(cap.kernel, sizeof(cap.kernel), "%s", s->kernel);
	/* the machine by its name, as every picture says it; the CPU model beside */
	snprintf(cap.host, sizeof(cap.host), "%s", s->hostname[0] ? s->hostname : "not in the file");
	snprintf(cpus, sizeof(cpus), "%s%s%s", s->cpu_model, s->cpu_model[0] && s->topology[0] ?
		 "; " : "", s->topology);
	for (int i = 0; i < s->nruns; i++)
		stopped += s->runs[i].interrupted;
	if (stopped)
		snprintf(cap.ended, sizeof(cap.ended), "%d run%s interrupted: kept, marked", stopped,
			 stopped == 1 ? "" : "s");
	/* the loop file's ISO time as the other pictures say a date: "2026-12-02 06:10 UTC" */
	if (strlen(s->time) == 20 && s->time[10] == 'T' && s->time[19] == 'Z')
		snprintf(cap.date, sizeof(cap.date), "%.10s %.5s UTC", s->time, s->time + 11);
	else
		snprintf(cap.date, sizeof(cap.date), "%s", s->time);
	svg_caption_lines(&cap, NULL, s->prov.source != PROV_NONE ? &s->prov : NULL,
			  cpus[0] ? cpus : NULL, c1, n1, c2, n2);
}

void sweep_report_svg(FILE *f, const struct sweep_set *s)
{
	char what[160], c1[600], c2[600];
	int width;
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
	sweep_caption_lines(s, c1, sizeof(c1), c2, sizeof(c2));
	/* room right of the class panel for its legend's widest line */
	width = 2 * (L + W) + 20 + svg_text_width("(dot), its 95% interval", 10) + 10;
	if (width < 2 * (L + W) + 120)
		width = 2 * (L + W) + 120;
	if (svg_text_width(c1, 10) + 20 > width)
		width = svg_text_width(c1, 10) + 20;
	if (svg_text_width(c2, 10) + 20 > width)
		width = svg_text_width(c2, 10) + 20;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" "
		   "height=\"100%%\" fill=\"white\"/>\n<title>", width, T + H + 104);
	xml_text(f, s->command);
	fprintf(f, "</title>\n");
	metric_panel(f, s, m, what);
	class_panel(f, s, 2 * L + W);
	svg_caption_draw(f, 10, T + H + 80, c1, c2);
	fprintf(f, "</svg>\n");
}
