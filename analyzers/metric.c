/* metric.c - presets for the usual benchmarks' result lines, and the regex that reads them. */
#include "metric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct preset {
	const char *name, *regex, *label, *unit;
	bool higher;
	const char *fallback;	/* a second regex, when the first finds nothing (or NULL) */
};

static const struct preset presets[] = {
	{ "tbench", "Throughput ([0-9.]+) MB/sec", "tbench throughput", "MB/s", true, NULL },
	{ "hackbench", "Time: *([0-9.]+)", "hackbench time", "s", false, NULL },
	{ "pgbench", "tps = ([0-9.]+)", "pgbench tps", "tps", true, NULL },
	/* cpu, memory, mutex, fileio and oltp print "events per second"; threads only
	 * "total number of events" (over the run's fixed time): the fallback */
	{ "sysbench", "events per second: *([0-9.]+)", "sysbench events/s", "events/s", true,
	  "total number of events: *([0-9.]+)" },
	/* the last number of an all-numeric result line (TCP_RR trans/s, TCP_STREAM Mbit/s) */
	{ "netperf", "^[ 0-9.]+[ ]([0-9.]+)[ ]*$", "netperf result", "", true, NULL },
	{ "schbench", "99\\.0th: *([0-9.]+)", "schbench p99 wakeup latency", "us", false, NULL },
	{ "pingpong", "([0-9]+) round trips/s", "pingpong round trips/s", "rt/s", true, NULL },
};

const char *metric_presets(void)
{
	return "tbench, hackbench, pgbench, sysbench, netperf, schbench, pingpong";
}

int metric_init(struct metric *m, const char *spec, const char *direction, char *err, size_t len)
{
	const struct preset *p = NULL;
	const char *regex = spec;
	int rc;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(spec, presets[i].name))
			p = &presets[i];
	if (!p && spec[0] && strspn(spec, "abcdefghijklmnopqrstuvwxyz_-0123456789") == strlen(spec)) {
		/* a bare word is a preset's name, misspelled: a regex without a group cannot work */
		snprintf(err, len, "unknown metric preset '%s' (presets: %s; or a regex with one "
			 "capture group)", spec, metric_presets());
		return -1;
	}
	if (p) {
		regex = p->regex;
		snprintf(m->name, sizeof(m->name), "%s", p->label);
		snprintf(m->unit, sizeof(m->unit), "%s", p->unit);
		m->higher_better = p->higher;
	} else {
		snprintf(m->name, sizeof(m->name), "%s", spec);
		m->higher_better = true;
	}
	if (direction && !strcmp(direction, "lower")) {
		m->higher_better = false;
	} else if (direction && !strcmp(direction, "higher")) {
		m->higher_better = true;
	} else if (direction) {
		snprintf(err, len, "bad direction '%s' (higher or lower)", direction);
		return -1;
	}
	rc = regcomp(&m->re, regex, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		char why[128];

		regerror(rc, &m->re, why, sizeof(why));
		snprintf(err, len, "bad metric regex '%s': %s (or a preset: %s)", spec, why,
			 metric_presets());
		return -1;
	}
	m->compiled = true;
	if (p && p->fallback && regcomp(&m->re2, p->fallback, REG_EXTENDED | REG_NEWLINE) == 0)
		m->have_re2 = true;
	if (m->re.re_nsub != 1) {
		snprintf(err, len, "metric regex '%s' needs exactly one capture group (it has %zu)",
			 spec, m->re.re_nsub);
		metric_release(m);
		return -1;
	}
	return 0;
}

static int find_with(const regex_t *re, const char *text, double *value)
{
	regmatch_t g[2];
	const char *at = text;
	bool found = false;

	while (*at && regexec(re, at, 2, g, at == text ? 0 : REG_NOTBOL) == 0) {
		char num[64];
		size_t n = (size_t)(g[1].rm_eo - g[1].rm_so);
		char *end;
		double v;

		if (g[1].rm_so >= 0 && n > 0 && n < sizeof(num)) {
			memcpy(num, at + g[1].rm_so, n);
			num[n] = '\0';
			v = strtod(num, &end);
			if (end != num && *end == '\0') {
				*value = v;
				found = true;
			}
		}
		at += g[0].rm_eo > 0 ? g[0].rm_eo : 1; /* the last match wins */
	}
	return found ? 0 : -1;
}

int metric_find(const struct metric *m, const char *text, double *value)
{
	if (find_with(&m->re, text, value) == 0)
		return 0;
	return m->have_re2 ? find_with(&m->re2, text, value) : -1;
}

void metric_release(struct metric *m)
{
	if (m->compiled)
		regfree(&m->re);
	if (m->have_re2)
		regfree(&m->re2);
	m->compiled = m->have_re2 = false;
}
