/* dash_cpus.c - the CPUs pane: busy share per CPU, as a list or, for many CPUs, a grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "dash_panes.h"
#include "heatmap.h"

struct cpu_row {
	int cpu;
	double busy;	/* 0-1, or -1 when nothing was seen */
};

static int by_busy(const void *a, const void *b)
{
	const struct cpu_row *x = a, *y = b;

	if (x->busy != y->busy)
		return x->busy < y->busy ? 1 : -1;
	return x->cpu - y->cpu;
}

static int collect(const struct dash_view *v, struct cpu_row *rows)
{
	int n = 0;

	for (int i = 0; v->r->cpu && i < v->r->ncpus; i++) {
		const struct cpu_stat *s = &v->r->cpu[i];
		uint64_t seen = s->busy_ns + s->idle_ns;

		if (v->topo && i < v->topo->ncpus && !v->topo->cpu[i].present)
			continue;
		rows[n].cpu = i;
		rows[n++].busy = seen ? (double)s->busy_ns / (double)seen : -1;
	}
	return n;
}

static void list(struct canvas *c, struct dash_rect r, const struct dash_view *v,
		 const struct cpu_row *cr, int n, int rows)
{
	int iw = r.w - 2, bw = iw - 22, first = dash_first_row(v->ui->scroll[PANE_CPUS], n, rows);
	char buf[24];

	for (int i = first; i < n && i - first < rows; i++) {
		int x = r.x + 1, y = r.y + 1 + i - first, full;

		x += canvas_printf(c, x, y, 0, CV_DIM, "%4d ", cr[i].cpu);
		if (cr[i].busy < 0) {
			canvas_text(c, x, y, iw - 5, CV_DIM, "   - no events");
			continue;
		}
		x += canvas_printf(c, x, y, 0, CV_BOLD, "%5.1f%% ", cr[i].busy * 100);
		if (bw > 0) {
			full = (int)(cr[i].busy * bw + 0.5);
			canvas_fill(c, x, y, full, CV_BAR, c->utf8 ? 0x2588 : '#');
			canvas_fill(c, x + full, y, bw - full, CV_DIM, c->utf8 ? 0x2591 : '.');
			x += bw + 1;
		}
		canvas_printf(c, x, y, r.x + r.w - 1 - x, CV_NORMAL, "%7s",
			      dash_fmt_rate(v, v->r->cpu[cr[i].cpu].wakeups_to, buf, sizeof(buf)));
	}
}

/* One ramp character per CPU, rows of per_row CPUs. */
static void grid(struct canvas *c, struct dash_rect r, const struct dash_view *v,
		 const struct cpu_row *cr, int n, int rows)
{
	int per_row = r.w - 8, nrows, first;

	per_row = per_row >= 64 ? 64 : per_row >= 32 ? 32 : per_row >= 16 ? 16 : 8;
	nrows = (n + per_row - 1) / per_row;
	first = dash_first_row(v->ui->scroll[PANE_CPUS], nrows, rows);
	for (int row = first; row < nrows && row - first < rows; row++) {
		int y = r.y + 2 + row - first;

		canvas_printf(c, r.x + 1, y, 5, CV_DIM, "%4d ", cr[row * per_row].cpu);
		for (int k = 0; k < per_row && row * per_row + k < n; k++) {
			double b = cr[row * per_row + k].busy;
			int level = b < 0 ? 0 : 1 + (int)(b * 8.999);

			canvas_put(c, r.x + 6 + k, y, CV_HEAT0 + level, (uint32_t)heatmap_ramp[level]);
		}
	}
}

void pane_cpus(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus)
{
	struct cpu_row *cr = xcalloc((size_t)v->r->ncpus + 1, sizeof(*cr));
	int n = collect(v, cr), rows = r.h - 2, busiest = -1;
	double sum = 0, max = -1;
	int seen = 0;

	if (v->why_not) {
		canvas_box(c, r.x, r.y, r.w, r.h, "4 CPUs busy", focus);
		dash_not_traced(c, r.x + 1, r.y + 1, r.w - 2, rows, v);
		free(cr);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (cr[i].busy < 0)
			continue;
		seen++;
		sum += cr[i].busy;
		if (cr[i].busy > max) {
			max = cr[i].busy;
			busiest = cr[i].cpu;
		}
	}
	if (n <= rows || v->ui->sort[PANE_CPUS] % 3 == 1) {
		canvas_box(c, r.x, r.y, r.w, r.h, v->ui->sort[PANE_CPUS] % 3 == 1 ?
			   "4 CPUs busy, busiest first" : "4 CPUs busy, wakeups in/s", focus);
		if (v->ui->sort[PANE_CPUS] % 3 == 1)
			qsort(cr, (size_t)n, sizeof(*cr), by_busy);
		list(c, r, v, cr, n, rows);
	} else {
		canvas_box(c, r.x, r.y, r.w, r.h, "4 CPUs busy", focus);
		if (seen)
			canvas_printf(c, r.x + 1, r.y + 1, r.w - 2, CV_NORMAL,
				      "mean %.0f%%, busiest CPU %d %.0f%%, '%s'", sum / seen * 100,
				      busiest, max * 100, heatmap_ramp + 1);
		else
			canvas_text(c, r.x + 1, r.y + 1, r.w - 2, CV_DIM, "no events yet");
		grid(c, r, v, cr, n, rows - 1);
	}
	free(cr);
}
