/*
 * dash.h - the `locus top` dashboard without the terminal: a view of one
 * snapshot, the keys, and panes drawn onto a canvas (report/tui.c shows it).
 */
#ifndef LOCUS_DASH_H
#define LOCUS_DASH_H

#include <stdbool.h>
#include <stdint.h>

#include "../analyzers/blame_live.h"
#include "../analyzers/cacheline.h"
#include "../model/dash_view.h"
#include "../model/sched_results.h"
#include "canvas.h"

/* Whether the counters pane shows series s, and its label. */
bool dash_series_shown(int s);
const char *dash_series_label(int s);

/* Panes that take focus (keys 1-5, tab; 5 where the antagonists pane is shown). */
enum dash_pane { PANE_COUNTERS, PANE_HEATMAP, PANE_TASKS, PANE_CPUS, PANE_BLAME, PANE_NR };

/* What the user changed with keys. */
struct dash_ui {
	int focus;		/* enum dash_pane */
	int scroll[PANE_NR];	/* first row shown */
	int sort[PANE_NR];	/* sort order (heatmap: which matrix) */
	bool cumulative;	/* totals since start (else the last interval) */
	bool paused;		/* keep showing the same snapshot */
	bool help;
	bool output;		/* show the last lines of the workload's output */
	bool blame_pane;	/* the antagonists pane is there (set by the caller) */
	bool blame_hidden;	/* key a: hidden */
};

/* Key codes besides printable characters. */
enum { DASH_KEY_UP = 0x1000, DASH_KEY_DOWN, DASH_KEY_PGUP, DASH_KEY_PGDN, DASH_KEY_HOME,
       DASH_KEY_TAB, DASH_KEY_BTAB };

enum dash_action { DASH_NONE, DASH_REDRAW, DASH_QUIT, DASH_RESET, DASH_PAUSE };

/* Apply a key to the UI state and say what the caller should do. */
enum dash_action dash_key(struct dash_ui *ui, int key);

/*
 * Shorten a command to at most room characters at an argument boundary, with
 * " ..." in place of what is left out (never an argument cut in the middle,
 * unless the first alone is too long).
 */
void dash_shorten(const char *cmd, int room, char *out, size_t len);

/* Draw the whole screen (sized by the canvas) from a view. */
void dash_render(struct canvas *c, const struct dash_view *v);

/* Rows a pane shows at once in a w x h screen (for page up/down), 0 when hidden. */
int dash_pane_rows(int w, int h, enum dash_pane p);

#endif
