/* memsample.h - precise memory samples (Intel mem-loads/mem-stores, AMD ibs_op) per CPU. */
#ifndef LOCUS_MEMSAMPLE_H
#define LOCUS_MEMSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "../model/event.h"
#include "pmu_event.h"

struct perf_evlist;
struct perf_cpu_map;
struct perf_thread_map;

struct mem_collector {
	struct perf_evlist *lists[2];	/* [mem-loads-aux, mem-loads] as a group; mem-stores */
	int nlists;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct mem_plan plan;
	uint64_t samples, lost, undecodable;
};

/*
 * Plan from sysfs and open the memory-sampling events on every CPU (or cpus),
 * with ring buffers of pages each. Returns 0, or -1 with a one-line reason.
 */
int mem_open(struct mem_collector *m, const int *cpus, int ncpus, int pages, char *err,
	     size_t len);
void mem_enable(struct mem_collector *m);
void mem_disable(struct mem_collector *m);
/* Drain every ring once, handing EV_MEM (and EV_LOST) events to sink. */
void mem_read(struct mem_collector *m, event_sink sink, void *ctx);
void mem_close(struct mem_collector *m);

#endif
