/*
 * tl_lanes.h - a timeline (timeline.h) as lanes of pixels for a picture: one
 * lane per CPU, or per core, LLC or node when the CPUs do not fit (the
 * heatmaps' fold), each pixel column holding how long its CPUs ran and the
 * task that ran longest in it; the workload's
 * wakeups between CPUs as arrows, thinned evenly to a bound, and those that
 * stayed on their CPU counted per pixel column (every one, none thinned). Memory is lanes x width, not
 * the number of events. Pure: report/svg_timeline.c draws it.
 */
#ifndef LOCUS_TL_LANES_H
#define LOCUS_TL_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/u64map.h"
#include "../model/topology.h"
#include "timeline.h"

struct tl_lanes_cfg {
	const struct topology *topo;
	int width;		/* pixel columns of time */
	int max_lanes;		/* beyond, lanes fold per core, LLC, node */
	int max_arrows;		/* wakeup arrows kept, at most */
};

struct tl_px {
	uint64_t busy;		/* ns some task ran, summed over the lane's CPUs */
	int32_t top;		/* the task (index into tasks) with the longest run in it, -1 */
	uint64_t top_ns;
};

struct tl_ltask {
	int32_t tid, pid;
	char comm[TASK_COMM_LEN];	/* its name in its latest period (or wakeup) */
	uint64_t named_at;		/* where that began */
	bool workload;
	uint64_t run_ns;	/* within the window */
};

struct tl_arrow {
	uint64_t t0, t1;
	int from, to;		/* lanes */
	enum locality cls;
	int32_t task;		/* index into tasks */
	uint64_t seq;		/* the workload's wakeups of its class before it */
};

struct tl_lanes {
	struct tl_lanes_cfg cfg;
	struct topo_fold fold;	/* lanes: fold.n of them */
	int *lane_cpus;		/* online CPUs in each lane */
	uint64_t origin;	/* the recording's first event: time 0 of the axis */
	uint64_t t0, t1;	/* the window */
	double px_ns;		/* ns per pixel column */
	struct tl_px *px;	/* lanes x width */
	struct tl_ltask *tasks;
	int ntasks, cap;
	struct u64map idx;	/* tid -> index + 1 */
	struct tl_arrow *arrows;
	int narrows;
	uint64_t stride;	/* one workload wakeup in stride kept as an arrow */
	uint64_t wl_flows;	/* the workload's wakeups seen that may be arrows (not same CPU) */
	uint32_t *same;		/* lanes x width: the workload's same-CPU wakeups by the pixel
				 * column of their wakeup (they draw no arrow) */
	/* everything in the window, counted */
	uint64_t slices, flows, migrations, passed;
	uint64_t wl_migrations;		/* the workload's migrations */
	uint64_t flows_class[LOC_NR];	/* the workload's wakeups by class */
};

void tl_lanes_init(struct tl_lanes *l, const struct tl_lanes_cfg *cfg);
/* The window [t0, t1] in the recording's clock; origin is its first event. */
void tl_lanes_window(struct tl_lanes *l, uint64_t origin, uint64_t t0, uint64_t t1);
/* A timeline sink (timeline_cfg.emit), after tl_lanes_window. */
void tl_lanes_item(void *ctx, const struct tl_item *it);
void tl_lanes_release(struct tl_lanes *l);
/* The time where pixel column p begins (the window's end for p = width). */
uint64_t tl_lanes_at(const struct tl_lanes *l, int p);

#endif
