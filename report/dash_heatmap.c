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
	int iw = r.w - 2, rows = r.h - 2, grid = rows - 2, lw = 0, cw, step, first;
	struct heatmap h;
	char buf[32];

	canvas_box(c, r.x, r.y, r.w, r.h, matrix_title[which], focus);
	if (grid < 1 || iw < 12 || !v->topo)
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
	cw = h.n ? (iw - lw) / h.n : 1;
	cw = cw > 4 ? 4 : cw < 1 ? 1 : cw;
	for (step = 1; step * cw < lw; step++)
		;
	/* column labels */
	for (int j = 0; j < h.n; j += step)
		canvas_text(c, r.x + 1 + lw + j * cw, r.y + 1, step * cw, CV_DIM, h.label[j]);
	first = dash_first_row(v->ui->scroll[PANE_HEATMAP], h.n, grid);
	for (int i = first; i < h.n && i - first < grid; i++) {
		int y = r.y + 2 + i - first;

		canvas_text(c, r.x + 1, y, lw - 1, CV_DIM, h.label[i]);
		for (int j = 0; j < h.n && lw + (j + 1) * cw <= iw; j++) {
			int level = heatmap_level(h.cell[(size_t)i * (size_t)h.n + (size_t)j], h.max);

			canvas_fill(c, r.x + 1 + lw + j * cw, y, cw, CV_HEAT0 + level,
				    (uint32_t)heatmap_ramp[level]);
		}
	}
	canvas_printf(c, r.x + 1, r.y + r.h - 2, iw, CV_DIM, "per %s  max %s/s  %s%s", h.unit,
		      dash_fmt_rate(v, h.max, buf, sizeof(buf)), heatmap_ramp + 1,
		      first + grid < h.n ? "  more below" : "");
	heatmap_release(&h);
}
