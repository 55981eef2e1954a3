/* sweep.c - the benchmark loop: each sweep value N times, metric and measures per run. */
#define _GNU_SOURCE
#include "sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../analyzers/metric.h"
#include "../analyzers/sweep.h"
#include "../collectors/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/sweep_report.h"
#include "../pipeline/tracer.h"

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

/* argv with every {NAME} replaced by value (a new vector of new strings). */
static char **substitute(char **cmdv, const char *name, const char *value)
{
	char ph[64];
	int n = 0;
	char **out;

	snprintf(ph, sizeof(ph), "{%s}", name);
	while (cmdv[n])
		n++;
	out = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		const char *src = cmdv[i], *hit;
		size_t cap = strlen(src) + 1, len = 0;
		char *dst = xmalloc(cap);

		while (name[0] && (hit = strstr(src, ph))) {
			size_t pre = (size_t)(hit - src), vl = strlen(value);

			cap += vl;
			dst = xrealloc(dst, cap);
			memcpy(dst + len, src, pre);
			memcpy(dst + len + pre, value, vl);
			len += pre + vl;
			src = hit + strlen(ph);
		}
		memcpy(dst + len, src, strlen(src) + 1);
		out[i] = dst;
	}
	return out;
}

static void free_argv(char **v)
{
	for (int i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
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

/* The workload's output, NUL-terminated (malloc'd). */
static char *slurp(int fd)
{
	size_t len = 0, cap = 65536;
	char *buf = xmalloc(cap + 1);
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	buf[len] = '\0';
	return buf;
}

struct loop {
	const struct counting_opts *o;
	const struct sweep_opts *so;
	const struct topology *topo;
	struct sweep_set set;
	struct metric metric;
	int failures;
	int first_failure;	/* exit status to return */
	bool interrupted;
	bool noexec;		/* the command could not run: no point in the next runs */
	int interrupt_code;	/* the interrupted run's status */
	bool json_failed;	/* the JSON file could not be written (said once) */
};

static void json_file(FILE *f, void *ctx)
{
	sweep_report_json(f, ctx);
}

static void sweep_svg_doc(FILE *f, void *ctx)
{
	sweep_report_svg(f, ctx);
}

static void hitm_rate(struct loop *lp, const struct stat_result *res, struct sweep_run *run,
		      double secs)
{
	for (int i = 0; i < res->ncounters; i++) {
		const struct stat_counter *c = &res->c[i];

		if (strcmp(c->name, "hitm"))
			continue;
		if (c->supported && c->counted_runs && secs > 0) {
			run->m[M_HITM] = c->values[0] / secs;
			run->have[M_HITM] = true;
		} else if (!lp->set.hitm_why[0]) {
			snprintf(lp->set.hitm_why, sizeof(lp->set.hitm_why), "%s", c->reason);
		}
	}
}

/* One run of one value. */
static void one(struct loop *lp, const char *value, int rep, char **argv)
{
	struct sweep_run run = { 0 };
	struct session_cfg cfg;
	struct session_outcome out;
	struct stat_result res;
	struct tracer *tracer = xcalloc(1, sizeof(*tracer));
	struct source_cfg tc = { .topo = lp->topo, .tracefs = lp->so->tr.tracefs,
				 .mmap_pages = (int)lp->so->tr.pages, .collector = lp->so->col.collector,
				 .btf = lp->so->col.btf, .delay_rate = lp->so->col.delay_rate,
				 .quiet = lp->set.nruns > 0 || lp->o->quiet,
				 .cpus = lp->o->cpus, .ncpus = lp->o->ncpus,
				 .system_wide = lp->o->all_cpus || lp->o->cpu_list,
				 .max_tasks = (int)lp->so->col.max_tasks,
				 .max_pairs = (int)lp->so->col.max_pairs };
	char label[128], *text;
	double secs;
	int fd = memfd_create("locus-workload-output", MFD_CLOEXEC);

	snprintf(run.value, sizeof(run.value), "%s", value);
	run.rep = rep;
	if (lp->set.sweep_name[0])
		snprintf(label, sizeof(label), "%s=%s run %d/%d", lp->set.sweep_name, value, rep,
			 lp->set.repeat);
	else
		snprintf(label, sizeof(label), "run %d/%d", rep, lp->set.repeat);
	counting_session(lp->o, argv, &cfg);
	cfg.repeat = 1;
	cfg.derive_software = !lp->o->events;
	cfg.trace = &tc;
	cfg.tracer = tracer;
	cfg.output_fd = fd;
	session_count(&cfg, &res, &out);
	run.exit_code = out.exit_code;
	run.interrupted = out.interrupted;
	lp->interrupted = out.interrupted;
	/* an unfinished loop never exits 0: the workload's status, else 128+N of the signal */
	lp->interrupt_code = out.exit_code ? out.exit_code : 128 + out.interrupt_signal;
	secs = res.runs ? res.elapsed_ns[0] / 1e9 : 0;
	if (out.traced) {
		sweep_measures(&run, tracer_results(tracer), secs);
		run.dropped = (long long)sched_results_dropped(tracer_results(tracer));
		if (lp->set.prov.source == PROV_NONE)
			lp->set.prov = tracer_results(tracer)->prov; /* the loop's runs share it */
	} else {
		sweep_measures(&run, NULL, secs);
		run.dropped = -1;
	}
	if (res.runs)
		hitm_rate(lp, &res, &run, secs);
	text = fd >= 0 ? slurp(fd) : xstrdup("");
	if (lp->so->show_output)
		fputs(text, stderr);
	run.ok = !out.failed && out.exit_code == 0 && !out.interrupted;
	if (lp->set.have_metric) {
		if (metric_find(&lp->metric, text, &run.m[M_METRIC]) == 0) {
			run.have[M_METRIC] = true;
		} else if (run.ok) {
			char last[120] = "";
			char *nl = text + strlen(text);

			while (nl > text && nl[-1] == '\n')
				*--nl = '\0';
			nl = strrchr(text, '\n');
			snprintf(last, sizeof(last), "%s", nl ? nl + 1 : text);
			locus_err("%s: the metric (%s) is not in the workload's output (its last "
				  "line: '%s')", label, lp->metric.name, last);
			run.ok = false;
		}
	}
	if (out.interrupted)
		locus_err("%s: interrupted (exit %d): kept, marked interrupted (ok false), not "
			  "counted as failed", label, out.exit_code);
	else if (!run.ok && !out.failed && out.exit_code == EXIT_LOCUS_NOEXEC)
		locus_err("%s: the command could not run (exit 127): the loop stops", label);
	else if (!run.ok && !out.failed && out.exit_code)
		locus_err("%s: the workload %s %d", label, out.exit_code > 128 ?
			  "was killed by signal" : "exited", out.exit_code > 128 ?
			  out.exit_code - 128 : out.exit_code);
	if (!out.traced && out.trace_reason[0] && lp->set.nruns == 0)
		locus_err("%s; the runs have no scheduler measures", out.trace_reason);
	if (out.exit_code == EXIT_LOCUS_NOEXEC && !out.interrupted)
		lp->noexec = true; /* every next run would fail the same way */
	if (!run.ok && !out.interrupted && !lp->failures++)
		lp->first_failure = out.exit_code ? out.exit_code : EXIT_LOCUS_RUNTIME;
	if (run.ok && !lp->o->quiet) {
		char a[40] = "", b[24];

		if (run.have[M_METRIC])
			snprintf(a, sizeof(a), "%.6g %s, ", run.m[M_METRIC], lp->metric.unit);
		fprintf(stderr, "locus: %s: %s%s cs/s, %.2f s\n", label, a,
			run.have[M_CS] ? fmt_short(run.m[M_CS], b, sizeof(b)) : "-", secs);
	}
	sweep_set_add(&lp->set, &run);
	free(text);
	if (fd >= 0)
		close(fd);
	tracer_release(tracer);
	free(tracer);
	stat_release(&res);
	/* every run goes to the file as soon as it is done: a later failure loses nothing */
	if (lp->o->json_path && strcmp(lp->o->json_path, "-") && !lp->json_failed &&
	    write_file_atomically(lp->o->json_path, json_file, &lp->set) < 0)
		lp->json_failed = true;
}

static void text_file(FILE *f, void *ctx)
{
	sweep_report_text(f, ctx);
}

int sweep_main(const struct counting_opts *o, const struct sweep_opts *so, char **cmdv,
	       const struct topology *topo)
{
	struct loop lp;
	char why[320];
	int rc = EXIT_LOCUS_OK;

	memset(&lp, 0, sizeof(lp));
	lp.o = o;
	lp.so = so;
	lp.topo = topo;
	if (so->sweep) {
		parse_sweep(so->sweep, &lp.set, why, sizeof(why)); /* checked by sweep_check */
	} else {
		lp.set.values = xcalloc(1, sizeof(*lp.set.values));
		lp.set.nvalues = 1;
	}
	lp.set.repeat = (int)o->repeat;
	fill_env(&lp.set, so, topo, cmdv);
	if (so->metric && metric_init(&lp.metric, so->metric, so->direction, why, sizeof(why)) == 0) {
		lp.set.have_metric = true;
		snprintf(lp.set.metric_name, sizeof(lp.set.metric_name), "%s", lp.metric.name);
		snprintf(lp.set.metric_unit, sizeof(lp.set.metric_unit), "%s", lp.metric.unit);
		lp.set.metric_higher = lp.metric.higher_better;
	}
	for (int v = 0; v < lp.set.nvalues && !lp.interrupted && !lp.noexec; v++) {
		char **argv = substitute(cmdv, lp.set.sweep_name, lp.set.values[v]);

		for (int rep = 1; rep <= lp.set.repeat && !lp.interrupted && !lp.noexec; rep++)
			one(&lp, lp.set.values[v], rep, argv);
		free_argv(argv);
	}
	if (o->out_path) {
		if (write_file_atomically(o->out_path, text_file, &lp.set) < 0) {
			locus_err("the report follows on standard output instead");
			sweep_report_text(stdout, &lp.set);
			rc = EXIT_LOCUS_RUNTIME;
		}
	} else if (!(o->json_path && !strcmp(o->json_path, "-"))) {
		sweep_report_text(stdout, &lp.set);
	}
	if (o->json_path && !strcmp(o->json_path, "-"))
		sweep_report_json(stdout, &lp.set);
	if (so->svg && write_file_atomically(so->svg, sweep_svg_doc, &lp.set) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (lp.failures) {
		locus_err("%d of %d runs failed%s", lp.failures, lp.set.nruns,
			  o->json_path && !lp.json_failed ? "; every run is in the JSON, marked ok false"
							  : "");
		rc = lp.first_failure;
	}
	if (lp.interrupted) { /* the user stopped it: that says more than a failure before */
		locus_err("interrupted: %d run%s kept, the last one interrupted; exit %d",
			  lp.set.nruns, lp.set.nruns == 1 ? "" : "s", lp.interrupt_code);
		rc = lp.interrupt_code;
	}
	if (lp.json_failed) {
		locus_err("%s was not written: the runs are in the text report only", o->json_path);
		if (rc == EXIT_LOCUS_OK)
			rc = EXIT_LOCUS_RUNTIME;
	}
	if (lp.set.have_metric)
		metric_release(&lp.metric);
	sweep_set_release(&lp.set);
	return rc;
}
