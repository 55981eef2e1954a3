/*
 * dash_view.h - what one screen of the `locus top` dashboard shows: the counter rows with
 * their sparklines and the snapshot's results. The pipeline fills it (pipeline/watch.h),
 * report/dash.h draws it.
 */
#ifndef LOCUS_DASH_VIEW_H
#define LOCUS_DASH_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "sched_results.h"

struct blame_live;
struct cl_summary;
struct dash_ui;

/* The counter rows, each with a rate and a sparkline. */
enum dash_series {
	/* a slot per scheduler measure: the MF_DASH ones are shown (sched_measures.def) */
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) DS_S_##field,
#include "sched_measures.def"
#undef SCHED_MEASURE
	DS_CACHE_MISS,	/* cache-misses counter */
	DS_HITM,	/* HITM loads (counter or memory samples) */
	DS_NR
};

#define DS_S_FIRST 0	/* DS_S_FIRST + SM_<field> is DS_S_<field> */

#define DASH_HIST 120	/* sparkline points kept */

struct dash_series_state {
	bool supported;
	char why[160];		/* when not */
	double rate;		/* per second over the shown span */
	uint64_t total;		/* since the start */
	double hist[DASH_HIST];	/* interval rates, oldest first */
	int nhist;
};

/* Record one interval's rate in a series' sparkline history. */
void dash_series_push(struct dash_series_state *s, double rate);

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

#endif
