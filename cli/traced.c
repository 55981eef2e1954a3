/* traced.c - what run and top print after a traced session: scheduler and cacheline sections. */
#include "traced.h"

#include <stdio.h>

#include "../collectors/probe.h"
#include "../report/blame_report.h"
#include "../report/cacheline_report.h"
#include "../report/schedstat_report.h"

#define BLAME_NOT_STREAMED "the events were not streamed to locus (the BPF collector only " \
			   "counts: --collector perf)"

static void sched_text(FILE *f, void *arg)
{
	struct traced_report *rr = arg;

	if (rr->sections & SEC_SCHED)
		sched_report_text(f, rr->res, rr->sections, &rr->ctx);
	if ((rr->sections & SEC_CPUS) && rr->res) /* the kernel's own scheduler counters */
		schedstat_report_text(f, rr->tracer->ss_ok ? &rr->tracer->ss_delta : NULL,
				      rr->tracer->ss_why);
	if ((rr->sections & SEC_BLAME) && rr->res)
		blame_report_text(f, tracer_blame(rr->tracer), rr->res->topo, BLAME_NOT_STREAMED);
	if ((rr->sections & SEC_CACHELINES) && rr->tracer->mem_on) {
		struct symbolizer sz = symbols_symbolizer(&rr->tracer->syms);

		cacheline_report_text(f, &rr->tracer->cl.cl, &sz);
	}
	else if (rr->sections & SEC_CACHELINES)
		cacheline_report_unsupported(f, rr->mem_why);
}

static void sched_json(struct json *j, void *arg)
{
	struct traced_report *rr = arg;

	if (rr->sections & SEC_SCHED)
		sched_report_json_members(j, rr->res, &rr->ctx);
	if ((rr->sections & SEC_CPUS) && rr->res)
		schedstat_report_json(j, rr->tracer->ss_ok ? &rr->tracer->ss_delta : NULL,
				      rr->tracer->ss_why);
	if ((rr->sections & SEC_BLAME) && rr->res)
		blame_report_json(j, tracer_blame(rr->tracer), rr->res->topo, BLAME_NOT_STREAMED);
	if ((rr->sections & SEC_CACHELINES) && rr->tracer->mem_on) {
		struct symbolizer sz = symbols_symbolizer(&rr->tracer->syms);

		cacheline_report_json_members(j, &rr->tracer->cl.cl, &sz);
	} else if (rr->sections & SEC_CACHELINES) {
		json_object(j, "memory");
		json_bool(j, "supported", false);
		json_string(j, "reason", rr->mem_why);
		json_object_end(j);
	}
}

void traced_report_init(struct traced_report *rr, struct tracer *tracer,
			const struct source_cfg *tc, const struct session_outcome *out,
			unsigned sections)
{
	rr->res = out->traced ? tracer_results(tracer) : NULL;
	rr->sections = sections;
	rr->ctx = (struct sched_report_ctx){ out->traced, out->trace_reason, tracer->src ? tracer->src->events : 0,
					     tracer->src ? tracer->src->bytes : 0,
					     cli_terminal_width() };
	rr->tracer = tracer;
	rr->mem_why[0] = '\0';
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
				      sched ? sched_text : NULL, sched ? sched_json : NULL, rr,
				      rr->res };
}

void traced_source_cfg(struct source_cfg *tc, const struct counting_opts *o,
		       const struct trace_opts *tr, const struct collector_opts *col,
		       const struct topology *topo)
{
	*tc = (struct source_cfg){ .topo = topo, .cpus = o->cpus, .ncpus = o->ncpus,
				   .mmap_pages = (int)tr->pages,
				   .system_wide = o->all_cpus || o->cpu_list,
				   .collector = col->collector, .quiet = o->quiet,
				   .max_tasks = (int)col->max_tasks,
				   .max_pairs = (int)col->max_pairs,
				   .stream = { .tracefs = tr->tracefs },
				   .bpf = { .btf = col->btf, .delay_rate = col->delay_rate } };
}
