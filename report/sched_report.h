/* sched_report.h - render scheduler results: text sections, JSON, SVG heatmap. */
#ifndef LOCUS_SCHED_REPORT_H
#define LOCUS_SCHED_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../model/sched_results.h"
#include "json.h"

/* Report sections `locus run --sections` selects. */
enum report_section {
	SEC_COUNTERS = 1 << 0,
	SEC_WAKEUPS = 1 << 1,
	SEC_LATENCY = 1 << 2,
	SEC_PAIRS = 1 << 3,
	SEC_MIGRATIONS = 1 << 4,
	SEC_SWITCHES = 1 << 5,
	SEC_CPUS = 1 << 6,
	SEC_CACHELINES = 1 << 7,
	SEC_ALL = (1 << 8) - 1,
	SEC_BLAME = 1 << 8,	/* who delayed the wakee: not in all (it records the irq
				 * tracepoints too, and takes every event) */
	SEC_SCHED = SEC_WAKEUPS | SEC_LATENCY | SEC_PAIRS | SEC_MIGRATIONS | SEC_SWITCHES | SEC_CPUS,
};

/* Parse "wakeups,latency" into a mask. Returns 0, or -1 naming the bad word in bad. */
int report_sections_parse(const char *s, unsigned *mask, char *bad, size_t len);

/* What the results do not say of themselves (how they were measured is r->prov). */
struct sched_report_ctx {
	bool supported;		/* the scheduler collector ran */
	const char *reason;	/* why not, when !supported */
	uint64_t samples;	/* events the source read */
	uint64_t bytes;		/* bytes copied out of the kernel (0: aggregated there) */
	int width;		/* columns the report may use (heatmaps fold to fit) */
};

void sched_report_text(FILE *f, const struct sched_results *r, unsigned sections,
		       const struct sched_report_ctx *ctx);
/* The measures of JSON group `group` (sched_measures.def) as members of an open object. */
void sched_measures_json(struct json *j, const struct sched_results *r, const char *group);
/* Write the scheduler members (topology, wakeups, latency, ...) into an open JSON object. */
void sched_report_json_members(struct json *j, const struct sched_results *r,
			       const struct sched_report_ctx *ctx);
struct svg_caption;
/*
 * The wakeup heatmap (waker x target) as an SVG picture with the class shares, node and LLC
 * boundaries and cap drawn under it (the caller opens and closes f).
 */
void sched_report_svg(FILE *f, const struct sched_results *r, const struct svg_caption *cap);
/* The heatmap SVG through write_file_atomically (common/outfile.h). 0, or -1 after
 * saying why. */
int write_heatmap_svg(const char *path, const struct sched_results *r,
		      const struct svg_caption *cap);


#endif
