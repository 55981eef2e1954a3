/* pmu_event.h - sysfs PMU event aliases ("event=0xcd,umask=0x1,ldlat=3") to perf_event_attr. */
#ifndef LOCUS_PMU_EVENT_H
#define LOCUS_PMU_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Encode event alias of pmu, as <sysfs>/bus/event_source/devices/<pmu>
 * describes it (sysfs NULL: /sys), into attr's type and config words. terms
 * are extra "name=value" terms applied after the alias ("ldlat=30"); alias may
 * be NULL for a PMU without aliases (ibs_op). Returns 0, or -1 with a reason.
 */
int pmu_event_encode(const char *sysfs, const char *pmu, const char *alias, const char *terms,
		     struct perf_event_attr *attr, char *err, size_t len);

/* The memory-sampling events this machine's PMU offers, decided from sysfs alone. */
struct mem_plan {
	int n;
	struct perf_event_attr attr[3];
	const char *name[3];
	bool aux_leader;	/* attr[0] (mem-loads-aux) must lead attr[1] (mem-loads) */
	char what[160];		/* "Intel mem-loads (ldlat=30) and mem-stores" */
};

/* Returns 0 with a plan, or -1 with why nothing can sample memory here. */
int mem_plan_build(const char *sysfs, struct mem_plan *p, char *why, size_t len);

#endif
