/* topology.h - the topology model: each CPU's core, LLC, package and node, and the class of
 * any CPU pair. Loaders (sysfs, libnuma, perf.data features) live in collectors/. */
#ifndef LOCUS_MODEL_TOPOLOGY_H
#define LOCUS_MODEL_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

/* What two CPUs share, nearest first. */
enum locality {
	LOC_SAME_CPU,
	LOC_SMT,	/* SMT siblings: one core */
	LOC_LLC,	/* different cores sharing the last-level cache */
	LOC_NODE,	/* same NUMA node, no shared LLC (or LLC sharing unknown) */
	LOC_REMOTE,	/* different NUMA nodes */
	LOC_NR
};

struct cpu_topo {
	bool present;	/* listed online (fixtures: in "online") */
	int core;	/* first CPU of its SMT sibling list: one id per core */
	int llc;	/* first CPU of its LLC's shared_cpu_list, or -1 when unknown */
	int package;
	int die;
	int node;
};

struct topology {
	int ncpus;		/* highest CPU number + 1 */
	int nonline;
	struct cpu_topo *cpu;	/* ncpus entries */
	bool llc_known;		/* every online CPU has an LLC group */
	int llc_level;		/* cache level used as the LLC (3, or 2 on a Core 2 Quad) */
	int nnodes;		/* highest node number + 1 */
	int *distance;		/* nnodes x nnodes, from SLIT; 0 when unknown */
	int ncores, nllcs, npackages; /* distinct groups among online CPUs */
	char source[320];	/* where it came from: "sysfs /sys + libnuma", a fixture path */
};

void topology_release(struct topology *t);

/* The class of a CPU pair; CPUs outside the topology count as remote (inline: the
 * analyzers ask it for every wakeup). */
static inline enum locality topology_class(const struct topology *t, int a, int b)
{
	const struct cpu_topo *x, *y;

	if (a == b)
		return LOC_SAME_CPU;
	if (a < 0 || b < 0 || a >= t->ncpus || b >= t->ncpus)
		return LOC_REMOTE;
	x = &t->cpu[a];
	y = &t->cpu[b];
	if (x->core == y->core)
		return LOC_SMT;
	if (t->llc_known && x->llc >= 0 && x->llc == y->llc)
		return LOC_LLC;
	if (x->node == y->node)
		return LOC_NODE;
	return LOC_REMOTE;
}

/*
 * Whether the topology tells class c apart: not the LLC where it is unknown (pairs
 * that share one count as same node there). A report shows no row, key or figure for
 * a class the topology cannot tell.
 */
static inline bool topology_knows(const struct topology *t, enum locality c)
{
	return c != LOC_LLC || !t || t->llc_known;
}

/* Short names: "same_cpu", "smt", "llc", "node", "remote" (the JSON keys). */
const char *locality_name(enum locality c);
/* Words for reports: "same CPU", "SMT sibling", "shared LLC", "same node", "other node". */
const char *locality_label(enum locality c);

/*
 * locality_label with what the class holds on t: "same node (LLC unknown)" where
 * the LLC is unknown.
 */
const char *topology_class_label(const struct topology *t, enum locality c);
/* The widest topology_class_label of the classes t knows, at least min. */
int topology_class_width(const struct topology *t, int min);

/* Group id of cpu at a level: LOC_SMT = core, LOC_LLC = LLC (-1 where it is unknown),
 * LOC_NODE = node. */
int topology_group(const struct topology *t, int cpu, enum locality level);

/*
 * The online CPUs folded into at most max_groups groups: per CPU if they fit,
 * else per core, per LLC, then per node (the last whatever its size).
 */
struct topo_fold {
	int n;			/* groups */
	enum locality level;	/* LOC_SAME_CPU (per CPU), LOC_SMT (core), LOC_LLC, LOC_NODE */
	int *index;		/* per CPU: its group, -1 when offline */
	int *first;		/* per group: its first CPU */
	char unit[16];		/* "CPU", "core", "LLC", "node" */
	char (*label)[16];	/* per group: "3", "c3", "L32", "N1" */
};

void topology_fold(struct topo_fold *f, const struct topology *t, int max_groups);
void topology_fold_release(struct topo_fold *f);

/* Count cores, LLCs and packages after filling cpu[] by hand. */
void topology_finish(struct topology *t);

/* Build a topology from arrays (tests): core/llc/node per CPU; llc may be NULL. */
void topology_from_arrays(struct topology *t, int ncpus, const int *core, const int *llc,
			  const int *node);

#endif
