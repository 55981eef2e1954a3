/* traced.h - the report of a traced session (scheduler and cachelines), shared by run and top. */
#ifndef LOCUS_TRACED_H
#define LOCUS_TRACED_H

#include "../report/live_sections.h"
#include "../report/sched_report.h"
#include "counting.h"
#include "../pipeline/tracer.h"

struct traced_report {
	struct sched_results *res;	/* NULL when the scheduler was not traced */
	struct sched_report_ctx ctx;
	unsigned sections;
	char mem_why[320];		/* why there are no cachelines in a live run */
	struct tracer *tracer;
	struct live_sections ls;	/* what the sections after the counters show */
};

/*
 * Fill rr after a session; the report extra prints its sections after the
 * counters (text and JSON). tc is the tracing configuration the session used.
 */
void traced_report_init(struct traced_report *rr, struct tracer *tracer,
			const struct source_cfg *tc, const struct session_outcome *out,
			unsigned sections);
struct report_extra traced_report_extra(struct traced_report *rr);

#endif
