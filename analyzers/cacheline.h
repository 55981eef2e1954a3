/* cacheline.h - memory samples grouped by cacheline and offset: HITM, sharing verdicts. */
#ifndef LOCUS_CACHELINE_H
#define LOCUS_CACHELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/topology.h"
#include "../model/event.h"
#include "../common/u64map.h"
#include "datasrc.h"

#define CL_SET_MAX 8	/* distinct threads, CPUs or code addresses kept per offset */

/* A small counted set: the first CL_SET_MAX distinct values, and how many more. */
struct cl_set {
	uint64_t v[CL_SET_MAX];
	uint64_t n[CL_SET_MAX];
	int len;
	uint64_t more;		/* samples of values beyond the first CL_SET_MAX */
};

struct cl_offset {
	uint32_t offset;
	struct mem_stats st;
	uint64_t lat_sum, lat_n;	/* load latency (weight), cycles */
	struct cl_set tids, cpus, ips;
	struct cl_set writers;		/* threads that stored here */
	uint64_t nodes;			/* bit per node that touched it (nodes 0-63) */
};

enum cl_verdict {
	CL_FALSE_SHARING,	/* different offsets written by different threads */
	CL_TRUE_SHARING,	/* one offset written by several threads */
	CL_BOTH,		/* both */
	CL_READ_MOSTLY,		/* loads, (almost) no stores */
	CL_PRIVATE,		/* written by one thread */
	CL_TOO_FEW,		/* fewer samples than cfg.min_samples: no verdict */
	CL_VERDICT_NR
};

struct cl_line {
	uint64_t addr;			/* line address */
	struct mem_stats st;
	struct cl_offset *off;		/* sorted by offset after cacheline_finish */
	int noff, cap;
	enum cl_verdict verdict;
	uint64_t nodes;
};

enum cl_sort { CL_SORT_TOTAL, CL_SORT_LOCAL, CL_SORT_REMOTE };

/*
 * A line sampled once, kept as its one sample until a second comes: most lines of a
 * big recording are touched once, and a full line with its offset takes about 1 KB.
 */
struct cl_single {
	uint64_t addr;			/* line address */
	uint64_t data_src, ip, weight;
	uint32_t offset;
	int32_t tid, cpu;
	uint32_t flags;			/* CL_S_*: what its sample was, found once at add */
};
enum { CL_S_LCL_HITM = 1, CL_S_RMT_HITM = 2, CL_S_STORE = 4 };

/* After cacheline_finish, at least this many lines of the ranking are in lines[]. */
#define CL_DETAILED 256

struct cacheline_cfg {
	const struct topology *topo;	/* CPU -> node, may be NULL */
	unsigned line_size;		/* 64 or 128 */
	enum cl_sort sort;
	unsigned min_samples;		/* a line needs this many samples for a verdict (0: 1) */
};

/* What the reports ask of a line before they judge it. */
#define CL_MIN_SAMPLES 8

struct cacheline {
	struct cacheline_cfg cfg;
	struct u64map idx;		/* line address -> index */
	struct cl_line *lines;		/* lines with details (after finish: the ranking's head) */
	int nlines, cap;
	struct cl_single *singles;	/* lines sampled once (after finish: the ranking's tail,
					 * by address; every one has no HITM and one sample) */
	int nsingles, cap_singles;
	struct mem_stats total;		/* every sample, placed or not */
	uint64_t placed;		/* samples with a line */
};

void cacheline_init(struct cacheline *c, const struct cacheline_cfg *cfg);
/* Add an EV_MEM event; other types are ignored. */
void cacheline_add(struct cacheline *c, const struct event *e);
/* Sort lines by HITM (cfg.sort), offsets by offset, and decide each verdict. */
void cacheline_finish(struct cacheline *c);
void cacheline_release(struct cacheline *c);
/* Every line: detailed and sampled once. */
int cacheline_count(const struct cacheline *c);

const char *cl_verdict_name(enum cl_verdict v);	/* "false_sharing", ... (JSON) */
/* The verdict in words: "false sharing: +0x0 written by tid 2101 on node 0 and +0x8 ..." */
void cl_verdict_text(const struct cacheline *c, const struct cl_line *l, char *buf, size_t len);

/* One line in brief, for a live view. */
struct cl_summary {
	uint64_t addr;
	uint64_t hitm, local_hitm, remote_hitm, loads, stores;
	int noffsets;
	uint64_t writers;	/* writer threads, summed over offsets (up to CL_SET_MAX each) */
};

/*
 * The top max lines by HITM (then stores) while samples still arrive: the
 * lines are not re-sorted, so cacheline_add may go on. Returns how many.
 */
int cacheline_top(const struct cacheline *c, struct cl_summary *out, int max);

/* Sort key of a line. */
uint64_t cl_line_hitm(const struct cacheline *c, const struct cl_line *l);

#endif
