/* prov_report.h - how results were measured, in words (text header) and JSON. */
#ifndef LOCUS_PROV_REPORT_H
#define LOCUS_PROV_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../model/sched_results.h"
#include "json.h"

/*
 * The provenance lines of a text report: source and why, CPUs asked and honored,
 * delays' resolution and sampling, events read and every drop ("none lost" only
 * when every drop counter is 0). events and bytes: what the source read (bytes 0
 * when nothing was copied out).
 */
void prov_report_text(FILE *f, const struct sched_results *r, uint64_t events, uint64_t bytes);
/* The "provenance" object, drops included. */
void prov_report_json(struct json *j, const struct sched_results *r, uint64_t events,
		      uint64_t bytes);
/* The drops in one line ("12 records the kernel dropped, 3 tasks beyond ..."), or "none lost". */
const char *prov_drops_text(const struct sched_results *r, char *buf, size_t len);
/* The collector's share of the honored CPUs' time over its span (0 when not measured). */
double prov_cost_share(const struct provenance *p);
/* "312 ns a program run, 0.81% of 2 CPUs' time" (in the statistics' windows), or
 * "not measured (why)". */
const char *prov_cost_text(const struct provenance *p, char *buf, size_t len);
/* The provenance object of the loop's JSON (no drops: each run has its own). */
void prov_json_members(struct json *j, const struct provenance *p);

#endif
