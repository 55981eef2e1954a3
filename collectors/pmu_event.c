/* pmu_event.c - PMU event aliases and format fields from sysfs; the memory-sampling plan. */
#include "pmu_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define MEM_FREQ 4000 /* samples/s per CPU, perf mem's default */

static const char *root_of(const char *sysfs)
{
	return sysfs ? sysfs : "/sys";
}

/* Set value into the bits a format file names: "config:0-7", "config1:0-15", "config:0-7,32-35". */
static int apply_format(const char *spec, unsigned long long value, struct perf_event_attr *a)
{
	char word[16];
	const char *p = strchr(spec, ':');
	__u64 *dst;

	if (!p || (size_t)(p - spec) >= sizeof(word))
		return -1;
	snprintf(word, sizeof(word), "%.*s", (int)(p - spec), spec);
	if (!strcmp(word, "config"))
		dst = &a->config;
	else if (!strcmp(word, "config1"))
		dst = &a->config1;
	else if (!strcmp(word, "config2"))
		dst = &a->config2;
	else
		return -1;
	for (p++; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 63)
				return -1;
			p = end;
		}
		for (long bit = lo; bit <= hi; bit++) {
			if (value & 1)
				*dst |= 1ull << bit;
			else
				*dst &= ~(1ull << bit);
			value >>= 1;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return 0;
}

static int apply_terms(const char *dir, const char *terms, struct perf_event_attr *a, char *err,
		       size_t len)
{
	char *copy = xstrdup(terms), *save = NULL;
	int rc = 0;

	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), path[512], spec[128];
		unsigned long long v = 1;

		if (eq) {
			*eq = '\0';
			v = strtoull(eq + 1, NULL, 0);
		}
		snprintf(path, sizeof(path), "%s/format/%s", dir, t);
		if (read_text_file(path, spec, sizeof(spec)) < 0 || apply_format(spec, v, a) < 0) {
			snprintf(err, len, "%s: no usable format field '%s'", dir, t);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

int pmu_event_encode(const char *sysfs, const char *pmu, const char *alias, const char *terms,
		     struct perf_event_attr *attr, char *err, size_t len)
{
	char dir[512], path[640], buf[256];
	long type;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s", root_of(sysfs), pmu);
	snprintf(path, sizeof(path), "%s/type", dir);
	if (read_text_file(path, buf, sizeof(buf)) < 0 || parse_long(buf, 0, 1L << 30, &type) < 0) {
		snprintf(err, len, "no %s PMU in sysfs", pmu);
		return -1;
	}
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = (__u32)type;
	if (alias) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, alias);
		if (read_text_file(path, buf, sizeof(buf)) < 0) {
			snprintf(err, len, "the %s PMU has no %s event", pmu, alias);
			return -1;
		}
		if (apply_terms(dir, buf, attr, err, len) < 0)
			return -1;
	}
	if (terms && apply_terms(dir, terms, attr, err, len) < 0)
		return -1;
	return 0;
}

static void sampling(struct perf_event_attr *a, int precise)
{
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			 PERF_SAMPLE_PHYS_ADDR;
	a->freq = 1;
	a->sample_freq = MEM_FREQ;
	a->precise_ip = (unsigned)precise;
	a->disabled = 1;
	a->exclude_hv = 1;
}

int mem_plan_build(const char *sysfs, struct mem_plan *p, char *why, size_t len)
{
	char err[256];

	memset(p, 0, sizeof(*p));
	if (pmu_event_encode(sysfs, "cpu", "mem-loads", "ldlat=30", &p->attr[1], err,
			     sizeof(err)) == 0) {
		sampling(&p->attr[1], 3);
		p->name[1] = "cpu/mem-loads,ldlat=30/P";
		if (pmu_event_encode(sysfs, "cpu", "mem-loads-aux", NULL, &p->attr[0], err,
				     sizeof(err)) == 0) {
			/* Sapphire Rapids and later: the aux event leads the group */
			sampling(&p->attr[0], 3);
			p->name[0] = "cpu/mem-loads-aux/";
			p->aux_leader = true;
		} else {
			p->attr[0] = p->attr[1];
			p->name[0] = p->name[1];
		}
		p->n = p->aux_leader ? 2 : 1;
		if (pmu_event_encode(sysfs, "cpu", "mem-stores", NULL, &p->attr[p->n], err,
				     sizeof(err)) == 0) {
			sampling(&p->attr[p->n], 3);
			p->name[p->n++] = "cpu/mem-stores/P";
		}
		snprintf(p->what, sizeof(p->what), "Intel mem-loads (ldlat=30)%s%s",
			 p->aux_leader ? " led by mem-loads-aux" : "",
			 p->n > (p->aux_leader ? 2 : 1) ? " and mem-stores" : "");
		return 0;
	}
	if (pmu_event_encode(sysfs, "ibs_op", NULL, NULL, &p->attr[0], err, sizeof(err)) == 0) {
		sampling(&p->attr[0], 0);
		p->name[0] = "ibs_op//";
		p->n = 1;
		snprintf(p->what, sizeof(p->what), "AMD ibs_op (cache-to-cache fills)");
		return 0;
	}
	snprintf(why, len, "no mem-loads/ldlat, ibs_op or arm_spe PMU is exported (needs bare "
		 "metal, or a vPMU with PEBS or IBS passed through)");
	return -1;
}
