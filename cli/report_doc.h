/* report_doc.h - what locus report writes for a replayed file (also rendered by the fuzz target). */
#ifndef LOCUS_REPORT_DOC_H
#define LOCUS_REPORT_DOC_H

#include <stdio.h>

#include "../pipeline/file_pass.h"
#include "../report/sched_report.h"

struct report_doc {
	struct file_pass *fp;
	struct replay *st;	/* its source */
	struct sched_report_ctx ctx;
	unsigned sections;	/* SEC_* */
	const char *topo_note;
	bool stacks_addresses;	/* stack frames by address, not name */
};

/* After file_pass_run: the report of fp, sections of it, folded to width columns. */
void report_doc_init(struct report_doc *d, struct file_pass *fp, unsigned sections, int width);
/* The text report (the input, the scheduler sections, the cachelines); arg is the doc. */
void report_doc_text(FILE *f, void *arg);
/* The same as one JSON object. */
void report_doc_json(FILE *f, void *arg);

#endif
