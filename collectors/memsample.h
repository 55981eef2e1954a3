/* memsample.h - precise memory samples (Intel mem-loads/mem-stores, AMD ibs_op) per CPU. */
#ifndef LOCUS_MEMSAMPLE_H
#define LOCUS_MEMSAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/u64map.h"
#include "../model/event.h"
#include "pmu_event.h"
#include "sample.h"

struct perf_evlist;
struct perf_cpu_map;
struct perf_thread_map;

struct mem_collector {
	struct perf_evlist *lists[2];	/* [mem-loads-aux, mem-loads] as a group; mem-stores */
	int nlists;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct mem_plan plan;		/* the attributes as opened (precise level found) */
	struct u64map ids;		/* a recording's: the kernel's ids -> plan index */
	struct sample_layout layout;	/* the samples' (every event of a plan has the same) */
	uint64_t samples, lost, undecodable;
};

/*
 * For a recording (perf.data), samples start with PERF_SAMPLE_IDENTIFIER,
 * other records end with sample_id_all's fields, and the first event reports
 * mmaps (code and data), so the file names what the samples touched. Applied
 * to a plan's attributes by mem_open, and by tests to fixture plans.
 */
void mem_plan_for_record(struct mem_plan *p);

/* A raw record from a memory ring: plan index of its event (-1: unknown, e.g. LOST). */
typedef void (*mem_raw_fn)(void *ctx, const void *rec, int idx);

/*
 * Plan from sysfs and open the memory-sampling events on every CPU (or cpus),
 * with ring buffers of pages each. Returns 0, or -1 with a one-line reason.
 */
int mem_open(struct mem_collector *m, const int *cpus, int ncpus, int pages, bool record,
	     char *err, size_t len);
void mem_enable(struct mem_collector *m);
void mem_disable(struct mem_collector *m);
/* Drain every ring once, handing EV_MEM (and EV_LOST) events to fn. */
void mem_read(struct mem_collector *m, event_fn fn, void *ctx);
/* Drain every ring once as raw records (opened for a recording). */
void mem_read_raw(struct mem_collector *m, mem_raw_fn fn, void *ctx);
void mem_close(struct mem_collector *m);

#endif
