/* bench_loop.c - the benchmark loop: each sweep value N times, metric and measures per run. */
#define _GNU_SOURCE
#include "bench_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../analyzers/sweep.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "live_session.h"

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

static void hitm_rate(struct bench_loop *lp, const struct stat_result *res, struct sweep_run *run,
		      double secs)
{
	for (int i = 0; i < res->ncounters; i++) {
		const struct stat_counter *c = &res->c[i];

		if (strcmp(c->name, "hitm"))
			continue;
		if (c->supported && c->counted_runs && secs > 0) {
			run->m[M_HITM] = c->values[0] / secs;
			run->have[M_HITM] = true;
		} else if (!lp->set->hitm_why[0]) {
			snprintf(lp->set->hitm_why, sizeof(lp->set->hitm_why), "%s", c->reason);
		}
	}
}

/* The run's measures: the scheduler's from its trace, HITM/s from its counters. */
static void measure(struct bench_loop *lp, struct sweep_run *run, struct live_session *live,
		    const struct run_outcome *out, const struct stat_result *res, double secs)
{
	if (out->traced) {
		sweep_measures(run, live_session_results(live), secs);
		run->dropped = (long long)sched_results_dropped(live_session_results(live));
		if (lp->set->prov.source == PROV_NONE)
			/* the loop's runs share it */
			lp->set->prov = live_session_results(live)->prov;
	} else {
		sweep_measures(run, NULL, secs);
		run->dropped = -1;
	}
	if (res->runs)
		hitm_rate(lp, res, run, secs);
}

/* The metric in the workload's output (text, cut here); a good run without it fails. */
static void find_metric(struct bench_loop *lp, struct sweep_run *run, char *text,
			const char *label)
{
	char last[120] = "";
	char *nl;

	if (metric_find(&lp->metric, text, &run->m[M_METRIC]) == 0) {
		run->have[M_METRIC] = true;
		return;
	}
	if (!run->ok)
		return;
	nl = text + strlen(text);
	while (nl > text && nl[-1] == '\n')
		*--nl = '\0';
	nl = strrchr(text, '\n');
	snprintf(last, sizeof(last), "%s", nl ? nl + 1 : text);
	locus_err("%s: the metric (%s) is not in the workload's output (its last line: '%s')",
		  label, lp->metric.name, last);
	run->ok = false;
}

/* How the run ended, on stderr, and what it means for the loop. */
static void judge(struct bench_loop *lp, const struct sweep_run *run,
		  const struct run_outcome *out, const char *label, double secs)
{
	if (out->interrupted)
		locus_err("%s: interrupted (exit %d): kept, marked interrupted (ok false), not "
			  "counted as failed", label, out->exit_code);
	else if (!run->ok && !out->failed && out->exit_code == EXIT_LOCUS_NOEXEC)
		locus_err("%s: the command could not run (exit 127): the loop stops", label);
	else if (!run->ok && !out->failed && out->exit_code)
		locus_err("%s: the workload %s %d", label, out->exit_code > 128 ?
			  "was killed by signal" : "exited", out->exit_code > 128 ?
			  out->exit_code - 128 : out->exit_code);
	if (!out->traced && out->trace_reason[0] && lp->set->nruns == 0)
		locus_err("%s; the runs have no scheduler measures", out->trace_reason);
	if (out->exit_code == EXIT_LOCUS_NOEXEC && !out->interrupted)
		lp->noexec = true; /* every next run would fail the same way */
	if (!run->ok && !out->interrupted && !lp->failures++)
		lp->first_failure = out->exit_code ? out->exit_code : EXIT_LOCUS_RUNTIME;
	if (run->ok && !lp->quiet) {
		char a[40] = "", b[24];

		if (run->have[M_METRIC])
			snprintf(a, sizeof(a), "%.6g %s, ", run->m[M_METRIC], lp->metric.unit);
		fprintf(stderr, "locus: %s: %s%s cs/s, %.2f s\n", label, a,
			run->have[M_CS] ? fmt_short(run->m[M_CS], b, sizeof(b)) : "-", secs);
	}
}

/* One counting run of argv, its output into fd, traced by the live session live. */
static void count_one(struct bench_loop *lp, char **argv, struct live_session *live, int fd,
		      struct stat_result *res, struct run_outcome *out)
{
	struct run_cfg cfg = *lp->run;
	struct source_cfg tc = *lp->trace;

	tc.quiet = tc.quiet || lp->set->nruns > 0;
	cfg.argv = argv && argv[0] ? argv : NULL;
	cfg.repeat = 1;
	cfg.trace = &tc;
	cfg.live = live;
	cfg.output_fd = fd;
	counting_run(&cfg, res, out);
}

/* One run of one value. */
static void one(struct bench_loop *lp, const char *value, int rep, char **argv)
{
	struct sweep_run run = { 0 };
	struct run_outcome out;
	struct stat_result res;
	struct live_session *live = xcalloc(1, sizeof(*live));
	char label[128], *text;
	double secs;
	int fd = memfd_create("locus-workload-output", MFD_CLOEXEC);

	snprintf(run.value, sizeof(run.value), "%s", value);
	run.rep = rep;
	if (lp->set->sweep_name[0])
		snprintf(label, sizeof(label), "%s=%s run %d/%d", lp->set->sweep_name, value, rep,
			 lp->set->repeat);
	else
		snprintf(label, sizeof(label), "run %d/%d", rep, lp->set->repeat);
	count_one(lp, argv, live, fd, &res, &out);
	run.exit_code = out.exit_code;
	run.interrupted = out.interrupted;
	lp->interrupted = out.interrupted;
	/* an unfinished loop never exits 0: the workload's status, else 128+N of the signal */
	lp->interrupt_code = out.exit_code ? out.exit_code : 128 + out.interrupt_signal;
	secs = res.runs ? res.elapsed_ns[0] / 1e9 : 0;
	measure(lp, &run, live, &out, &res, secs);
	text = fd >= 0 ? slurp(fd) : xstrdup("");
	if (lp->show_output)
		fputs(text, stderr);
	run.ok = !out.failed && out.exit_code == 0 && !out.interrupted;
	if (lp->set->have_metric)
		find_metric(lp, &run, text, label);
	judge(lp, &run, &out, label, secs);
	sweep_set_add(lp->set, &run);
	free(text);
	if (fd >= 0)
		close(fd);
	live_session_release(live);
	free(live);
	stat_release(&res);
	if (lp->run_done)
		lp->run_done(lp);
}

void bench_loop_run(struct bench_loop *lp, char **cmdv)
{
	struct sweep_set *s = lp->set;

	for (int v = 0; v < s->nvalues && !lp->interrupted && !lp->noexec; v++) {
		char **argv = substitute(cmdv, s->sweep_name, s->values[v]);

		for (int rep = 1; rep <= s->repeat && !lp->interrupted && !lp->noexec; rep++)
			one(lp, s->values[v], rep, argv);
		free_argv(argv);
	}
}

int bench_loop_status(const struct bench_loop *lp, const char *json_path, bool json_failed,
		      int rc)
{
	if (lp->failures) {
		locus_err("%d of %d runs failed%s", lp->failures, lp->set->nruns,
			  json_path && !json_failed ? "; every run is in the JSON, marked ok false"
						    : "");
		rc = lp->first_failure;
	}
	if (lp->interrupted) { /* the user stopped it: that says more than a failure before */
		locus_err("interrupted: %d run%s kept, the last one interrupted; exit %d",
			  lp->set->nruns, lp->set->nruns == 1 ? "" : "s", lp->interrupt_code);
		rc = lp->interrupt_code;
	}
	if (json_failed) {
		locus_err("%s was not written: the runs are in the text report only", json_path);
		if (rc == EXIT_LOCUS_OK)
			rc = EXIT_LOCUS_RUNTIME;
	}
	return rc;
}

void bench_loop_prepare(struct bench_loop *lp, const struct bench_plan *bp,
			const struct topology *topo, char **cmdv)
{
	bench_loop_setup(lp->set, &lp->metric, bp, topo, cmdv);
}

void bench_loop_release(struct bench_loop *lp)
{
	if (lp->set->have_metric)
		metric_release(&lp->metric);
	memset(&lp->metric, 0, sizeof(lp->metric));
}
