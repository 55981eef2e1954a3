/* traced.c - what run and top print after a traced session: scheduler and cacheline sections. */
#include "traced.h"

#include <stdio.h>

#include "../collectors/probe.h"
#include "../common/util.h"

#define BLAME_NOT_STREAMED "the events were not streamed to locus (the BPF collector only " \
			   "counts: --collector perf)"

void traced_report_init(struct traced_report *rr, struct tracer *tracer,
			const struct source_cfg *tc, const struct session_outcome *out,
			unsigned sections)
{
	rr->res = out->traced ? tracer_results(tracer) : NULL;
	rr->sections = sections;
	rr->ctx = (struct sched_report_ctx){ out->traced, out->trace_reason, tracer->src ? tracer->src->events : 0,
					     tracer->src ? tracer->src->bytes : 0,
					     terminal_columns() };
	rr->tracer = tracer;
	rr->mem_why[0] = '\0';
	rr->ls = (struct live_sections){ rr->res, &rr->ctx, sections,
					 tracer->ss_ok ? &tracer->ss_delta : NULL, tracer->ss_why,
					 tracer_blame(tracer), BLAME_NOT_STREAMED,
					 tracer->mem_on ? &tracer->cl.cl : NULL,
					 symbols_symbolizer(&tracer->syms), rr->mem_why, NULL,
					 { NULL, NULL }, { NULL, NULL, 0 } };
	if (rr->res) { /* -g: the stacks, named from this machine and the mappings seen */
		const struct stack_table *tab = NULL;

		rr->ls.stacks = tracer_stacks(tracer, &tab, &rr->ls.stacks_nm);
		rr->ls.stacks_fr = (struct stacks_frames){ tab, &rr->ls.stacks_nm, 0 };
	}
	if ((sections & SEC_CACHELINES) && !tracer->mem_on) {
		if (tracer->mem_why[0])
			snprintf(rr->mem_why, sizeof(rr->mem_why), "%s", tracer->mem_why);
		else if (probe_memory_sampling(rr->mem_why, sizeof(rr->mem_why)))
			snprintf(rr->mem_why, sizeof(rr->mem_why), "memory sampling runs with the "
				 "scheduler tracing, which could not start");
	}
}

struct report_extra traced_report_extra(struct traced_report *rr)
{
	bool sched = (rr->sections & ~SEC_COUNTERS) != 0;

	return (struct report_extra){ (rr->sections & SEC_COUNTERS) != 0,
				      sched ? live_sections_text : NULL,
				      sched ? live_sections_json : NULL, &rr->ls,
				      rr->res };
}
