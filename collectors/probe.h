/* probe.h - what this machine and kernel allow: PMUs, privileges, tracefs, limits. */
#ifndef LOCUS_PROBE_H
#define LOCUS_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

/*
 * Name of the core hardware PMU the kernel exports in
 * <root>/sys/bus/event_source/devices (cpu, cpu_core, armv8_pmuv3...),
 * copied to name. root is "" for the running system. False when none.
 */
bool probe_core_pmu(const char *root, char *name, size_t len);

/* True when <root>/sys/bus/event_source/devices/<pmu> exists. */
bool probe_pmu_exists(const char *root, const char *pmu);

/* kernel.perf_event_paranoid, or 99 when it cannot be read. */
int probe_paranoid(void);

/* True when running with CAP_PERFMON or CAP_SYS_ADMIN (root). */
bool probe_perf_privileged(void);

/*
 * The tracefs mount point, mounting it at /sys/kernel/tracing when it is
 * absent and we may (as perf does). NULL with a reason when unavailable.
 */
const char *probe_tracefs(char *why, size_t len);

/* One sentence explaining why hardware events cannot be opened here. */
const char *probe_no_pmu_reason(void);

/* CPUID vendor, family and model ("AMD family 26 model 2"); "" elsewhere. */
void probe_cpu_model(char *buf, size_t len);
/*
 * Precise memory sampling this machine exports: true with a description
 * ("Intel mem-loads with ldlat, mem-stores"), false with the reason.
 */
bool probe_memory_sampling(char *buf, size_t len);

/* Try opening attr (size set here) for pid/cpu and close it: 0 or the errno. */
int probe_open(struct perf_event_attr *attr, int pid, int cpu);

#endif
