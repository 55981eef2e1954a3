/* live_sections.c - the sections a live run prints after its counters (live_sections.h). */
#include "live_sections.h"

#include "blame_report.h"
#include "cacheline_report.h"
#include "schedstat_report.h"

#define STACKS_TOP 5 /* stacks shown of each view (as locus report) */

void live_sections_text(FILE *f, void *arg)
{
	const struct live_sections *ls = arg;

	if (ls->sections & SEC_SCHED)
		sched_report_text(f, ls->res, ls->sections, ls->ctx);
	if ((ls->sections & SEC_CPUS) && ls->res) /* the kernel's own scheduler counters */
		schedstat_report_text(f, ls->ss, ls->ss_why);
	if ((ls->sections & SEC_BLAME) && ls->res)
		blame_report_text(f, ls->blame, ls->res->topo, ls->blame_why);
	if (ls->stacks)
		stacks_report_text(f, ls->stacks, &ls->stacks_fr, STACKS_TOP);
	if ((ls->sections & SEC_CACHELINES) && ls->cl)
		cacheline_report_text(f, ls->cl, &ls->sz);
	else if (ls->sections & SEC_CACHELINES)
		cacheline_report_unsupported(f, ls->mem_why);
}

void live_sections_json(struct json *j, void *arg)
{
	const struct live_sections *ls = arg;

	if (ls->sections & SEC_SCHED)
		sched_report_json_members(j, ls->res, ls->ctx);
	if ((ls->sections & SEC_CPUS) && ls->res)
		schedstat_report_json(j, ls->ss, ls->ss_why);
	if ((ls->sections & SEC_BLAME) && ls->res)
		blame_report_json(j, ls->blame, ls->res->topo, ls->blame_why);
	if (ls->stacks)
		stacks_report_json(j, ls->stacks, &ls->stacks_fr, STACKS_TOP);
	if ((ls->sections & SEC_CACHELINES) && ls->cl) {
		cacheline_report_json_members(j, ls->cl, &ls->sz);
	} else if (ls->sections & SEC_CACHELINES) {
		json_object(j, "memory");
		json_bool(j, "supported", false);
		json_string(j, "reason", ls->mem_why);
		json_object_end(j);
	}
}
