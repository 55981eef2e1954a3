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
#include "../model/sched_results.h"
#include "canvas.h"

/* The counter rows, each with a rate and a sparkline. */
enum dash_series {
	/* a slot per scheduler measure: the MF_DASH ones are shown (sched_measures.def) */
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) DS_S_##field,
#include "../model/sched_measures.def"
#undef SCHED_MEASURE
	DS_CACHE_MISS,	/* cache-misses counter */
	DS_HITM,	/* HITM loads (counter or memory samples) */
	DS_NR
};

#define DS_S_FIRST 0	/* DS_S_FIRST + SM_<field> is DS_S_<field> */
/* Whether the counters pane shows series s, and its label. */
bool dash_series_shown(int s);
const char *dash_series_label(int s);

#define DASH_HIST 120	/* sparkline points kept */

struct dash_series_state {
	bool supported;
	char why[160];		/* when not */
	double rate;		/* per second over the shown span */
	uint64_t total;		/* since the start */
	double hist[DASH_HIST];	/* interval rates, oldest first */
	int nhist;
};

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

/* Everything one screen shows. Pointers are borrowed for the draw. */
struct dash_view {
	const struct sched_results *r;	/* interval or cumulative, per ui->cumulative */
	const struct topology *topo;
	double span_s;			/* seconds r covers */
	double interval_s;		/* refresh period */
	const char *command;		/* the workload, or "system-wide" */
	const char *state;		/* "running", "exited 0", "killed by SIGSEGV" */
	double elapsed_s;
	const struct sched_results *total; /* since the start: provenance and drops, or NULL */
	const char *cannot;		/* what this machine cannot measure, or "" */
	const char *why_not;		/* why nothing is measured (total NULL), or NULL */
	bool proc_switches;		/* untraced: cs vol/invol from /proc instead */
	struct dash_series_state series[DS_NR];
	const struct cl_summary *lines;	/* top cachelines, or NULL */
	int nlines;
	const char *mem_why;		/* why no cachelines, when lines is NULL */
	const char *output_path;	/* where the workload's output goes, or NULL (the terminal) */
	const char *output_tail;	/* its last lines, newline-separated (ui->output), or NULL */
	/* who delayed woken tasks over the span (ui->blame_pane), or NULL with why not */
	const struct blame_live *blame;
	const char *blame_why;
	const struct dash_ui *ui;
};

/*
 * Shorten a command to at most room characters at an argument boundary, with
 * " ..." in place of what is left out (never an argument cut in the middle,
 * unless the first alone is too long).
 */
void dash_shorten(const char *cmd, int room, char *out, size_t len);

/* Draw the whole screen (sized by the canvas) from a view. */
void dash_render(struct canvas *c, const struct dash_view *v);

/* Record one interval's rate in a series' sparkline history. */
void dash_series_push(struct dash_series_state *s, double rate);

/* Rows a pane shows at once in a w x h screen (for page up/down), 0 when hidden. */
int dash_pane_rows(int w, int h, enum dash_pane p);

#endif
