/*
 * diff_svg.c - locus diff --svg: two loops overlaid per sweep value, each run a dot, each
 * mean a bar with its 95% interval, base blue and new red side by side, '*' (better or
 * worse) where the table marks the difference, and both loops' captions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "diff_int.h"
#include "svg_caption.h"
#include "sweep_report.h"
#include "xml.h"

#define PW 560	/* the panel */
#define PH 280
#define PL 80
#define PT 56

static const char *const side_colour[2] = { "#3060c0", "#c03020" };

struct pick {
	int m;				/* the measure drawn */
	int n;
	const char *value[64];
	struct diff_row row[64];
};

static void pick_row(void *ctx, const char *value, int m, const struct diff_row *row)
{
	struct pick *p = ctx;

	if (m == p->m && p->n < 64) {
		p->value[p->n] = value;
		p->row[p->n++] = *row;
	}
}

static double y_of(double v, double max)
{
	return PT + PH - (max > 0 ? v / max : 0) * PH;
}

/* One side's runs, mean and interval at x. */
static void side(FILE *f, const struct sweep_set *s, const char *value, enum measure m,
		 const struct measure_sum *ms, double x, double max, int k)
{
	for (int i = 0; i < s->nruns; i++) {
		const struct sweep_run *r = &s->runs[i];

		if (r->ok && r->have[m] && !strcmp(r->value, value))
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" "
				   "fill-opacity=\"0.6\"><title>run %d: %.6g</title></circle>\n",
				x - 6, y_of(r->m[m], max), side_colour[k], r->rep, r->m[m]);
	}
	if (!ms->n)
		return;
	fprintf(f, "<g class=\"mean\" data-side=\"%s\" data-mean=\"%.9g\" data-ci95=\"%.9g\" "
		   "stroke=\"%s\" stroke-width=\"2\"><title>mean %.6g, 95%% interval +-%.6g "
		   "(%d runs)</title><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		k ? "new" : "base", ms->mean, ms->n >= 2 ? ms->ci95 : 0, side_colour[k], ms->mean,
		ms->ci95, ms->n, x - 2, y_of(ms->mean, max), x + 10, y_of(ms->mean, max));
	if (ms->n >= 2 && ms->ci95 > 0) {
		double lo = y_of(fmax(ms->mean - ms->ci95, 0), max);
		double hi = y_of(fmin(ms->mean + ms->ci95, max), max);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.2\"/>"
			   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.2\"/>"
			   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.2\"/>",
			x + 4, lo, x + 4, hi, x, lo, x + 8, lo, x, hi, x + 8, hi);
	}
	fputs("</g>\n", f);
}

/* The y axis to a round top over every run and interval drawn; ticks. Returns the top. */
static double axis(FILE *f, const struct pick *p, const struct diff_input *in[2], enum measure m)
{
	double max = 0, step, raw, pw;
	char tk[32];
	int nt;

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < in[k]->set->nruns; i++)
			if (in[k]->set->runs[i].ok && in[k]->set->runs[i].have[m])
				max = fmax(max, in[k]->set->runs[i].m[m]);
	for (int v = 0; v < p->n; v++)
		max = fmax(max, fmax(p->row[v].base.mean + p->row[v].base.ci95,
				     p->row[v].cur.mean + p->row[v].cur.ci95));
	max = max > 0 ? max * 1.05 : 1;
	raw = max / 4;
	pw = pow(10, floor(log10(fmax(raw, 1e-300)))); /* raw > 0 (max > 0) */
	step = (raw / pw <= 1 ? 1 : raw / pw <= 2 ? 2 : raw / pw <= 5 ? 5 : 10) * pw;
	nt = (int)ceil(max / step);
	for (int k = 0; k <= nt; k++) {
		double v = step * k, y = PT + PH - (double)k * PH / nt;

		if (v == floor(v) && v < 1e15)
			fmt_count((uint64_t)v, tk, sizeof(tk));
		else
			snprintf(tk, sizeof(tk), "%.6g", v);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text><line x1=\"%d\" "
			   "y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			PL - 4, y + 4, tk, PL, y, PL + PW, y);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		   "stroke=\"#888\"/>\n", PL, PT, PW, PH);
	return step * nt;
}

static void legend(FILE *f, const struct diff_input *in[2], int y)
{
	for (int k = 0; k < 2; k++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\">%s: ", PL, y + k * 16, side_colour[k], PL + 16,
			y + k * 16 + 9, k ? "new" : "base");
		xml_text(f, in[k]->name);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">dots: each run; bar: the mean; "
		   "whiskers: its 95%% interval (Student's t)</text>\n<text x=\"%d\" y=\"%d\" "
		   "font-size=\"10\">*: the difference the table marks significant (Welch's t, "
		   "Holm-Bonferroni, 5%% family-wise)</text>\n", PL, y + 41, PL, y + 54);
}

void diff_report_svg(FILE *f, const struct diff_input *base, const struct diff_input *cur)
{
	const struct diff_input *in[2] = { base, cur };
	enum measure m = base->set->have_metric && cur->set->have_metric ? M_METRIC : M_CS;
	struct pick *p = xcalloc(1, sizeof(*p));
	char what[200], c1[600], c2[600];
	int width = PL + PW + 40, height = PT + PH + 56 + 64 + 2 * 30;
	double max;

	p->m = m;
	diff_each_row(base, cur, pick_row, p);
	if (m == M_METRIC)
		snprintf(what, sizeof(what), "%s%s%s (%s is better): base and new",
			 base->set->metric_name, base->set->metric_unit[0] ? ", " : "",
			 base->set->metric_unit, base->set->metric_higher ? "higher" : "lower");
	else
		snprintf(what, sizeof(what), "context switches/s (no --metric): base and new");
	for (int k = 0; k < 2; k++) {
		sweep_caption_lines(in[k]->set, c1, sizeof(c1), c2, sizeof(c2));
		width = (int)fmax(width, fmax(svg_text_width(c1, 10), svg_text_width(c2, 10)) + 80);
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" "
		   "height=\"100%%\" fill=\"white\"/>\n<title>locus diff</title>\n<text x=\"%d\" "
		   "y=\"24\" font-size=\"13\">", width, height, PL);
	xml_text(f, what);
	fputs("</text>\n", f);
	max = axis(f, p, in, m);
	for (int v = 0; v < p->n; v++) {
		double x = PL + (p->n == 1 ? PW / 2.0 : 30 + (double)v * (PW - 60) / (p->n - 1));
		const struct diff_row *r = &p->row[v];

		side(f, base->set, p->value[v], m, &r->base, x - 14, max, 0);
		side(f, cur->set, p->value[v], m, &r->cur, x + 6, max, 1);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, PT + PH + 16);
		xml_text(f, p->value[v][0] ? p->value[v] : "one configuration");
		fputs("</text>\n", f);
		if (r->significant)
			fprintf(f, "<text class=\"significant\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
				   "font-weight=\"bold\">* %s</text>\n", x, PT - 4,
				r->verdict > 0 ? "better" : r->verdict < 0 ? "worse" : "");
	}
	fprintf(f, "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", PL + PW / 2,
		PT + PH + 34);
	xml_text(f, base->set->sweep_name[0] ? base->set->sweep_name : "(no --sweep)");
	fputs("</text>\n", f);
	legend(f, in, PT + PH + 50);
	for (int k = 0; k < 2; k++) {
		char l1[620];

		sweep_caption_lines(in[k]->set, c1, sizeof(c1), c2, sizeof(c2));
		snprintf(l1, sizeof(l1), "%s %s", k ? "new: " : "base:", c1);
		svg_caption_draw(f, 10, PT + PH + 124 + k * 30, l1, c2);
	}
	fputs("</svg>\n", f);
	free(p);
}
