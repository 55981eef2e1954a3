/* schedstat.c - /proc/schedstat text (versions 15-17) to numbers, and the deltas of a run. */
#include "schedstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const idle_names[SS_IDLE_NR] = { "busy", "idle", "newly_idle" };
static const char *const lb_keys[SS_LB_NR] = {
	"lb_count",	    "lb_balanced", "lb_failed",	 "lb_imbalance", "lb_imbalance_util",
	"lb_imbalance_task", "lb_imbalance_misfit", "lb_gained", "lb_hot_gained",
	"lb_nobusyq",	    "lb_nobusyg",
};
static const char *const dom_keys[SS_DOM_NR] = {
	"alb_count",	   "alb_failed",       "alb_pushed",	    "sbe_count",
	"sbe_balanced",	   "sbe_pushed",       "sbf_count",	    "sbf_balanced",
	"sbf_pushed",	   "ttwu_wake_remote", "ttwu_move_affine", "ttwu_move_balance",
};
static const char *const cpu_keys[SS_CPU_NR] = {
	"yld_count", "legacy", "sched_count", "sched_goidle", "ttwu_count",
	"ttwu_local", "rq_cpu_time", "run_delay", "pcount",
};

const char *ss_idle_name(enum ss_idle i)
{
	return idle_names[i];
}

const char *ss_lb_key(enum ss_lb k, int version)
{
	return k == SS_LB_IMBALANCE && version >= 17 ? "lb_imbalance_load" : lb_keys[k];
}

const char *ss_dom_key(enum ss_dom k)
{
	return dom_keys[k];
}

const char *ss_cpu_key(enum ss_cpu k)
{
	return cpu_keys[k];
}

bool ss_lb_in_version(enum ss_lb k, int version)
{
	return version >= 17 || (k != SS_LB_IMB_UTIL && k != SS_LB_IMB_TASK && k != SS_LB_IMB_MISFIT);
}

/* Read n unsigned decimal numbers from *p (space separated). Returns 0 or -1. */
static int numbers(const char **p, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		char *end;

		while (**p == ' ')
			(*p)++;
		if (**p < '0' || **p > '9')
			return -1;
		errno = 0;
		v[i] = strtoull(*p, &end, 10);
		if (errno)
			return -1;
		*p = end;
	}
	return 0;
}

/* One word (up to a space) into buf. Returns 0, or -1 when there is none. */
static int word(const char **p, char *buf, size_t len)
{
	size_t n = 0;

	while (**p == ' ')
		(*p)++;
	while ((*p)[n] && (*p)[n] != ' ' && (*p)[n] != '\n')
		n++;
	if (!n || n >= len)
		return -1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p += n;
	return 0;
}

/* A CPU mask as the kernel prints it (lower-case hex in comma groups); v17's names are not. */
static bool is_mask(const char *w)
{
	return strspn(w, "0123456789abcdef,") == strlen(w);
}

/* The file's idle-type columns in locus's order: v15 idle, busy, newly; v16+ busy, idle, newly. */
static const enum ss_idle order15[SS_IDLE_NR] = { SS_IDLE, SS_BUSY, SS_NEWLY_IDLE };
static const enum ss_idle order16[SS_IDLE_NR] = { SS_BUSY, SS_IDLE, SS_NEWLY_IDLE };

static const enum ss_lb lb15[] = { SS_LB_COUNT, SS_LB_BALANCED, SS_LB_FAILED, SS_LB_IMBALANCE,
				   SS_LB_GAINED, SS_LB_HOT_GAINED, SS_LB_NOBUSYQ, SS_LB_NOBUSYG };

int schedstat_dom_ncols(int version)
{
	return SS_IDLE_NR * (version >= 17 ? SS_LB_NR : 8) + SS_DOM_NR;
}

/* Column i of a version's domain counters: where it lives in d. */
static uint64_t *dom_col(struct ss_domain *d, int version, int i)
{
	const enum ss_idle *order = version >= 16 ? order16 : order15;
	int per = version >= 17 ? SS_LB_NR : 8;

	if (i >= SS_IDLE_NR * per)
		return &d->d[i - SS_IDLE_NR * per];
	return &d->lb[order[i / per]][version >= 17 ? i % per : (int)lb15[i % per]];
}

void schedstat_dom_cols(const struct ss_domain *d, int version, uint64_t *cols)
{
	for (int i = 0; i < schedstat_dom_ncols(version); i++)
		cols[i] = *dom_col((struct ss_domain *)d, version, i);
}

void schedstat_dom_from_cols(struct ss_domain *d, int version, const uint64_t *cols)
{
	for (int i = 0; i < schedstat_dom_ncols(version); i++)
		*dom_col(d, version, i) = cols[i];
}

/* Add d to s's domains. */
void schedstat_add_domain(struct schedstat *s, const struct ss_domain *d)
{
	s->doms = realloc(s->doms, (size_t)(s->ndoms + 1) * sizeof(*s->doms));
	if (!s->doms)
		abort();
	s->doms[s->ndoms++] = *d;
}

static int domain_line(const char *p, int cpu, struct schedstat *s, char *err, size_t len)
{
	struct ss_domain d = { .cpu = cpu };
	uint64_t cols[SS_IDLE_NR * SS_LB_NR + SS_DOM_NR];
	char *end;

	d.level = (int)strtol(p + 6, &end, 10);
	if (end == p + 6 || d.level < 0 || d.level > 64) {
		snprintf(err, len, "schedstat: bad domain line");
		return -1;
	}
	p = end;
	if (word(&p, d.mask, sizeof(d.mask)) < 0)
		goto no_mask;
	if (s->version >= 17 && !is_mask(d.mask)) { /* its name first (v17), then its mask */
		snprintf(d.name, sizeof(d.name), "%s", d.mask);
		if (word(&p, d.mask, sizeof(d.mask)) < 0)
			goto no_mask;
	}
	if (numbers(&p, cols, schedstat_dom_ncols(s->version)) < 0)
		goto short_line;
	schedstat_dom_from_cols(&d, s->version, cols);
	schedstat_add_domain(s, &d);
	return 0;
short_line:
	snprintf(err, len, "schedstat: domain%d of cpu%d has too few counters for version %d",
		 d.level, cpu, s->version);
	return -1;
no_mask:
	snprintf(err, len, "schedstat: domain%d of cpu%d has no CPU mask", d.level, cpu);
	return -1;
}

int schedstat_parse(const char *text, struct schedstat *s, char *err, size_t len)
{
	int cpu = -1;

	memset(s, 0, sizeof(*s));
	for (const char *line = text, *next; line && *line; line = next) {
		const char *p = line, *nl = strchr(line, '\n');

		next = nl ? nl + 1 : NULL;

		if (!strncmp(p, "version ", 8)) {
			s->version = atoi(p + 8);
			if (s->version < 15 || s->version > 17) {
				snprintf(err, len, "schedstat version %d: locus reads versions 15 to 17",
					 s->version);
				goto bad;
			}
		} else if (!strncmp(p, "timestamp ", 10)) {
			s->timestamp = strtoull(p + 10, NULL, 10);
		} else if (!strncmp(p, "cpu", 3)) {
			struct ss_cpu_stat c;
			char *end;

			c.cpu = (int)strtol(p + 3, &end, 10);
			p = end;
			if (!s->version || c.cpu < 0 || c.cpu > 1 << 20 ||
			    numbers(&p, c.c, SS_CPU_NR) < 0) {
				snprintf(err, len, "schedstat: bad cpu line (or no version first)");
				goto bad;
			}
			cpu = c.cpu;
			s->cpus = realloc(s->cpus, (size_t)(s->ncpus + 1) * sizeof(*s->cpus));
			if (!s->cpus)
				abort();
			s->cpus[s->ncpus++] = c;
		} else if (!strncmp(p, "domain", 6)) {
			if (cpu < 0) {
				snprintf(err, len, "schedstat: a domain line before any cpu line");
				goto bad;
			}
			if (domain_line(p, cpu, s, err, len) < 0)
				goto bad;
		} else if (*p != '\n' && *p) {
			snprintf(err, len, "schedstat: unknown line '%.20s'", p);
			goto bad;
		}
	}
	if (!s->version || !s->ncpus) {
		snprintf(err, len, "schedstat: no version line or no CPU");
		goto bad;
	}
	return 0;
bad:
	schedstat_release(s);
	return -1;
}

static int sub(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a < b)
		return -1;
	*out = a - b;
	return 0;
}

int schedstat_delta(const struct schedstat *before, const struct schedstat *after,
		    struct schedstat *out, char *err, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (before->version != after->version || before->ncpus != after->ncpus ||
	    before->ndoms != after->ndoms) {
		snprintf(err, len, "schedstat changed during the run (version, CPUs or domains: "
			 "CPU hotplug or a domain rebuild)");
		return -1;
	}
	out->version = after->version;
	out->timestamp = after->timestamp - before->timestamp;
	out->ncpus = after->ncpus;
	out->ndoms = after->ndoms;
	out->cpus = calloc((size_t)out->ncpus + 1, sizeof(*out->cpus));
	out->doms = calloc((size_t)out->ndoms + 1, sizeof(*out->doms));
	if (!out->cpus || !out->doms)
		abort();
	for (int i = 0; i < out->ncpus; i++) {
		const struct ss_cpu_stat *a = &after->cpus[i], *b = &before->cpus[i];

		if (a->cpu != b->cpu)
			goto moved;
		out->cpus[i].cpu = a->cpu;
		for (int k = 0; k < SS_CPU_NR; k++)
			if (sub(a->c[k], b->c[k], &out->cpus[i].c[k]) < 0)
				goto back;
	}
	for (int i = 0; i < out->ndoms; i++) {
		const struct ss_domain *a = &after->doms[i], *b = &before->doms[i];
		struct ss_domain *o = &out->doms[i];

		if (a->cpu != b->cpu || a->level != b->level)
			goto moved;
		*o = *a;
		for (int t = 0; t < SS_IDLE_NR; t++)
			for (int k = 0; k < SS_LB_NR; k++)
				if (sub(a->lb[t][k], b->lb[t][k], &o->lb[t][k]) < 0)
					goto back;
		for (int k = 0; k < SS_DOM_NR; k++)
			if (sub(a->d[k], b->d[k], &o->d[k]) < 0)
				goto back;
	}
	return 0;
moved:
	snprintf(err, len, "schedstat: the CPUs or domains differ between the two snapshots");
	schedstat_release(out);
	return -1;
back:
	snprintf(err, len, "schedstat: a counter went back between the two snapshots");
	schedstat_release(out);
	return -1;
}

static bool listed(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

void schedstat_keep_cpus(struct schedstat *s, const int *cpus, int n)
{
	int kc = 0, kd = 0;

	for (int i = 0; i < s->ncpus; i++)
		if (listed(cpus, n, s->cpus[i].cpu))
			s->cpus[kc++] = s->cpus[i];
	for (int i = 0; i < s->ndoms; i++)
		if (listed(cpus, n, s->doms[i].cpu))
			s->doms[kd++] = s->doms[i];
	s->ncpus = kc;
	s->ndoms = kd;
}

void schedstat_release(struct schedstat *s)
{
	free(s->cpus);
	free(s->doms);
	memset(s, 0, sizeof(*s));
}
