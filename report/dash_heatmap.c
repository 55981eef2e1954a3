/* dash_heatmap.c - the heatmap pane: a CPU x CPU matrix folded to fit, as coloured cells. */
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "dash_panes.h"
#include "heatmap.h"

static const char *const matrix_title[] = {
	"2 wakeups: waker x target CPU",
	"2 wakeups: previous x target CPU",
	"2 migrations: from x to CPU",
};

void pane_heatmap(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus)
{
	int which = v->ui->sort[PANE_HEATMAP] % 3;
	const uint64_t *m = which == 0 ? v->r->wake_matrix : which == 1 ? v->r->prev_matrix :
			    v->r->mig_matrix;
	int iw = r.w - 2, rows = r.h - 2, grid = rows - 2, lw = 0, cw, rh, step, first, shown;
	struct heatmap h;
	char buf[32];

	canvas_box(c, r.x, r.y, r.w, r.h, matrix_title[which], focus);
	if (dash_not_traced(c, r.x + 1, r.y + 1, iw, rows, v) || grid < 1 || iw < 12 || !v->topo)
		return;
	if (!m || v->r->ncpus != v->topo->ncpus) {
		canvas_text(c, r.x + 1, r.y + 1, iw, CV_DIM, "no scheduler events yet");
		return;
	}
	heatmap_build(&h, v->topo, m, grid < iw - 6 ? grid : iw - 6);
	for (int i = 0; i < h.n; i++)
		if ((int)strlen(h.label[i]) > lw)
			lw = (int)strlen(h.label[i]);
	lw++;
	/* cells as large as the pane allows (a few CPUs get big cells with their rate in them) */
	cw = h.n ? (iw - lw) / h.n : 1;
	cw = cw > 12 ? 12 : cw < 1 ? 1 : cw;
	rh = h.n ? grid / h.n : 1;
	rh = rh > 3 ? 3 : rh < 1 ? 1 : rh;
	if (cw < 6)
		rh = 1; /* no room for a number: one row a CPU */
	for (step = 1; step * cw < lw; step++)
		;
	/* column labels */
	for (int j = 0; j < h.n; j += step)
		canvas_text(c, r.x + 1 + lw + j * cw, r.y + 1, step * cw, CV_DIM, h.label[j]);
	shown = grid / rh;
	first = dash_first_row(v->ui->scroll[PANE_HEATMAP], h.n, shown);
	for (int i = first; i < h.n && i - first < shown; i++) {
		int y0 = r.y + 2 + (i - first) * rh;

		canvas_text(c, r.x + 1, y0 + rh / 2, lw - 1, CV_DIM, h.label[i]);
		for (int j = 0; j < h.n && lw + (j + 1) * cw <= iw; j++) {
			uint64_t n = h.cell[(size_t)i * (size_t)h.n + (size_t)j];
			int level = heatmap_level(n, h.max), x = r.x + 1 + lw + j * cw, len;

			for (int k = 0; k < rh; k++)
				canvas_fill(c, x, y0 + k, cw - (cw >= 6), CV_HEAT0 + level,
					    (uint32_t)heatmap_ramp[level]);
			if (cw < 6)
				continue;
			/* the cell's rate, centred, where it leaves the colour visible around it */
			if (!n)
				continue;
			buf[0] = ' '; /* a blank either side: the number stands out from the ramp */
			dash_fmt_rate(v, n, buf + 1, sizeof(buf) - 2);
			len = (int)strlen(buf);
			buf[len++] = ' ';
			buf[len] = 0;
			if (len <= cw - 3)
				canvas_text(c, x + (cw - 1 - len) / 2, y0 + rh / 2, len, CV_BOLD, buf);
		}
	}
	canvas_printf(c, r.x + 1, r.y + r.h - 2, iw, CV_DIM, "per %s  max %s/s  %s%s", h.unit,
		      dash_fmt_rate(v, h.max, buf, sizeof(buf)), heatmap_ramp + 1,
		      first + shown < h.n ? "  more below" : "");
	heatmap_release(&h);
}
