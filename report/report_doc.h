/* report_doc.h - what locus report writes for a recording: the text and JSON documents of a
 * pass's results and of what it read (model/file_input.h). Also rendered by the fuzz target. */
#ifndef LOCUS_REPORT_DOC_H
#define LOCUS_REPORT_DOC_H

#include <stdio.h>

#include "../analyzers/blame.h"
#include "../analyzers/cacheline.h"
#include "../analyzers/stacks.h"
#include "../model/file_input.h"
#include "sched_report.h"
#include "stacks_out.h"

struct report_doc {
	const struct file_input *in;
	const struct sched_results *r;		/* the scheduler's */
	const struct blame_results *blame;	/* with SEC_BLAME: who delayed the wakee */
	const struct cacheline *cl;		/* the memory samples' */
	const struct stacks *stacks;		/* NULL: no stacks asked for */
	struct sched_report_ctx ctx;
	unsigned sections;	/* SEC_* */
	bool stacks_addresses;	/* stack frames by address, not name */
	bool stacks_keep_unknown; /* folded stacks keep every "[unknown]" frame */
	const char *svg;	/* the wakeup heatmap's SVG, or NULL */
	const struct stacks_out *outs;	/* --folded and --flame files of stacks (nouts) */
	int nouts;
};

/* The report of a pass over the file in (its results r, blame, cl, stacks), sections of it,
 * folded to width columns. */
void report_doc_init(struct report_doc *d, const struct file_input *in,
		     const struct sched_results *r, const struct blame_results *blame,
		     const struct cacheline *cl, const struct stacks *stacks, unsigned sections,
		     int width);
/* The text report (the input, the scheduler sections, the cachelines); arg is the doc. */
void report_doc_text(FILE *f, void *arg);
/* The same as one JSON object. */
void report_doc_json(FILE *f, void *arg);
/*
 * The text into out (NULL: standard output, unless the JSON goes there: json "-"), the
 * JSON into json (NULL: none), then the stacks' files (outs) and the heatmap (svg, when
 * the file has sched events), each through the atomic writer. 0, or -1 when one could not
 * be written (said; every one tried).
 */
int report_doc_write(struct report_doc *d, const char *out, const char *json);

#endif
