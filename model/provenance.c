/* provenance.c - names of sources, scopes and delay resolutions; comparing two provenances. */
#include "provenance.h"

#include "topology.h"
#include "../common/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const source_names[PROV_NR] = { "none", "perf ring buffers",
						   "BPF in the kernel", "perf.data replay" };
static const char *const source_keys[PROV_NR] = { "none", "perf", "bpf", "replay" };
static const char *const scope_keys[SCOPE_NR] = { "workload", "pid", "system", "all" };
static const char *const delay_keys[DELAY_NR] = { "none", "log-linear", "log2" };

const char *prov_source_name(enum prov_source s)
{
	return s < PROV_NR ? source_names[s] : "?";
}

const char *prov_source_key(enum prov_source s)
{
	return s < PROV_NR ? source_keys[s] : "?";
}

static int by_key(const char *const *keys, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return i;
	return -1;
}

int prov_source_by_key(const char *key)
{
	return by_key(source_keys, PROV_NR, key);
}

const char *prov_scope_key(enum prov_scope s)
{
	return s < SCOPE_NR ? scope_keys[s] : "?";
}

int prov_scope_by_key(const char *key)
{
	return by_key(scope_keys, SCOPE_NR, key);
}

const char *prov_delay_key(enum prov_delay d)
{
	return d < DELAY_NR ? delay_keys[d] : "?";
}

int prov_delay_by_key(const char *key)
{
	return by_key(delay_keys, DELAY_NR, key);
}

const char *prov_scope_text(const struct provenance *p, char *buf, size_t len)
{
	switch (p->scope) {
	case SCOPE_WORKLOAD:
		if (p->nadded) {
			size_t o = (size_t)snprintf(buf, len, "the workload's tasks and pid");

			for (int i = 0; i < p->nadded && o < len; i++)
				o += (size_t)snprintf(buf + o, len - o, "%s %d", i ? "," : "",
						      p->added[i]);
			if (o < len)
				snprintf(buf + o, len - o, "'s");
		} else {
			snprintf(buf, len, "the workload's tasks");
		}
		break;
	case SCOPE_PID:
		snprintf(buf, len, "process %d and its new children", p->scope_pid);
		break;
	case SCOPE_SYSTEM:
		snprintf(buf, len, "every task but locus (system-wide)");
		break;
	default:
		if (p->scope_pid)
			snprintf(buf, len, "task tree of pid %d", p->scope_pid);
		else
			snprintf(buf, len, "every task in the file");
		break;
	}
	return buf;
}

const char *prov_end_text(const struct provenance *p, char *buf, size_t len)
{
	char n[32], u[32], w[32];

	fmt_count(p->end_records, n, sizeof(n));
	if (p->end == PROV_END_CUT)
		snprintf(buf, len, "cut short at %.2f s: %s records read (the recording never "
			 "finished: killed, or the machine stopped; read to its last whole record)",
			 p->end_at_s, n);
	else if (p->end == PROV_END_WRITE)
		snprintf(buf, len, "the end is missing: %s at %.2f s (%s; %s records not written): "
			 "%s records read",
			 p->end_errno == ENOSPC ? "disk full" : p->end_errno == EDQUOT ?
			 "quota exceeded" : "a write failed", p->end_at_s, strerror(p->end_errno),
			 fmt_count(p->end_unwritten, u, sizeof(u)), n);
	else if (p->end == PROV_END_COPY && p->end_data_bytes >= p->end_data_want)
		snprintf(buf, len, "the file is cut short after its data: %s records read, all "
			 "its %s of data; what followed the data is missing (a partial copy, "
			 "or a disk full while copying)", n,
			 fmt_bytes(p->end_data_want, w, sizeof(w)));
	else if (p->end == PROV_END_COPY)
		snprintf(buf, len, "the file is cut short at %.2f s: %s records read, %s of its "
			 "%s of data its header says (a partial copy, or a disk full while "
			 "copying; read to its last whole record)", p->end_at_s, n,
			 fmt_bytes(p->end_data_bytes, u, sizeof(u)),
			 fmt_bytes(p->end_data_want, w, sizeof(w)));
	else
		buf[0] = '\0';
	return buf;
}

const char *prov_delay_text(enum prov_delay d)
{
	switch (d) {
	case DELAY_LOGLIN:
		return "exact, kept in log-linear buckets of 1/16 of a power of two";
	case DELAY_LOG2:
		return "power-of-two buckets (percentiles are bucket midpoints)";
	default:
		return "none measured";
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void prov_set_cpus(struct provenance *p, const struct topology *topo, const int *cpus, int n)
{
	int *on = xcalloc((size_t)(cpus ? n : topo->ncpus) + 1, sizeof(int)), k = 0;

	if (cpus) {
		memcpy(on, cpus, (size_t)n * sizeof(int));
		qsort(on, (size_t)n, sizeof(int), cmp_int);
		k = n;
	} else {
		for (int c = 0; c < topo->ncpus; c++)
			if (topo->cpu[c].present)
				on[k++] = c;
	}
	fmt_cpu_list(on, k, p->cpus_honored, sizeof(p->cpus_honored));
	snprintf(p->cpus_asked, sizeof(p->cpus_asked), "%s", cpus ? p->cpus_honored : "all");
	p->ncpus_honored = k;
	free(on);
}

/* "BPF in the kernel, power-of-two delays timed at most 5000/s per CPU, CPUs 0" */
static void describe(const struct provenance *p, char *buf, size_t len)
{
	char rate[48] = "";

	if (p->sample_every > 1)
		snprintf(rate, sizeof(rate), " timed 1 in %u (--delay-rate %ld)", p->sample_every,
			 p->delay_rate);
	else if (p->delay_rate)
		snprintf(rate, sizeof(rate), " timed at most %ld/s per CPU", p->delay_rate);
	snprintf(buf, len, "%s, %s delays%s, CPUs %s, %s", prov_source_key(p->source),
		 prov_delay_key(p->delay), rate, p->cpus_honored[0] ? p->cpus_honored : "?",
		 prov_scope_key(p->scope));
}

bool prov_affinity_differs(const struct provenance *base, const struct provenance *cur, char *buf,
			   size_t len)
{
	bool differs = base->affinity[0] && cur->affinity[0] && strcmp(base->affinity, cur->affinity);

	if (len)
		buf[0] = '\0';
	if (differs && len)
		snprintf(buf, len, "new: affinity %s (base %s)", cur->affinity, base->affinity);
	return differs;
}

unsigned prov_compare(const struct provenance *a, const struct provenance *b, char *why,
		      size_t len)
{
	unsigned d = 0;
	char x[256], y[256];

	if (a->source != b->source)
		d |= PDIFF_SOURCE;
	/* another resolution, or another sample of the wakeups timed */
	if (a->delay != b->delay || a->delay_rate != b->delay_rate ||
	    a->sample_every != b->sample_every)
		d |= PDIFF_DELAYS;
	if (strcmp(a->cpus_honored, b->cpus_honored) || a->scope != b->scope)
		d |= PDIFF_COUNTS;
	if (len)
		why[0] = '\0';
	if (d && len) {
		describe(a, x, sizeof(x));
		describe(b, y, sizeof(y));
		snprintf(why, len, "measured differently: base %s; new %s", x, y);
	}
	return d;
}
