/* topology.c - CPU topology from sysfs (or a fixture tree standing in for it) and libnuma. */
#include "topology.h"

#include <dirent.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static int read_int(const char *path, int *out)
{
	char buf[64];
	long v;

	if (read_text_file(path, buf, sizeof(buf)) < 0 || parse_long(buf, -1, 1L << 30, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* First CPU of a list file ("0,32" -> 0), or -1. */
static int first_of_list(const char *path, int max_cpu)
{
	char buf[4096];

	if (read_text_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return cpu_list_first(buf, max_cpu);
}

/* The LLC of a CPU: the highest-level data or unified cache with a sharing list. */
static int cpu_llc(const char *sys, int cpu, int max_cpu, int *level_out)
{
	char path[512], type[32];
	int best_level = -1, best = -1;

	for (int idx = 0; idx < 16; idx++) {
		int level, first;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/type", sys,
			 cpu, idx);
		if (read_text_file(path, type, sizeof(type)) < 0)
			continue; /* indexes may have gaps */
		if (!strcmp(type, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/level", sys,
			 cpu, idx);
		if (read_int(path, &level) < 0)
			continue;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", sys, cpu, idx);
		first = first_of_list(path, max_cpu);
		if (first >= 0 && level > best_level) {
			best_level = level;
			best = first;
		}
	}
	*level_out = best_level;
	return best;
}

static void load_nodes_sysfs(struct topology *t, const char *sys)
{
	char path[512], buf[4096], err[128];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/devices/system/node", sys);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		long node;
		int *cpus, n;

		if (strncmp(de->d_name, "node", 4) || parse_long(de->d_name + 4, 0, 4095, &node))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/node/%s/cpulist", sys, de->d_name);
		if (read_text_file(path, buf, sizeof(buf)) < 0 || !buf[0])
			continue;
		n = parse_cpu_list(buf, t->ncpus, &cpus, err, sizeof(err));
		for (int i = 0; i < n; i++)
			t->cpu[cpus[i]].node = (int)node;
		if (n > 0)
			free(cpus);
		if (node + 1 > t->nnodes)
			t->nnodes = (int)node + 1;
	}
	closedir(d);
	if (t->nnodes == 0)
		return;
	t->distance = xcalloc((size_t)t->nnodes * (size_t)t->nnodes, sizeof(int));
	for (int a = 0; a < t->nnodes; a++) {
		char *p, *end;
		int b = 0;

		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/distance", sys, a);
		if (read_text_file(path, buf, sizeof(buf)) < 0)
			continue;
		for (p = buf; *p && b < t->nnodes; p = end, b++) {
			long v = strtol(p, &end, 10);

			if (end == p || v < 0 || v > 1000) /* SLIT distances are 10-255 */
				break;
			t->distance[a * t->nnodes + b] = (int)v;
		}
	}
}

static void load_nodes_libnuma(struct topology *t)
{
	t->nnodes = numa_max_node() + 1;
	for (int c = 0; c < t->ncpus; c++) {
		int n = numa_node_of_cpu(c);

		t->cpu[c].node = n < 0 ? 0 : n;
	}
	t->distance = xcalloc((size_t)t->nnodes * (size_t)t->nnodes, sizeof(int));
	for (int a = 0; a < t->nnodes; a++)
		for (int b = 0; b < t->nnodes; b++)
			t->distance[a * t->nnodes + b] = numa_distance(a, b);
}

int topology_load(struct topology *t, const char *root, char *err, size_t errlen)
{
	const bool live = !root || !*root;
	const char *sys = live ? "/sys" : root;
	char path[512], buf[8192];
	int *online, n;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", sys);
	if (read_text_file(path, buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "cannot read %s (is %s a sysfs tree?)", path, sys);
		return -1;
	}
	n = parse_cpu_list(buf, 1 << 16, &online, err, errlen);
	if (n <= 0)
		return -1;
	t->ncpus = online[n - 1] + 1;
	t->nonline = n;
	t->cpu = xcalloc((size_t)t->ncpus, sizeof(*t->cpu));
	for (int c = 0; c < t->ncpus; c++)
		t->cpu[c] = (struct cpu_topo){ false, c, -1, 0, 0, 0 };
	t->llc_known = true;
	t->llc_level = -1;
	for (int i = 0; i < n; i++) {
		int c = online[i], level, v;
		struct cpu_topo *ct = &t->cpu[c];

		ct->present = true;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 sys, c);
		v = first_of_list(path, t->ncpus);
		ct->core = v >= 0 ? v : c;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/physical_package_id",
			 sys, c);
		if (read_int(path, &ct->package) < 0)
			ct->package = 0;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/die_id", sys, c);
		if (read_int(path, &ct->die) < 0)
			ct->die = 0;
		ct->llc = cpu_llc(sys, c, t->ncpus, &level);
		if (ct->llc < 0)
			t->llc_known = false;
		else if (level > t->llc_level)
			t->llc_level = level;
	}
	free(online);
	if (!t->llc_known)
		for (int c = 0; c < t->ncpus; c++)
			t->cpu[c].llc = -1;
	if (live && numa_available() >= 0) {
		load_nodes_libnuma(t);
		snprintf(t->source, sizeof(t->source), "/sys and libnuma");
	} else {
		load_nodes_sysfs(t, sys);
		snprintf(t->source, sizeof(t->source), "%s", sys);
	}
	topology_finish(t);
	return 0;
}

