/* pd_features.c - perf.data feature sections: the recording machine, its CPUs and formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "perfdata.h"
#include "topology.h"

/* CPU x CPU matrices are dense: 4096 CPUs is 384 MiB of them; a file claiming more is refused */
#define MAX_CPUS 4096

struct fcur {
	const uint8_t *p;
	size_t len, off;
	uint64_t base;
	struct pd_file *f;
	int feat;
};

static int fbad(struct fcur *c, const char *what)
{
	snprintf(c->f->err, sizeof(c->f->err), "feature %d: %s at offset %llu", c->feat, what,
		 (unsigned long long)(c->base + c->off));
	return -1;
}

static int get32(struct fcur *c, uint32_t *v)
{
	if (c->len - c->off < 4)
		return fbad(c, "truncated");
	memcpy(v, c->p + c->off, 4);
	c->off += 4;
	return 0;
}

static int get64(struct fcur *c, uint64_t *v)
{
	if (c->len - c->off < 8)
		return fbad(c, "truncated");
	memcpy(v, c->p + c->off, 8);
	c->off += 8;
	return 0;
}

/* perf_header_string: u32 len, then len bytes holding a NUL-terminated string. */
static int get_str(struct fcur *c, char *out, size_t max)
{
	uint32_t n;
	size_t copy;

	if (get32(c, &n) < 0)
		return -1;
	if (n > c->len - c->off)
		return fbad(c, "string runs past the section");
	copy = strnlen((const char *)c->p + c->off, n);
	if (copy >= max)
		copy = max - 1;
	memcpy(out, c->p + c->off, copy);
	out[copy] = '\0';
	c->off += n;
	return 0;
}

/* Apply fn's value to every CPU of a list. */
static int each_cpu(struct pd_file *f, const char *list, int which, int value)
{
	int *cpus, n;
	char err[128];

	n = parse_cpu_list(list, f->nr_cpus_avail, &cpus, err, sizeof(err));
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		struct pd_cpu *pc = &f->cpus[cpus[i]];

		if (which == 0)
			pc->core_group = value;
		else if (which == 1)
			pc->socket = value;
		else if (which == 2)
			pc->node = value;
		else
			pc->llc_group = value;
	}
	free(cpus);
	return 0;
}

static int nrcpus(struct fcur *c)
{
	struct pd_file *f = c->f;
	uint32_t avail, online;

	if (get32(c, &avail) < 0 || get32(c, &online) < 0)
		return -1;
	if (avail > MAX_CPUS)
		return fbad(c, "the file claims more than 4096 CPUs, more than locus handles");
	if (avail == 0 || online > avail)
		return fbad(c, "bad CPU count");
	f->nr_cpus_avail = (int)avail;
	f->nr_cpus_online = (int)online;
	free(f->cpus);
	f->cpus = xcalloc(avail, sizeof(*f->cpus));
	for (uint32_t i = 0; i < avail; i++)
		f->cpus[i] = (struct pd_cpu){ -1, 0, 0, 0, -1 };
	return 0;
}

static int cpu_topology(struct fcur *c)
{
	struct pd_file *f = c->f;
	char list[4096];
	uint32_t n;

	if (!f->cpus)
		return fbad(c, "CPU topology without NRCPUS");
	if (get32(c, &n) < 0 || n > MAX_CPUS)
		return fbad(c, "bad socket list count");
	for (uint32_t i = 0; i < n; i++) /* "sibling sockets": one list per package */
		if (get_str(c, list, sizeof(list)) < 0 || each_cpu(f, list, 1, (int)i) < 0)
			return fbad(c, "bad socket CPU list");
	if (get32(c, &n) < 0 || n > MAX_CPUS)
		return fbad(c, "bad thread list count");
	for (uint32_t i = 0; i < n; i++) {
		if (get_str(c, list, sizeof(list)) < 0)
			return -1;
		if (each_cpu(f, list, 0, cpu_list_first(list, f->nr_cpus_avail)) < 0)
			return fbad(c, "bad thread-siblings CPU list");
	}
	/* second revision: core and socket id per CPU */
	if (c->len - c->off >= (size_t)f->nr_cpus_avail * 8) {
		for (int i = 0; i < f->nr_cpus_avail; i++) {
			uint32_t core, socket;

			get32(c, &core);
			get32(c, &socket);
			if (socket < MAX_CPUS)
				f->cpus[i].socket = (int)socket;
		}
	}
	f->have_topology = true;
	return 0;
}

static int numa_topology(struct fcur *c)
{
	struct pd_file *f = c->f;
	char list[4096];
	uint32_t n, node;
	uint64_t mem;

	if (!f->cpus)
		return fbad(c, "NUMA topology without NRCPUS");
	if (get32(c, &n) < 0 || n > 4096)
		return fbad(c, "bad node count");
	for (uint32_t i = 0; i < n; i++) {
		if (get32(c, &node) < 0 || get64(c, &mem) < 0 || get64(c, &mem) < 0 ||
		    get_str(c, list, sizeof(list)) < 0)
			return -1;
		if (node > 4095)
			return fbad(c, "bad node number");
		if (list[0] && each_cpu(f, list, 2, (int)node) < 0)
			return fbad(c, "bad node CPU list");
	}
	f->have_numa = true;
	return 0;
}

static int cache(struct fcur *c)
{
	struct pd_file *f = c->f;
	char type[32], size[32], map[4096];
	uint32_t version, n, level, v;
	int best = -1;

	if (!f->cpus)
		return fbad(c, "cache description without NRCPUS");
	if (get32(c, &version) < 0 || get32(c, &n) < 0 || n > 65536)
		return fbad(c, "bad cache count");
	/* two passes: find the last level, then apply its maps */
	for (int pass = 0; pass < 2; pass++) {
		size_t start = c->off;

		for (uint32_t i = 0; i < n; i++) {
			if (get32(c, &level) < 0 || get32(c, &v) < 0 || get32(c, &v) < 0 ||
			    get32(c, &v) < 0 || get_str(c, type, sizeof(type)) < 0 ||
			    get_str(c, size, sizeof(size)) < 0 || get_str(c, map, sizeof(map)) < 0)
				return -1;
			if (!strcmp(type, "Instruction"))
				continue;
			if (pass == 0 && (int)level > best)
				best = (int)level;
			else if (pass == 1 && (int)level == best &&
				 each_cpu(f, map, 3, cpu_list_first(map, f->nr_cpus_avail)) < 0)
				return fbad(c, "bad cache CPU map");
		}
		if (pass == 0)
			c->off = start;
	}
	f->llc_level = best;
	f->have_cache = best > 0;
	return 0;
}

/* locus record's "... [workload pid N]": the pid kept, the mark left out of the line. */
static void workload_of(struct pd_file *f)
{
	char *m = strstr(f->cmdline, " " PD_WORKLOAD_MARK);
	long pid;
	char *end;

	if (!m)
		return;
	pid = strtol(m + 1 + strlen(PD_WORKLOAD_MARK), &end, 10);
	if (pid <= 0 || pid > (1L << 22) || strcmp(end, "]"))
		return;
	f->workload_pid = (int32_t)pid;
	*m = '\0';
	/* record -p's "... [added pids 10,11]" just before it */
	m = strstr(f->cmdline, " " PD_ADDED_MARK);
	if (!m)
		return;
	end = m + 1 + strlen(PD_ADDED_MARK);
	for (int n = 0; n < PD_ADDED_MAX; n++) {
		pid = strtol(end, &end, 10);
		if (pid <= 0 || pid > (1L << 22) || (*end != ',' && *end != ']'))
			break;
		f->added_pids[f->nadded++] = (int32_t)pid;
		if (*end++ == ']') {
			if (*end == '\0')
				*m = '\0';
			break;
		}
	}
}

static int cmdline(struct fcur *c)
{
	struct pd_file *f = c->f;
	char arg[1024];
	uint32_t n;
	size_t o = 0;

	if (get32(c, &n) < 0 || n > 65536)
		return fbad(c, "bad argument count");
	for (uint32_t i = 0; i < n; i++) {
		if (get_str(c, arg, sizeof(arg)) < 0)
			return -1;
		o += (size_t)snprintf(f->cmdline + o, sizeof(f->cmdline) - o, "%s%s", i ? " " : "",
				      arg);
		if (o >= sizeof(f->cmdline))
			o = sizeof(f->cmdline) - 1;
	}
	workload_of(f);
	return 0;
}

static int event_desc(struct fcur *c)
{
	struct pd_file *f = c->f;
	uint32_t n, asize, nids;
	char name[128];

	if (get32(c, &n) < 0 || get32(c, &asize) < 0 || n > 4096 || asize > 4096)
		return fbad(c, "bad event description");
	for (uint32_t i = 0; i < n; i++) {
		uint64_t id = 0;

		if (asize > c->len - c->off)
			return fbad(c, "truncated event description");
		c->off += asize;
		if (get32(c, &nids) < 0 || get_str(c, name, sizeof(name)) < 0)
			return -1;
		if (nids > (c->len - c->off) / 8)
			return fbad(c, "bad id count");
		if (nids)
			memcpy(&id, c->p + c->off, 8);
		c->off += (size_t)nids * 8;
		/* name the attribute with that id, else the one at that position */
		for (int a = 0; a < f->nattrs; a++) {
			bool match = nids ? (f->attrs[a].nids && f->attrs[a].ids[0] == id) : a == (int)i;

			if (match)
				snprintf(f->attrs[a].name, sizeof(f->attrs[a].name), "%s", name);
		}
	}
	return 0;
}

int pd_parse_feature(struct pd_file *f, int feat, const uint8_t *p, size_t len, uint64_t off)
{
	struct fcur c = { p, len, 0, off, f, feat };

	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		free(f->tracing_data);
		f->tracing_data = xmalloc(len ? len : 1);
		memcpy(f->tracing_data, p, len);
		f->tracing_len = len;
		return 0;
	case PD_FEAT_HOSTNAME:
		return get_str(&c, f->hostname, sizeof(f->hostname));
	case PD_FEAT_OSRELEASE:
		return get_str(&c, f->osrelease, sizeof(f->osrelease));
	case PD_FEAT_ARCH:
		return get_str(&c, f->arch, sizeof(f->arch));
	case PD_FEAT_NRCPUS:
		return nrcpus(&c);
	case PD_FEAT_CMDLINE:
		return cmdline(&c);
	case PD_FEAT_EVENT_DESC:
		return event_desc(&c);
	case PD_FEAT_CPU_TOPOLOGY:
		return cpu_topology(&c);
	case PD_FEAT_NUMA_TOPOLOGY:
		return numa_topology(&c);
	case PD_FEAT_CACHE:
		return cache(&c);
	case PD_FEAT_LOCUS_END: {
		uint32_t version, err;

		if (get32(&c, &version) < 0 || get32(&c, &err) < 0 || get64(&c, &f->end_kept) < 0 ||
		    get64(&c, &f->end_unwritten) < 0)
			return -1;
		f->end_missing = true;
		f->end_errno = (int)err;
		return 0;
	}
	default:
		return 0; /* features locus does not use are skipped */
	}
}

int pd_topology(const struct pd_file *f, struct topology *t)
{
	if (!f->have_topology || !f->cpus)
		return -1;
	memset(t, 0, sizeof(*t));
	t->ncpus = f->nr_cpus_avail;
	t->cpu = xcalloc((size_t)t->ncpus, sizeof(*t->cpu));
	t->llc_known = f->have_cache;
	t->llc_level = f->llc_level;
	for (int c = 0; c < t->ncpus; c++) {
		const struct pd_cpu *pc = &f->cpus[c];
		struct cpu_topo *ct = &t->cpu[c];

		ct->present = pc->core_group >= 0;
		ct->core = pc->core_group >= 0 ? pc->core_group : c;
		ct->llc = f->have_cache ? pc->llc_group : -1;
		ct->package = pc->socket;
		ct->die = pc->die;
		ct->node = f->have_numa ? pc->node : 0;
		if (ct->present) {
			t->nonline++;
			if (ct->llc < 0)
				t->llc_known = false;
			if (ct->node + 1 > t->nnodes)
				t->nnodes = ct->node + 1;
		}
	}
	if (!t->llc_known)
		for (int c = 0; c < t->ncpus; c++)
			t->cpu[c].llc = -1;
	snprintf(t->source, sizeof(t->source), "from the file: %s",
		 f->hostname[0] ? f->hostname : "the recording machine");
	topology_finish(t);
	return 0;
}
