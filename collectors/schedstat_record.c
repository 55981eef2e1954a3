/* schedstat_record.c - /proc/schedstat snapshots to and from perf's SCHEDSTAT records. */
#include "schedstat_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

/* Offsets in a record (after the 8-byte perf_event_header). */
#define OFF_TIMESTAMP 8
#define OFF_CPU 16
#define OFF_VERSION 20
#define OFF_DOMAIN 22		/* a domain record's level; a CPU record's padding */
#define OFF_FIELDS 24
#define CPU_U32 6		/* yld_count .. ttwu_local, then three u64 */

static void refuse(struct ss_records *sr, const char *why)
{
	if (!sr->bad++)
		snprintf(sr->why, sizeof(sr->why), "%s", why);
}

static struct schedstat *current(struct ss_records *sr)
{
	return sr->n ? &sr->snap[sr->n - 1] : NULL;
}

/* A CPU line of a snapshot: the next snapshot begins when its CPU was already seen. */
static void add_cpu(struct ss_records *sr, const uint8_t *rec, int cpu, int version,
		    uint64_t ts)
{
	struct schedstat *s = current(sr);
	struct ss_cpu_stat c = { .cpu = cpu };

	for (int i = 0; s && i < s->ncpus; i++)
		if (s->cpus[i].cpu == cpu) {
			s = NULL;
			break;
		}
	if (!s) {
		if (sr->n == 2) { /* a third snapshot: the last one stays second */
			schedstat_release(&sr->snap[1]);
			sr->n = 1;
		}
		s = &sr->snap[sr->n++];
		memset(s, 0, sizeof(*s));
		s->version = version;
		s->timestamp = ts;
	}
	if (s->version != version) {
		refuse(sr, "a snapshot mixes schedstat versions");
		return;
	}
	for (int i = 0; i < CPU_U32; i++) {
		uint32_t v;

		memcpy(&v, rec + OFF_FIELDS + 4 * i, 4);
		c.c[i] = v;
	}
	for (int i = CPU_U32; i < SS_CPU_NR; i++)
		memcpy(&c.c[i], rec + OFF_FIELDS + 4 * CPU_U32 + 8 * (i - CPU_U32), 8);
	s->cpus = xrealloc(s->cpus, (size_t)(s->ncpus + 1) * sizeof(*s->cpus));
	s->cpus[s->ncpus++] = c;
}

void ss_records_add(struct ss_records *sr, const uint8_t *rec, size_t size)
{
	uint32_t type, cpu;
	uint16_t version, level;
	uint64_t ts;
	struct schedstat *s;

	sr->records++;
	memcpy(&type, rec, 4);
	if (size < OFF_FIELDS) {
		refuse(sr, "a SCHEDSTAT record shorter than its header");
		return;
	}
	memcpy(&ts, rec + OFF_TIMESTAMP, 8);
	memcpy(&cpu, rec + OFF_CPU, 4);
	memcpy(&version, rec + OFF_VERSION, 2);
	memcpy(&level, rec + OFF_DOMAIN, 2);
	if (version < 15 || version > 17) {
		refuse(sr, "a SCHEDSTAT record of a version other than 15 to 17");
		return;
	}
	if (cpu > 1u << 20) {
		refuse(sr, "a SCHEDSTAT record of an impossible CPU");
		return;
	}
	if (type == SS_REC_CPU) {
		if (size < OFF_FIELDS + 4 * CPU_U32 + 8 * (SS_CPU_NR - CPU_U32)) {
			refuse(sr, "a SCHEDSTAT_CPU record too short for its counters");
			return;
		}
		add_cpu(sr, rec, (int)cpu, version, ts);
		return;
	}
	s = current(sr);
	if (!s || !s->ncpus || s->cpus[s->ncpus - 1].cpu != (int)cpu) {
		refuse(sr, "a SCHEDSTAT_DOMAIN record not after its CPU's record");
		return;
	}
	if (s->version != version) {
		refuse(sr, "a snapshot mixes schedstat versions");
		return;
	}
	if (size < OFF_FIELDS + 4 * (size_t)schedstat_dom_ncols(version)) {
		refuse(sr, "a SCHEDSTAT_DOMAIN record too short for its counters");
		return;
	}
	{
		uint64_t cols[SS_IDLE_NR * SS_LB_NR + SS_DOM_NR];
		struct ss_domain d = { .cpu = (int)cpu, .level = level };

		for (int i = 0; i < schedstat_dom_ncols(version); i++) {
			uint32_t v;

			memcpy(&v, rec + OFF_FIELDS + 4 * i, 4);
			cols[i] = v;
		}
		schedstat_dom_from_cols(&d, version, cols);
		/* perf keeps names and masks in a header feature; the level names the domain */
		snprintf(d.mask, sizeof(d.mask), "-");
		schedstat_add_domain(s, &d);
	}
}

int ss_records_delta(const struct ss_records *sr, struct schedstat *out, char *why, size_t len)
{
	if (sr->bad) {
		snprintf(why, len, "%llu of %llu SCHEDSTAT records refused: %s",
			 (unsigned long long)sr->bad, (unsigned long long)sr->records, sr->why);
		return -1;
	}
	if (sr->n < 2) {
		snprintf(why, len, "the file holds one schedstat snapshot, not one at each end");
		return -1;
	}
	return schedstat_delta(&sr->snap[0], &sr->snap[1], out, why, len);
}

void ss_records_release(struct ss_records *sr)
{
	for (int i = 0; i < sr->n && i < 2; i++)
		schedstat_release(&sr->snap[i]);
	memset(sr, 0, sizeof(*sr));
}

static void put_header(uint8_t *r, uint32_t type, uint16_t size, const struct schedstat *s, int cpu,
		       uint16_t level)
{
	uint16_t misc = 0, version = (uint16_t)s->version;
	uint32_t c = (uint32_t)cpu;

	memcpy(r, &type, 4);
	memcpy(r + 4, &misc, 2);
	memcpy(r + 6, &size, 2);
	memcpy(r + OFF_TIMESTAMP, &s->timestamp, 8);
	memcpy(r + OFF_CPU, &c, 4);
	memcpy(r + OFF_VERSION, &version, 2);
	memcpy(r + OFF_DOMAIN, &level, 2);
}

size_t ss_records_encode(const struct schedstat *s, uint8_t **buf)
{
	size_t n = (size_t)s->ncpus * SS_REC_CPU_SIZE + (size_t)s->ndoms * SS_REC_DOMAIN_SIZE, at = 0;
	uint8_t *b = xcalloc(n + 1, 1);

	for (int i = 0; i < s->ncpus; i++) {
		const struct ss_cpu_stat *c = &s->cpus[i];
		uint8_t *r = b + at;

		put_header(r, SS_REC_CPU, SS_REC_CPU_SIZE, s, c->cpu, 0);
		for (int k = 0; k < CPU_U32; k++) {
			uint32_t v = (uint32_t)c->c[k]; /* u32 in the kernel and in perf's record */

			memcpy(r + OFF_FIELDS + 4 * k, &v, 4);
		}
		for (int k = CPU_U32; k < SS_CPU_NR; k++)
			memcpy(r + OFF_FIELDS + 4 * CPU_U32 + 8 * (k - CPU_U32), &c->c[k], 8);
		at += SS_REC_CPU_SIZE;
		for (int d = 0; d < s->ndoms; d++) {
			uint64_t cols[SS_IDLE_NR * SS_LB_NR + SS_DOM_NR];

			if (s->doms[d].cpu != c->cpu)
				continue;
			r = b + at;
			put_header(r, SS_REC_DOMAIN, SS_REC_DOMAIN_SIZE, s, c->cpu,
				   (uint16_t)s->doms[d].level);
			schedstat_dom_cols(&s->doms[d], s->version, cols);
			for (int k = 0; k < schedstat_dom_ncols(s->version); k++) {
				uint32_t v = (uint32_t)cols[k];

				memcpy(r + OFF_FIELDS + 4 * k, &v, 4);
			}
			at += SS_REC_DOMAIN_SIZE;
		}
	}
	*buf = b;
	return at;
}
