/* live_sections.h - the sections a live run (run, top) prints after its counters. */
#ifndef LOCUS_LIVE_SECTIONS_H
#define LOCUS_LIVE_SECTIONS_H

#include <stdio.h>

#include "../analyzers/blame.h"
#include "../analyzers/cacheline.h"
#include "../model/schedstat.h"
#include "../model/symbolize.h"
#include "json.h"
#include "sched_report.h"
#include "stacks_report.h"

/* What they show, and why where there is nothing. */
struct live_sections {
	const struct sched_results *res;	/* NULL when the scheduler was not traced */
	const struct sched_report_ctx *ctx;
	unsigned sections;			/* SEC_* */
	const struct schedstat *ss;		/* the run's /proc/schedstat deltas, or NULL */
	const char *ss_why;			/* why there are none */
	const struct blame_results *blame;	/* who delayed the wakees, or NULL */
	const char *blame_why;			/* why not measured */
	const struct cacheline *cl;		/* the memory samples' cachelines, or NULL */
	struct symbolizer sz;			/* their code and data named */
	const char *mem_why;			/* why there are no cachelines */
	const struct stacks *stacks;		/* -g: the waker, blocked, off-wake stacks, or NULL */
	struct stack_namer stacks_nm;		/* their frames' names */
	struct stacks_frames stacks_fr;		/* their table, through stacks_nm */
};

/* The sections as text, and as members of the report's JSON object (arg: the struct). */
void live_sections_text(FILE *f, void *arg);
void live_sections_json(struct json *j, void *arg);

#endif
