/* topology.c - the topology model: classes of CPU pairs, groups, counts (no I/O). */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static const char *const loc_names[LOC_NR] = { "same_cpu", "smt", "llc", "node", "remote" };
static const char *const loc_labels[LOC_NR] = { "same CPU", "SMT sibling", "shared LLC",
						"same node", "other node" };

const char *locality_name(enum locality c)
{
	return c < LOC_NR ? loc_names[c] : "?";
}

const char *locality_label(enum locality c)
{
	return c < LOC_NR ? loc_labels[c] : "?";
}

static int count_distinct(const struct topology *t, int which)
{
	char *seen = xcalloc((size_t)t->ncpus + 1, 1);
	int n = 0;

	for (int c = 0; c < t->ncpus; c++) {
		const struct cpu_topo *ct = &t->cpu[c];
		int id = which == 0 ? ct->core : which == 1 ? ct->llc : -1;

		if (!ct->present)
			continue;
		if (which == 2) {
			/* packages are not CPU numbers: count first occurrences */
			bool dup = false;

			for (int d = 0; d < c && !dup; d++)
				dup = t->cpu[d].present && t->cpu[d].package == ct->package;
			n += !dup;
			continue;
		}
		if (id >= 0 && id < t->ncpus && !seen[id]) {
			seen[id] = 1;
			n++;
		}
	}
	free(seen);
	return n;
}

void topology_finish(struct topology *t)
{
	t->ncores = count_distinct(t, 0);
	t->nllcs = t->llc_known ? count_distinct(t, 1) : 0;
	t->npackages = count_distinct(t, 2);
	if (t->nnodes == 0)
		t->nnodes = 1;
}

void topology_from_arrays(struct topology *t, int ncpus, const int *core, const int *llc,
			  const int *node)
{
	memset(t, 0, sizeof(*t));
	t->ncpus = t->nonline = ncpus;
	t->cpu = xcalloc((size_t)ncpus, sizeof(*t->cpu));
	t->llc_known = llc != NULL;
	t->llc_level = llc ? 3 : -1;
	for (int c = 0; c < ncpus; c++) {
		t->cpu[c] = (struct cpu_topo){ true, core[c], llc ? llc[c] : -1, node[c], 0, node[c] };
		if (node[c] + 1 > t->nnodes)
			t->nnodes = node[c] + 1;
	}
	snprintf(t->source, sizeof(t->source), "arrays");
	topology_finish(t);
}

void topology_release(struct topology *t)
{
	free(t->cpu);
	free(t->distance);
	memset(t, 0, sizeof(*t));
}

enum locality topology_class(const struct topology *t, int a, int b)
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

int topology_group(const struct topology *t, int cpu, enum locality level)
{
	if (cpu < 0 || cpu >= t->ncpus)
		return -1;
	switch (level) {
	case LOC_SMT:
		return t->cpu[cpu].core;
	case LOC_LLC:
		return t->llc_known ? t->cpu[cpu].llc : t->cpu[cpu].node;
	case LOC_NODE:
		return t->cpu[cpu].node;
	default:
		return cpu;
	}
}
