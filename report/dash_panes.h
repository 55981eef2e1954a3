/* dash_panes.h - the dashboard's panes (one file each) and the helpers they share. */
#ifndef LOCUS_DASH_PANES_H
#define LOCUS_DASH_PANES_H

#include <stddef.h>

#include "dash.h"

struct dash_rect {
	int x, y, w, h;
};

struct dash_layout {
	bool too_small;
	struct dash_rect header, counters, heatmap, locality, tasks, cpus, blame, footer;
	struct dash_rect note;	/* a row naming the panes left out (h 0: none was) */
};

/* The wide layout (the heatmap on the right, top to bottom) for a w x h screen. */
bool dash_wide(int w, int h);
/*
 * Where each pane goes on a w x h screen; a pane with h == 0 is hidden. blame: the inner
 * rows the antagonists pane wants (0: none), blame_data: its tasks (else a reason); it
 * gets them where the tasks and CPUs keep their rows. A pane left out (the tasks and CPUs,
 * or the antagonists wanted) gets the note row: the body's last (the tasks and CPUs give
 * it up), else the footer's (footer.h then 0).
 */
void dash_layout(int w, int h, int blame, bool blame_data, struct dash_layout *l);
/* The inner rows the antagonists pane wants at width w (0: not shown). */
int dash_blame_want(const struct dash_view *v, int w);

void pane_counters(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus);
void pane_heatmap(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus);
void pane_locality(struct canvas *c, struct dash_rect r, const struct dash_view *v);
void pane_tasks(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus);
void pane_cpus(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus);
void pane_blame(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus);

/* "812 ns", "4.1 us", "38 us", "1.2 ms", "2.30 s". */
const char *dash_fmt_ns(uint64_t ns, char *buf, size_t len);
/* A rate per second of a count over the view's span: "20.1 K", "0", "-" without a span. */
const char *dash_fmt_rate(const struct dash_view *v, uint64_t count, char *buf, size_t len);
/*
 * When the scheduler events are not traced (v->why_not), say so with the
 * reason, wrapped into the w x rows block at (x, y), and return true.
 */
bool dash_not_traced(struct canvas *c, int x, int y, int w, int rows, const struct dash_view *v);
/* The first row to show of n rows in a window of rows, given the user's scroll. */
int dash_first_row(int scroll, int n, int rows);

#endif
