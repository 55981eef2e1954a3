/* svg_timeline.c - per-CPU lanes of a window as an SVG picture (svg_timeline.h). */
#include "svg_timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "prov_report.h"
#include "sched_report.h"
#include "xml.h"

#define LEFT 78		/* lane labels */
#define RIGHT 40	/* room for the last tick's label */
#define KEYS 8		/* task colours; the last for "the rest of the workload" */

/* Light enough for the arrows to show over them. */
static const char *const task_colour[KEYS] = { "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6",
					       "#fb9a99", "#ffe680", "#8dd3c7", "#d9c2a7" };
#define OTHER_COLOUR "#bdbdbd"
/* Strong, so that they read over the slices: same CPU, SMT, LLC, node, other node. */
static const char *const class_colour[LOC_NR] = { "#444444", "#00796b", "#1f4e9c", "#b35900",
						  "#c00000" };

struct keys {
	int n;				/* colours used */
	int *of;			/* per task: its colour, -1 for "other tasks" */
	char name[KEYS][TASK_COMM_LEN + 16];
	uint64_t run[KEYS];
};

struct ranked {
	int task;
	uint64_t run_ns;
};

static int by_run(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->run_ns < y->run_ns ? 1 : x->run_ns > y->run_ns ? -1 : x->task - y->task;
}

/*
 * The workload's tasks get the colours: one each when they are few, else one
 * per name (the longest-running names first), the rest sharing the last.
 */
static void choose_keys(struct keys *k, const struct tl_lanes *l)
{
	int nwl = 0;
	struct ranked *order = xcalloc((size_t)l->ntasks + 1, sizeof(*order));
	bool per_task;

	memset(k, 0, sizeof(*k));
	k->of = xcalloc((size_t)l->ntasks + 1, sizeof(int));
	for (int i = 0; i < l->ntasks; i++) {
		k->of[i] = -1;
		if (l->tasks[i].workload && l->tasks[i].run_ns)
			order[nwl++] = (struct ranked){ i, l->tasks[i].run_ns };
	}
	qsort(order, (size_t)nwl, sizeof(*order), by_run);
	per_task = nwl <= KEYS;
	for (int o = 0; o < nwl; o++) {
		const struct tl_ltask *t = &l->tasks[order[o].task];
		int key = -1;

		for (int j = 0; j < k->n && !per_task; j++)
			if (!strcmp(k->name[j], t->comm))
				key = j;
		if (key < 0 && k->n < KEYS - 1 + per_task) {
			key = k->n++;
			if (per_task)
				snprintf(k->name[key], sizeof(k->name[key]), "%s %d", t->comm, t->tid);
			else
				snprintf(k->name[key], sizeof(k->name[key]), "%s", t->comm);
		} else if (key < 0) {
			key = KEYS - 1;
			k->n = KEYS;
			snprintf(k->name[key], sizeof(k->name[key]), "other workload tasks");
		}
		k->of[order[o].task] = key;
		k->run[key] += t->run_ns;
	}
	free(order);
}

/* Seconds into the recording with the decimals a step needs. */
static void seconds(char *buf, size_t len, uint64_t rel, uint64_t step)
{
	int d = 0;

	for (uint64_t s = 1000000000ULL; s > step && d < 9; s /= 10)
		d++;
	snprintf(buf, len, "%.*f s", d, (double)rel / 1e9);
}

/* A round tick step (1, 2 or 5 times a power of ten ns) giving at most 10 ticks. */
static uint64_t tick_step(uint64_t span)
{
	for (uint64_t p = 1;; p *= 10) {
		if (span / p <= 10)
			return p;
		if (span / (2 * p) <= 10)
			return 2 * p;
		if (span / (5 * p) <= 10)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return p * 10;
	}
}

static double xpos(const struct tl_lanes *l, uint64_t t)
{
	double x = t <= l->t0 ? 0 : (double)(t - l->t0) / l->px_ns;

	return LEFT + (x > l->cfg.width ? l->cfg.width : x);
}

static void header(FILE *f, const struct tl_lanes *l, const struct svg_timeline_info *in,
		   int *y)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], s[32];
	uint64_t wl = 0;

	for (int i = 0; i < LOC_NR; i++)
		wl += l->flows_class[i];
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"14\">locus timeline: ", LEFT, *y);
	xml_text(f, in->title);
	fprintf(f, "</text>\n");
	*y += 17;
	seconds(a, sizeof(a), l->t0 - l->origin, (l->t1 - l->t0) / 10 + 1);
	seconds(b, sizeof(b), l->t1 - l->origin, (l->t1 - l->t0) / 10 + 1);
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s to %s into the recording (%s); one lane per %s"
		   "%s (%d lanes, %d CPUs)</text>\n",
		LEFT, *y, a, b, fmt_ns(l->t1 - l->t0, s, sizeof(s)), l->fold.unit,
		l->fold.level == LOC_SAME_CPU ? "" : ", named by its first CPU", l->fold.n,
		l->cfg.topo->nonline);
	*y += 15;
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s running periods, %s migrations (%s of the "
		   "workload's)</text>\n", LEFT, *y, fmt_count(l->slices, a, sizeof(a)),
		fmt_count(l->migrations, d, sizeof(d)), fmt_count(l->wl_migrations, g, sizeof(g)));
	*y += 15;
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s wakeups (%s of the workload's: %d drawn as "
		   "arrows%s, %s on their waker's CPU as ticks)</text>\n",
		LEFT, *y, fmt_count(l->flows, b, sizeof(b)), fmt_count(wl, c, sizeof(c)), l->narrows,
		l->stride > 1 ? (snprintf(e, sizeof(e), ", one in %llu",
					  (unsigned long long)l->stride), e) : "",
		fmt_count(l->flows_class[LOC_SAME_CPU], s, sizeof(s)));
	*y += 15;
	if (in->r->prov.affinity_known)
		fprintf(f, "<text x=\"%d\" y=\"%d\">%s of the workload's wakeups passed over an "
			   "idle CPU (the report's verdicts on this window, each task's affinity as the "
			   "source knew it)</text>\n", LEFT, *y, fmt_count(l->passed, s, sizeof(s)));
	else
		fprintf(f, "<text x=\"%d\" y=\"%d\">idle CPUs passed over: not computed (the file "
			   "holds no task's affinity)</text>\n", LEFT, *y);
	*y += 15;
	if (in->missed) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#b35900\">%s switch-ins inferred "
			   "(the recording lacks them): those periods start at the task's first event "
			   "on the CPU, and their wakeups draw no arrow</text>\n",
			LEFT, *y, fmt_count(in->missed, a, sizeof(a)));
		*y += 15;
	}
}

/* How it was measured: the report's provenance lines, in grey. */
static void provenance(FILE *f, const struct svg_timeline_info *in, int *y)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	prov_report_text(m, in->r, in->events, in->bytes);
	fclose(m);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ')
			line++;
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">", LEFT, *y);
		xml_text(f, line);
		fprintf(f, "</text>\n");
		*y += 12;
	}
	free(buf);
}

/* Share of the pixel's CPU time busy, in quarters (1-4). */
static int shade(const struct tl_lanes *l, const struct tl_px *x, int lane)
{
	double cap = l->px_ns * (l->lane_cpus[lane] ? l->lane_cpus[lane] : 1);
	int q = (int)ceil(4.0 * (double)x->busy / cap - 1e-9);

	return q < 1 ? 1 : q > 4 ? 4 : q;
}

static void lane_runs(FILE *f, const struct tl_lanes *l, const struct keys *k, int ln, int y,
		      int h)
{
	const struct tl_px *row = &l->px[(size_t)ln * (size_t)l->cfg.width];
	bool folded = l->fold.level != LOC_SAME_CPU;

	for (int p = 0; p < l->cfg.width;) {
		int key, q, e = p + 1;
		const struct tl_ltask *t;
		char a[32], b[32];
		uint64_t busy = row[p].busy;

		if (!row[p].busy || row[p].top < 0) {
			p++;
			continue;
		}
		key = k->of[row[p].top];
		q = shade(l, &row[p], ln);
		while (e < l->cfg.width && row[e].busy && row[e].top >= 0 &&
		       k->of[row[e].top] == key && shade(l, &row[e], ln) == q &&
		       (folded || row[e].top == row[p].top)) {
			busy += row[e].busy;
			e++;
		}
		t = &l->tasks[row[p].top];
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s><title>",
			LEFT + p, y, e - p, h, key >= 0 ? task_colour[key] : OTHER_COLOUR,
			q == 4 ? "" : q == 3 ? " fill-opacity=\"0.75\"" : q == 2 ?
			" fill-opacity=\"0.5\"" : " fill-opacity=\"0.25\"");
		if (folded)
			fprintf(f, "%s %s (%d CPUs): %.0f%% busy, longest: ", l->fold.unit,
				l->fold.label[ln], l->lane_cpus[ln],
				100.0 * (double)busy / (l->px_ns * (e - p) * l->lane_cpus[ln]));
		else
			fprintf(f, "CPU %s: ", l->fold.label[ln]);
		xml_text(f, t->comm);
		seconds(a, sizeof(a), tl_lanes_at(l, p) - l->origin, tl_lanes_at(l, 1) - l->t0);
		seconds(b, sizeof(b), tl_lanes_at(l, e) - l->origin, tl_lanes_at(l, 1) - l->t0);
		fprintf(f, " %d, %s to %s</title></rect>\n", t->tid, a, b);
		p = e;
	}
}

static void arrows(FILE *f, const struct tl_lanes *l, int top, int h)
{
	for (int i = 0; i < LOC_NR; i++)
		fprintf(f, "<marker id=\"a%d\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" "
			   "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L6,3 "
			   "L0,6 z\" fill=\"%s\"/></marker>\n",
			i, class_colour[i]);
	fprintf(f, "<g fill=\"none\" stroke-width=\"1\" stroke-opacity=\"0.8\">\n");
	for (int i = 0; i < l->narrows; i++) {
		const struct tl_arrow *a = &l->arrows[i];
		double x0 = xpos(l, a->t0), x1 = xpos(l, a->t1);
		int y0 = top + a->from * h + h / 2, y1 = top + a->to * h + h / 2;
		char d[32];

		fprintf(f, "<path stroke=\"%s\" marker-end=\"url(#a%d)\" ", class_colour[a->cls],
			a->cls);
		if (a->from == a->to) /* within a lane: a small arc above its middle */
			fprintf(f, "d=\"M%.1f,%d Q%.1f,%d %.1f,%d\"", x0, y0, (x0 + x1) / 2,
				y0 - h / 2, x1 + 0.1, y0);
		else
			fprintf(f, "d=\"M%.1f,%d L%.1f,%d\"", x0, y0, x1 + 0.1, y1);
		fprintf(f, "><title>");
		xml_text(f, l->tasks[a->task].comm);
		fprintf(f, " %d woken: %s, waited %s</title></path>\n", l->tasks[a->task].tid,
			topology_class_label(l->cfg.topo, a->cls), fmt_ns(a->t1 - a->t0, d, sizeof(d)));
	}
	fprintf(f, "</g>\n");
}

/* The tallest same-CPU tick's count: the most same-CPU wakeups in one pixel column. */
static uint32_t same_max(const struct tl_lanes *l)
{
	uint32_t max = 0;

	for (size_t i = 0; i < (size_t)l->fold.n * (size_t)l->cfg.width; i++)
		if (l->same[i] > max)
			max = l->same[i];
	return max;
}

/* Tick height (px) of n same-CPU wakeups in a column: up to a third of a lane, at least 3. */
static int tick_px(uint32_t n, uint32_t max, int h)
{
	int full = h / 3 > 3 ? h / 3 : 3, px = (int)ceil((double)full * n / (max ? max : 1));

	return px < 3 ? 3 : px;
}

/*
 * The workload's same-CPU wakeups: a tick hanging from the lane's top in each pixel column
 * that holds any, as tall as its count (the legend gives the tallest's); neighbouring
 * columns of one height share a rect, its data-n their sum.
 */
static void same_ticks(FILE *f, const struct tl_lanes *l, int top, int h)
{
	uint32_t max = same_max(l);

	fprintf(f, "<g class=\"same-cpu\" fill=\"%s\" fill-opacity=\"0.8\">\n",
		class_colour[LOC_SAME_CPU]);
	for (int ln = 0; ln < l->fold.n; ln++) {
		const uint32_t *row = &l->same[(size_t)ln * (size_t)l->cfg.width];

		for (int p = 0, e; p < l->cfg.width; p = e) {
			uint64_t n = row[p];
			int px = tick_px(row[p], max, h);
			char a[32], b[32];

			for (e = p + 1; row[p] && e < l->cfg.width && row[e] &&
					tick_px(row[e], max, h) == px; e++)
				n += row[e];
			if (!row[p])
				continue;
			seconds(a, sizeof(a), tl_lanes_at(l, p) - l->origin, tl_lanes_at(l, 1) - l->t0);
			seconds(b, sizeof(b), tl_lanes_at(l, e) - l->origin, tl_lanes_at(l, 1) - l->t0);
			fprintf(f, "<rect data-lane=\"%s\" data-n=\"%llu\" x=\"%d\" y=\"%d\" "
				   "width=\"%d\" height=\"%d\"><title>%llu same-CPU wakeup%s, %s to "
				   "%s</title></rect>\n", l->fold.label[ln], (unsigned long long)n,
				LEFT + p, top + ln * h + 1, e - p, px, (unsigned long long)n,
				n == 1 ? "" : "s", a, b);
		}
	}
	fprintf(f, "</g>\n");
}

static void axis(FILE *f, const struct tl_lanes *l, int top, int bottom)
{
	uint64_t span = l->t1 - l->t0, step = tick_step(span);
	uint64_t rel0 = l->t0 - l->origin, first = rel0 / step * step;
	char s[32];

	if (first < rel0)
		first += step;
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT, bottom,
		LEFT + l->cfg.width, bottom);
	/* at most 11 ticks (span / step <= 10), counted so that no sum wraps on a hostile file */
	for (uint64_t i = 0; i <= 10 && first >= rel0; i++) {
		uint64_t off = first - rel0, t = first + i * step;
		double x;

		if (off > span || i > (span - off) / step)
			break;
		x = xpos(l, l->origin + t);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
			   "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n",
			x, top, x, bottom, x, bottom, x, bottom + 4);
		seconds(s, sizeof(s), t, step);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x,
			bottom + 16, s);
	}
}

static void legend(FILE *f, const struct tl_lanes *l, const struct keys *k, int *y)
{
	int x = LEFT;
	char n[32], s[32];

	fprintf(f, "<text x=\"%d\" y=\"%d\">running:</text>\n", x, *y + 10);
	x += 58;
	for (int i = 0; i <= k->n; i++) {
		const char *name = i < k->n ? k->name[i] : "other tasks";

		if (x > LEFT + l->cfg.width - 150) {
			x = LEFT + 58;
			*y += 16;
		}
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\">",
			x, *y, i < k->n ? task_colour[i] : OTHER_COLOUR, x + 16, *y + 10);
		xml_text(f, name);
		fprintf(f, "</text>\n");
		x += 16 + 7 * (int)strlen(name) + 14;
	}
	x = LEFT;
	*y += 18;
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#f4f4f4\" "
		   "stroke=\"#ccc\"/><text x=\"%d\" y=\"%d\">idle (nothing ran)%s</text>\n",
		x, *y, x + 16, *y + 10,
		l->fold.level != LOC_SAME_CPU ? "; fainter: fewer of the lane's CPUs busy" :
						"; fainter: part of the pixel's time busy");
	*y += 18;
	fprintf(f, "<text x=\"%d\" y=\"%d\">the workload's wakeups, waker to where it ran:</text>\n",
		x, *y + 10);
	x += 270;
	for (int c = 0; c < LOC_NR; c++) {
		const char *label = topology_class_label(l->cfg.topo, (enum locality)c);

		if (!topology_knows(l->cfg.topo, (enum locality)c))
			continue; /* no LLC class where the topology does not know it */
		if (c == LOC_SAME_CPU) /* ticks, not arrows: a swatch like them */
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"2\" height=\"8\" fill=\"%s\"/>"
				   "<rect x=\"%d\" y=\"%d\" width=\"2\" height=\"4\" fill=\"%s\"/>"
				   "<rect x=\"%d\" y=\"%d\" width=\"2\" height=\"6\" fill=\"%s\"/>",
				x + 3, *y + 2, class_colour[c], x + 7, *y + 2, class_colour[c], x + 11,
				*y + 2, class_colour[c]);
		else
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
				   "stroke-width=\"2\"/>", x, *y + 6, x + 16, *y + 6, class_colour[c]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%s %s</text>\n", x + 20, *y + 10, label,
			fmt_count(l->flows_class[c], n, sizeof(n)));
		x += 20 + 7 * (int)(strlen(label) + strlen(n)) + 18;
	}
	*y += 18;
	fprintf(f, "<text class=\"same-cpu-key\" x=\"%d\" y=\"%d\">same CPU: a tick hanging from the "
		   "lane's top in each pixel column (%s) that holds any, its height the count there "
		   "(tallest: %s); other classes: an arrow each</text>\n", LEFT, *y + 10,
		fmt_ns((uint64_t)l->px_ns, s, sizeof(s)), fmt_count(same_max(l), n, sizeof(n)));
	*y += 18;
}

void svg_timeline(FILE *out, const struct tl_lanes *l, const struct svg_timeline_info *in)
{
	struct keys k;
	int n = l->fold.n, h = n <= 8 ? 36 : n <= 16 ? 24 : n <= 32 ? 16 : 10, y = 20, top, w;
	char *body = NULL, c1[600], c2[600];
	size_t len = 0;
	FILE *f = open_memstream(&body, &len); /* the height is known at the end */

	if (!f)
		f = out;
	choose_keys(&k, l);
	header(f, l, in, &y);
	top = y;
	for (int ln = 0; ln < n; ln++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
			LEFT, top + ln * h + 1, l->cfg.width, h - 2);
		if (n <= 64 || ln % 4 == 0)
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s%s</text>\n",
				LEFT - 6, top + ln * h + h / 2 + 4,
				l->fold.level == LOC_SAME_CPU ? "CPU " : "", l->fold.label[ln]);
	}
	axis(f, l, top, top + n * h);
	for (int ln = 0; ln < n; ln++)
		lane_runs(f, l, &k, ln, top + ln * h + 1, h - 2);
	same_ticks(f, l, top, h);
	arrows(f, l, top, h);
	y = top + n * h + 34;
	legend(f, l, &k, &y);
	y += 6;
	provenance(f, in, &y);
	svg_caption_lines(in->cap, l->cfg.topo, &in->r->prov, NULL, c1, sizeof(c1), c2, sizeof(c2));
	y += 8 + svg_caption_draw(f, LEFT, y + 8, c1, c2);
	if (f != out)
		fclose(f);
	w = LEFT + l->cfg.width + RIGHT;
	w = svg_text_width(c1, 10) + LEFT + 10 > w ? svg_text_width(c1, 10) + LEFT + 10 : w;
	w = svg_text_width(c2, 10) + LEFT + 10 > w ? svg_text_width(c2, 10) + LEFT + 10 : w;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "font-family=\"sans-serif\" font-size=\"11\">\n", w, y + 4);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<title>");
	xml_text(out, in->title);
	fprintf(out, "</title>\n");
	if (body)
		fwrite(body, 1, len, out);
	fprintf(out, "</svg>\n");
	free(body);
	free(k.of);
}
