/* sweep.c - `locus run -r N --sweep ... --metric ...`: the loop's options, its set-up and reports. */
#define _GNU_SOURCE
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../analyzers/metric.h"
#include "../analyzers/sweep.h"
#include "../collectors/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/sweep_report.h"
#include "../pipeline/bench_loop.h"
#include "traced.h"

#define MAX_VALUES 1000

/* Split "NAME=v1,v2" into s; returns 0 or -1 with why. */
static int parse_sweep(const char *spec, struct sweep_set *s, char *why, size_t len)
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

static bool mentions(char **cmdv, const char *name)
{
	char ph[64];

	snprintf(ph, sizeof(ph), "{%s}", name);
	for (int i = 0; cmdv[i]; i++)
		if (strstr(cmdv[i], ph))
			return true;
	return false;
}

int sweep_check(const struct cli_cmd *cmd, const struct sweep_opts *so, char **cmdv)
{
	struct sweep_set s = { 0 };
	struct metric m;
	char why[320];

	if (!cmdv || !cmdv[0]) {
		cli_usage_error(cmd, "-r, --sweep and --metric need a command after --");
		return -1;
	}
	if (so->sweep) {
		if (parse_sweep(so->sweep, &s, why, sizeof(why)) < 0) {
			cli_usage_error(cmd, "%s", why);
			sweep_set_release(&s);
			return -1;
		}
		if (!mentions(cmdv, s.sweep_name)) {
			cli_usage_error(cmd, "the command has no {%s} for --sweep to replace",
					s.sweep_name);
			sweep_set_release(&s);
			return -1;
		}
		sweep_set_release(&s);
	}
	if (so->direction && !so->metric) {
		cli_usage_error(cmd, "--direction goes with --metric");
		return -1;
	}
	if (so->metric) {
		if (metric_init(&m, so->metric, so->direction, why, sizeof(why)) < 0) {
			cli_usage_error(cmd, "%s", why);
			return -1;
		}
		metric_release(&m);
	}
	return 0;
}

static void fill_env(struct sweep_set *s, const struct sweep_opts *so, const struct topology *t,
		     char **cmdv)
{
	struct utsname u;
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	time_t now = time(NULL);
	struct tm tm;
	size_t at = 0;

	if (uname(&u) == 0)
		snprintf(s->kernel, sizeof(s->kernel), "%s %s", u.release, u.machine);
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
	for (int i = 1; i < so->argc && at < sizeof(s->cmdline); i++)
		at += (size_t)snprintf(s->cmdline + at, sizeof(s->cmdline) - at, " %s", so->argv[i]);
	snprintf(s->version, sizeof(s->version), "%s", LOCUS_VERSION);
	gmtime_r(&now, &tm);
	strftime(s->time, sizeof(s->time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	session_command_text(cmdv, s->command, sizeof(s->command));
}

static void json_file(FILE *f, void *ctx)
{
	sweep_report_json(f, ctx);
}

static void sweep_svg_doc(FILE *f, void *ctx)
{
	sweep_report_svg(f, ctx);
}

static void text_file(FILE *f, void *ctx)
{
	sweep_report_text(f, ctx);
}

/* The JSON file the runs go to as they end. */
struct sweep_json {
	const char *path;	/* --json, or NULL; "-" waits for the end */
	bool failed;		/* it could not be written (said once) */
};

static void run_done(struct bench_loop *lp)
{
	struct sweep_json *sj = lp->ctx;

	/* every run goes to the file as soon as it is done: a later failure loses nothing */
	if (sj->path && strcmp(sj->path, "-") && !sj->failed &&
	    write_file_atomically(sj->path, json_file, lp->set) < 0)
		sj->failed = true;
}

/* The loop's values, repeat, environment and metric into s (and m, when s->have_metric). */
static void sweep_setup(struct sweep_set *s, struct metric *m, const struct counting_opts *o,
			const struct sweep_opts *so, const struct topology *topo, char **cmdv)
{
	char why[320];

	if (so->sweep) {
		parse_sweep(so->sweep, s, why, sizeof(why)); /* checked by sweep_check */
	} else {
		s->values = xcalloc(1, sizeof(*s->values));
		s->nvalues = 1;
	}
	s->repeat = (int)o->repeat;
	fill_env(s, so, topo, cmdv);
	if (so->metric && metric_init(m, so->metric, so->direction, why, sizeof(why)) == 0) {
		s->have_metric = true;
		snprintf(s->metric_name, sizeof(s->metric_name), "%s", m->name);
		snprintf(s->metric_unit, sizeof(s->metric_unit), "%s", m->unit);
		s->metric_higher = m->higher_better;
	}
}

/* The text report, the JSON on standard output and the SVG. The exit status. */
static int sweep_write(const struct counting_opts *o, const struct sweep_opts *so,
		       struct sweep_set *s)
{
	int rc = EXIT_LOCUS_OK;

	if (o->out_path) {
		if (write_file_atomically(o->out_path, text_file, s) < 0) {
			locus_err("the report follows on standard output instead");
			sweep_report_text(stdout, s);
			rc = EXIT_LOCUS_RUNTIME;
		}
	} else if (!(o->json_path && !strcmp(o->json_path, "-"))) {
		sweep_report_text(stdout, s);
	}
	if (o->json_path && !strcmp(o->json_path, "-"))
		sweep_report_json(stdout, s);
	if (so->svg && write_file_atomically(so->svg, sweep_svg_doc, s) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	return rc;
}

/* What the loop's end says on stderr, and its exit status (rc: the reports'). */
static int sweep_status(const struct bench_loop *lp, const struct sweep_json *sj, int rc)
{
	if (lp->failures) {
		locus_err("%d of %d runs failed%s", lp->failures, lp->set->nruns,
			  sj->path && !sj->failed ? "; every run is in the JSON, marked ok false"
						  : "");
		rc = lp->first_failure;
	}
	if (lp->interrupted) { /* the user stopped it: that says more than a failure before */
		locus_err("interrupted: %d run%s kept, the last one interrupted; exit %d",
			  lp->set->nruns, lp->set->nruns == 1 ? "" : "s", lp->interrupt_code);
		rc = lp->interrupt_code;
	}
	if (sj->failed) {
		locus_err("%s was not written: the runs are in the text report only", sj->path);
		if (rc == EXIT_LOCUS_OK)
			rc = EXIT_LOCUS_RUNTIME;
	}
	return rc;
}

int sweep_main(const struct counting_opts *o, const struct sweep_opts *so, char **cmdv,
	       const struct topology *topo)
{
	struct sweep_set set = { 0 };
	struct metric metric = { 0 };
	struct sweep_json sj = { o->json_path, false };
	struct session_cfg cfg;
	struct source_cfg tc;
	struct bench_loop lp;
	int rc;

	sweep_setup(&set, &metric, o, so, topo, cmdv);
	counting_session(o, cmdv, &cfg);
	cfg.derive_software = !o->events;
	traced_source_cfg(&tc, o, &so->tr, &so->col, topo);
	lp = (struct bench_loop){ .set = &set, .metric = &metric, .session = &cfg, .trace = &tc,
				  .quiet = o->quiet, .show_output = so->show_output,
				  .run_done = run_done, .ctx = &sj };
	bench_loop_run(&lp, cmdv);
	rc = sweep_write(o, so, &set);
	rc = sweep_status(&lp, &sj, rc);
	if (set.have_metric)
		metric_release(&metric);
	sweep_set_release(&set);
	return rc;
}
