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

const char *topology_class_label(const struct topology *t, enum locality c)
{
	if (c == LOC_NODE && t && !t->llc_known)
		return "same node (LLC unknown)";
	return locality_label(c);
}

int topology_class_width(const struct topology *t, int min)
{
	int w = min;

	for (int c = 0; c < LOC_NR; c++)
		if (topology_knows(t, (enum locality)c) &&
		    (int)strlen(topology_class_label(t, (enum locality)c)) > w)
			w = (int)strlen(topology_class_label(t, (enum locality)c));
	return w;
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

int topology_group(const struct topology *t, int cpu, enum locality level)
{
	if (cpu < 0 || cpu >= t->ncpus)
		return -1;
	switch (level) {
	case LOC_SMT:
		return t->cpu[cpu].core;
	case LOC_LLC:
		return t->llc_known ? t->cpu[cpu].llc : -1;
	case LOC_NODE:
		return t->cpu[cpu].node;
	default:
		return cpu;
	}
}

static int group_of(const struct topology *t, int cpu, enum locality level)
{
	return level == LOC_SAME_CPU ? cpu : topology_group(t, cpu, level);
}

/* Number of distinct groups at a level among online CPUs; fills index and first. */
static int fold_at(const struct topology *t, enum locality level, int *index, int *first)
{
	int n = 0;

	for (int c = 0; c < t->ncpus; c++) {
		int g;

		index[c] = -1;
		if (!t->cpu[c].present)
			continue;
		g = group_of(t, c, level);
		for (int d = 0; d < c; d++)
			if (t->cpu[d].present && group_of(t, d, level) == g) {
				index[c] = index[d];
				break;
			}
		if (index[c] < 0) {
			first[n] = c;
			index[c] = n++;
		}
	}
	return n;
}

void topology_fold(struct topo_fold *f, const struct topology *t, int max_groups)
{
	static const enum locality levels[] = { LOC_SAME_CPU, LOC_SMT, LOC_LLC, LOC_NODE };
	static const char *const units[] = { "CPU", "core", "LLC", "node" };
	static const char prefix[] = { 0, 'c', 'L', 'N' };
	size_t li;

	memset(f, 0, sizeof(*f));
	f->index = xcalloc((size_t)t->ncpus + 1, sizeof(int));
	f->first = xcalloc((size_t)t->ncpus + 1, sizeof(int));
	/* the finest level that fits; the last (nodes) whatever its size */
	for (li = 0; li + 1 < ARRAY_SIZE(levels); li++) {
		if (levels[li] == LOC_LLC && !t->llc_known)
			continue;
		f->n = fold_at(t, levels[li], f->index, f->first);
		if (f->n <= max_groups)
			break;
	}
	if (li + 1 == ARRAY_SIZE(levels))
		f->n = fold_at(t, levels[li], f->index, f->first);
	f->level = levels[li];
	snprintf(f->unit, sizeof(f->unit), "%s", units[li]);
	f->label = xcalloc((size_t)f->n + 1, sizeof(*f->label));
	for (int g = 0; g < f->n; g++) {
		int c = f->first[g];
		int id = levels[li] == LOC_NODE ? t->cpu[c].node : c;

		if (prefix[li])
			snprintf(f->label[g], sizeof(f->label[g]), "%c%d", prefix[li], id);
		else
			snprintf(f->label[g], sizeof(f->label[g]), "%d", id);
	}
}

void topology_fold_release(struct topo_fold *f)
{
	free(f->index);
	free(f->first);
	free(f->label);
	memset(f, 0, sizeof(*f));
}
