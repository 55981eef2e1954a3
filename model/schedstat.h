/*
 * schedstat.h - /proc/schedstat (versions 15, 16, 17) as numbers: per CPU the
 * runqueue counters, per CPU and domain the load-balance counters by idle
 * type and the try_to_wake_up() placement counters. Two snapshots give the
 * deltas of a run (the counters only increase).
 */
#ifndef LOCUS_SCHEDSTAT_H
#define LOCUS_SCHEDSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The idle types of load balancing, in locus's order (files differ by version). */
enum ss_idle { SS_BUSY, SS_IDLE, SS_NEWLY_IDLE, SS_IDLE_NR };

/* Load-balance counters of one idle type (v15/16 have one imbalance, v17 four). */
enum ss_lb {
	SS_LB_COUNT,		/* sched_balance_rq() called */
	SS_LB_BALANCED,		/* found no imbalance */
	SS_LB_FAILED,		/* tried to move tasks and failed */
	SS_LB_IMBALANCE,	/* v15/16: sum of imbalances; v17: load imbalance */
	SS_LB_IMB_UTIL,		/* v17 */
	SS_LB_IMB_TASK,		/* v17 */
	SS_LB_IMB_MISFIT,	/* v17 */
	SS_LB_GAINED,		/* tasks pulled */
	SS_LB_HOT_GAINED,	/* ... although cache-hot */
	SS_LB_NOBUSYQ,		/* no busier queue */
	SS_LB_NOBUSYG,		/* a busier queue but no busier group */
	SS_LB_NR
};

/* The counters after the load-balance ones, in file order. */
enum ss_dom {
	SS_ALB_COUNT, SS_ALB_FAILED, SS_ALB_PUSHED,
	SS_SBE_COUNT, SS_SBE_BALANCED, SS_SBE_PUSHED,
	SS_SBF_COUNT, SS_SBF_BALANCED, SS_SBF_PUSHED,
	SS_TTWU_WAKE_REMOTE,	/* woke a task that last ran on another CPU of this domain */
	SS_TTWU_MOVE_AFFINE,	/* moved it to the waking CPU (wake_affine) */
	SS_TTWU_MOVE_BALANCE,	/* started passive balancing */
	SS_DOM_NR
};

/* Runqueue counters of a CPU line, in file order. */
enum ss_cpu {
	SS_YLD_COUNT, SS_LEGACY, SS_SCHED_COUNT, SS_SCHED_GOIDLE, SS_TTWU_COUNT, SS_TTWU_LOCAL,
	SS_RUN_TIME, SS_RUN_DELAY, SS_PCOUNT, SS_CPU_NR
};

struct ss_domain {
	int cpu, level;			/* domain<level> of cpu */
	char name[16];			/* v17: "SMT", "MC", "PKG", "NUMA"; else "" */
	char mask[160];			/* the CPU mask as the file gives it */
	uint64_t lb[SS_IDLE_NR][SS_LB_NR];
	uint64_t d[SS_DOM_NR];
};

struct ss_cpu_stat {
	int cpu;
	uint64_t c[SS_CPU_NR];
};

struct schedstat {
	int version;
	uint64_t timestamp;		/* jiffies */
	struct ss_cpu_stat *cpus;
	int ncpus;
	struct ss_domain *doms;
	int ndoms;
};

/*
 * Parse the text of /proc/schedstat. Returns 0, or -1 with a one-line reason
 * (an unknown version, a malformed line).
 */
int schedstat_parse(const char *text, struct schedstat *s, char *err, size_t len);
/*
 * out = after - before, CPU by CPU and domain by domain (matched by CPU and
 * level). Returns 0, or -1 with why they cannot be compared (another version,
 * other CPUs or domains, a counter that went back).
 */
int schedstat_delta(const struct schedstat *before, const struct schedstat *after,
		    struct schedstat *out, char *err, size_t len);
/* Keep only the CPUs in cpus (and their domains): a run limited with -C. */
void schedstat_keep_cpus(struct schedstat *s, const int *cpus, int n);
void schedstat_release(struct schedstat *s);

/*
 * A domain's counters after its mask in the file's column order for a version
 * (perf's PERF_RECORD_SCHEDSTAT_DOMAIN keeps the same order): how many, and
 * to and from that order.
 */
int schedstat_dom_ncols(int version);
void schedstat_dom_cols(const struct ss_domain *d, int version, uint64_t *cols);
void schedstat_dom_from_cols(struct ss_domain *d, int version, const uint64_t *cols);
void schedstat_add_domain(struct schedstat *s, const struct ss_domain *d);

/* Names: "busy", "idle", "newly_idle"; the counters' JSON keys. */
const char *ss_idle_name(enum ss_idle i);
/* The key of a load-balance counter in a version (v17 calls the imbalance its load's). */
const char *ss_lb_key(enum ss_lb k, int version);
const char *ss_dom_key(enum ss_dom k);
const char *ss_cpu_key(enum ss_cpu k);
/* Whether a load-balance counter exists in a version (the v17 imbalance split). */
bool ss_lb_in_version(enum ss_lb k, int version);

#endif
