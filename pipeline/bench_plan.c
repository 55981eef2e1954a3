/* bench_plan.c - the benchmark loop's set-up: --sweep values, environment, metric. */
#define _GNU_SOURCE
#include "bench_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "../common/util.h"
#include "counting_run.h"

#define MAX_VALUES 1000

/* Split "NAME=v1,v2" into s; returns 0 or -1 with why. */
int bench_parse_sweep(const char *spec, struct sweep_set *s, char *why, size_t len)
{
	const char *eq = strchr(spec, '=');
	char *list, *save = NULL;

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(s->sweep_name)) {
		snprintf(why, len, "bad --sweep '%s' (NAME=v1,v2,...)", spec);
		return -1;
	}
	for (const char *p = spec; p < eq; p++) {
		bool letter = *p == '_' || ((*p | 32) >= 'a' && (*p | 32) <= 'z');
		bool digit = *p >= '0' && *p <= '9';

		if (!(letter || (digit && p > spec))) {
			snprintf(why, len, "bad --sweep name in '%s' (letters, digits, _)", spec);
			return -1;
		}
	}
	snprintf(s->sweep_name, sizeof(s->sweep_name), "%.*s", (int)(eq - spec), spec);
	list = xstrdup(eq + 1);
	s->values = xcalloc(MAX_VALUES, sizeof(*s->values));
	for (char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (s->nvalues == MAX_VALUES || strlen(v) >= sizeof(s->values[0])) {
			snprintf(why, len, "--sweep: at most %d values of up to 63 characters",
				 MAX_VALUES);
			free(list);
			return -1;
		}
		snprintf(s->values[s->nvalues++], sizeof(s->values[0]), "%s", v);
	}
	free(list);
	if (!s->nvalues) {
		snprintf(why, len, "--sweep '%s' has no values", spec);
		return -1;
	}
	return 0;
}

/* Whether the command cmdv holds {name} for the sweep to replace. */
static bool bench_mentions(char **cmdv, const char *name)
{
	char ph[64];

	snprintf(ph, sizeof(ph), "{%s}", name);
	for (int i = 0; cmdv[i]; i++)
		if (strstr(cmdv[i], ph))
			return true;
	return false;
}

int bench_plan_check(const struct bench_plan *bp, char **cmdv, char *why, size_t len)
{
	struct sweep_set s = { 0 };
	struct metric m;
	int rc = 0;

	if (bp->sweep) {
		if (bench_parse_sweep(bp->sweep, &s, why, len) < 0)
			rc = -1;
		else if (!bench_mentions(cmdv, s.sweep_name)) {
			snprintf(why, len, "the command has no {%s} for --sweep to replace",
				 s.sweep_name);
			rc = -1;
		}
		sweep_set_release(&s);
		if (rc < 0)
			return -1;
	}
	if (bp->direction && !bp->metric) {
		snprintf(why, len, "--direction goes with --metric");
		return -1;
	}
	if (bp->metric) {
		if (metric_init(&m, bp->metric, bp->direction, why, len) < 0)
			return -1;
		metric_release(&m);
	}
	return 0;
}

static void fill_env(struct sweep_set *s, const struct bench_plan *bp, const struct topology *t,
		     char **cmdv)
{
	struct utsname u;
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	time_t now = time(NULL);
	struct tm tm;
	size_t at = 0;

	if (uname(&u) == 0) {
		snprintf(s->kernel, sizeof(s->kernel), "%s %s", u.release, u.machine);
		snprintf(s->hostname, sizeof(s->hostname), "%s", u.nodename);
	}
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(s->cpu_model, sizeof(s->cpu_model), "%s", strchr(line, ':') + 2);
			s->cpu_model[strcspn(s->cpu_model, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	snprintf(s->topology, sizeof(s->topology), "%d CPUs, %d cores, %s, %d node%s", t->nonline,
		 t->ncores, t->llc_known ? "LLC known" : "LLC unknown", t->nnodes,
		 t->nnodes == 1 ? "" : "s");
	at = (size_t)snprintf(s->cmdline, sizeof(s->cmdline), "locus run");
	for (int i = 1; i < bp->argc && at < sizeof(s->cmdline); i++)
		at += (size_t)snprintf(s->cmdline + at, sizeof(s->cmdline) - at, " %s", bp->argv[i]);
	snprintf(s->version, sizeof(s->version), "%s", LOCUS_VERSION);
	gmtime_r(&now, &tm);
	strftime(s->time, sizeof(s->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	run_command_text(cmdv, s->command, sizeof(s->command));
}

/* The loop's values, repeat, environment and metric into s (and m, when s->have_metric). */
void bench_loop_setup(struct sweep_set *s, struct metric *m, const struct bench_plan *bp,
		      const struct topology *topo, char **cmdv)
{
	char why[320];

	if (bp->sweep) {
		bench_parse_sweep(bp->sweep, s, why, sizeof(why)); /* checked by run_loop_check (cli/run.c) */
	} else {
		s->values = xcalloc(1, sizeof(*s->values));
		s->nvalues = 1;
	}
	s->repeat = bp->repeat;
	fill_env(s, bp, topo, cmdv);
	if (bp->metric && metric_init(m, bp->metric, bp->direction, why, sizeof(why)) == 0) {
		s->have_metric = true;
		snprintf(s->metric_name, sizeof(s->metric_name), "%s", m->name);
		snprintf(s->metric_unit, sizeof(s->metric_unit), "%s", m->unit);
		s->metric_higher = m->higher_better;
	}
}
