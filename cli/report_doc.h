/* report_doc.h - what locus report writes for a replayed file (also rendered by the fuzz target). */
#ifndef LOCUS_REPORT_DOC_H
#define LOCUS_REPORT_DOC_H

#include <stdio.h>

#include "../pipeline/replay.h"
#include "../report/sched_report.h"

struct report_doc {
	struct replay *st;
	struct sched_report_ctx ctx;
	unsigned sections;	/* SEC_* */
	const char *topo_note;
};

/* After replay_run: the report of st, sections of it, folded to width columns. */
void report_doc_init(struct report_doc *d, struct replay *st, unsigned sections, int width);
/* The text report (the input, the scheduler sections, the cachelines); arg is the doc. */
void report_doc_text(FILE *f, void *arg);
/* The same as one JSON object. */
void report_doc_json(FILE *f, void *arg);

#endif
