/* counting_run.c - wires the launcher and the counters for stat and run, one run at a time. */
#include "counting_run.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analyzers/stat.h"
#include "../collectors/counters.h"
#include "../collectors/launcher.h"
#include "../collectors/procfs.h"
#include <linux/perf_event.h>
#include "../common/exitcodes.h"
#include "../common/util.h"

void run_command_text(char *const *argv, char *buf, size_t len)
{
	fmt_argv(argv, buf, len);
}

static void init_result(const struct run_cfg *cfg, const struct counter_set *cs,
			struct stat_result *res)
{
	const char **names = xcalloc((size_t)cfg->nevs, sizeof(char *));
	const char **enc = xcalloc((size_t)cfg->nevs, sizeof(char *));
	bool *hw = xcalloc((size_t)cfg->nevs, sizeof(bool));

	for (int i = 0; i < cfg->nevs; i++) {
		names[i] = cfg->evs[i].name;
		enc[i] = cfg->evs[i].encoding;
		hw[i] = cfg->evs[i].kind == EV_HARDWARE;
	}
	stat_init(res, cfg->nevs, names, enc, hw, cs->per_cpu ? cs->ncpus : 0, cs->cpu_ids);
	free(names);
	free(enc);
	free(hw);
}

static void record_run(struct stat_result *res, const struct counter_set *cs, double elapsed)
{
	struct stat_reading *rd = xcalloc((size_t)cs->n, sizeof(*rd));

	for (int i = 0; i < cs->n; i++) {
		const struct counter *c = &cs->c[i];

		rd[i] = (struct stat_reading){ c->open, c->counted, c->value, c->enabled_ns,
					       c->running_ns, c->cpu_value, c->source };
		if (!c->open)
			stat_set_unsupported(res, i, c->reason);
		if (c->user_only)
			stat_set_user_only(res, i);
	}
	stat_add_run(res, rd, elapsed);
	free(rd);
}

/* The software events a traced workload's own accounting gives for free. */
static bool derivable(const struct event_desc *ev)
{
	const struct perf_event_attr *a = &ev->attr;

	return ev->resolved && a->type == PERF_TYPE_SOFTWARE && !a->exclude_kernel &&
	       !a->exclude_user &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_PAGE_FAULTS ||
		a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

static double timeval_ns(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e9 + (double)tv->tv_usec * 1e3;
}

/* Fill a derived counter from the workload's rusage or the trace. */
static void derive(struct counter *c, const struct launcher *l, const struct sched_results *r)
{
	double v;

	switch (c->ev.attr.config) {
	case PERF_COUNT_SW_TASK_CLOCK:
		v = timeval_ns(&l->ru.ru_utime) + timeval_ns(&l->ru.ru_stime) - l->pre_runtime_ns;
		c->source = "rusage";
		break;
	case PERF_COUNT_SW_PAGE_FAULTS:
		v = (double)(l->ru.ru_minflt + l->ru.ru_majflt) - l->pre_faults;
		c->source = "rusage";
		break;
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		if (!r) { /* no trace: the tasks' own accounting, the split's sum */
			v = (double)(l->ru.ru_nvcsw + l->ru.ru_nivcsw) - l->pre_voluntary -
			    l->pre_involuntary;
			c->source = "rusage";
			break;
		}
		v = (double)(r->voluntary + r->involuntary);
		c->source = "sched trace";
		break;
	default:
		if (!r)
			return;
		v = (double)r->migrations;
		c->source = "sched trace";
	}
	c->open = c->counted = true;
	c->reason[0] = '\0';
	c->value = v < 0 ? 0 : v;
	c->enabled_ns = c->running_ns = 1;
}

static void start_tracing(const struct run_cfg *cfg, const struct launcher *l,
			  const struct count_target *t, struct run_outcome *out)
{
	struct source_cfg tc = *cfg->trace;
	pid_t *track = NULL;
	int ntrack = 0;

	tc.scope = cfg->pid ? SCOPE_PID : SCOPE_WORKLOAD;
	tc.scope_pid = cfg->pid;
	tc.workload_pid = cfg->argv ? l->pid : 0;
	for (int i = 0; i < cfg->nadded && i < PROV_ADDED_MAX; i++)
		tc.added[tc.nadded++] = cfg->added[i];
	if (!cfg->system_wide && !cfg->cpus && cfg->argv) {
		/* the workload (held before exec), and every thread of the processes added */
		track = xcalloc(1, sizeof(*track));
		track[ntrack++] = l->pid;
		for (int i = 0; i < cfg->nadded; i++) {
			pid_t *tids = NULL;
			int n = proc_tids(cfg->added[i], &tids);

			if (n <= 0) {
				locus_err("pid %d: gone before tracing started", (int)cfg->added[i]);
				continue;
			}
			track = xrealloc(track, (size_t)(ntrack + n) * sizeof(*track));
			memcpy(track + ntrack, tids, (size_t)n * sizeof(*tids));
			ntrack += n;
			free(tids);
		}
		tc.track = track;
		tc.ntrack = ntrack;
	} else if (!cfg->system_wide && !cfg->cpus) {
		tc.track = t->tids; /* the attached process's threads */
		tc.ntrack = t->ntids;
	}
	if (live_session_start(cfg->live, &tc, out->trace_reason, sizeof(out->trace_reason)) == 0)
		out->traced = true;
	free(track);
}

/* How long what the workload left running has to end on SIGTERM before SIGKILL. */
#define LEFT_GRACE_MS 2000

/* Wait for the workload (or an interrupt), calling the watcher meanwhile. */
static void wait_workload(const struct run_cfg *cfg, struct launcher *l,
			  struct counter_set *cs, struct run_outcome *out)
{
	const struct run_watch *w = cfg->watch;
	uint64_t stop_at = 0;
	int ms = 0;

	if (!w) {
		/* a second's timeout: each wait also reaps, should a SIGCHLD ever go missing */
		while (!launcher_wait(l, 1000))
			;
		return;
	}
	l->input_fd = w->fd;
	while (!launcher_wait(l, out->stopped ? 100 : ms)) {
		if (!out->stopped && (ms = w->tick(w->ctx, cs)) < 0) {
			out->stopped = true;
			l->input_fd = -1; /* keys no longer matter: wait without spinning */
			if (!cfg->argv)
				break; /* attached or system-wide: nothing of ours to end */
			launcher_stop(l, false);
			stop_at = now_ns();
		} else if (out->stopped && now_ns() - stop_at > 2000000000ull) {
			launcher_stop(l, true); /* it ignored SIGTERM */
		}
	}
	l->input_fd = -1;
}

/* The switches of the attached processes (-p A,B: A's and B's) so far. 0, or -errno. */
static int attached_switches(const struct run_cfg *cfg, double *vol, double *invol)
{
	int rc = proc_ctxt_switches(cfg->pid, vol, invol);

	for (int i = 0; rc == 0 && i < cfg->nadded; i++) {
		double v = 0, n = 0;

		rc = proc_ctxt_switches(cfg->added[i], &v, &n);
		*vol += v;
		*invol += n;
	}
	return rc;
}

/* The threads of the attached processes (-p A,B: B's beside A's) into *tids. Their count,
 * or -errno when A's cannot be read. */
static int attach_tids(const struct run_cfg *cfg, pid_t **tids)
{
	int n = proc_tids(cfg->pid, tids);

	if (n < 0)
		return n;
	for (int i = 0; i < cfg->nadded; i++) { /* -p A,B: B's threads beside A's */
		pid_t *more = NULL;
		int m = proc_tids(cfg->added[i], &more);

		if (m <= 0) {
			locus_err("pid %d: gone before counting started", (int)cfg->added[i]);
			continue;
		}
		*tids = xrealloc(*tids, (size_t)(n + m) * sizeof(**tids));
		memcpy(*tids + n, more, (size_t)m * sizeof(*more));
		n += m;
		free(more);
	}
	return n;
}

/*
 * The tasks to count in t: the workload forked (held before exec), or the attached
 * processes' threads (*tids, the caller's to free) and their switches so far (sw0).
 * 0, or an exit code after printing why.
 */
static int run_target(const struct run_cfg *cfg, struct launcher *l, struct count_target *t,
		      pid_t **tids, struct run_outcome *out, double sw0[2])
{
	int err;

	if (cfg->argv) {
		if ((err = launcher_fork(l, cfg->argv)) < 0) {
			locus_err("cannot start '%s': %s", cfg->argv[0], strerror(-err));
			return EXIT_LOCUS_RUNTIME;
		}
		out->pid = l->pid;
		if (!cfg->system_wide && !cfg->cpus) {
			t->tids = &l->pid;
			t->ntids = 1;
			t->enable_on_exec = true;
		}
	} else if (cfg->pid) {
		int n = attach_tids(cfg, tids);

		if (n < 0) {
			locus_err("cannot attach to pid %d: %s", (int)cfg->pid, strerror(-n));
			return EXIT_LOCUS_RUNTIME;
		}
		t->tids = *tids;
		t->ntids = n;
		out->pid = cfg->pid;
		attached_switches(cfg, &sw0[0], &sw0[1]);
	}
	return 0;
}

/* The events to open: cfg's, those derived after the run (from rusage and the trace) unresolved. */
static struct event_desc *run_events(const struct run_cfg *cfg, const struct count_target *t,
				     const struct run_outcome *out)
{
	struct event_desc *evs = xcalloc((size_t)cfg->nevs + 1, sizeof(*evs));

	if (cfg->nevs)
		memcpy(evs, cfg->evs, (size_t)cfg->nevs * sizeof(*evs));
	/* traced: all four from rusage and the trace; not (unprivileged): what rusage gives */
	if (cfg->derive_software && cfg->argv && t->tids)
		for (int i = 0; i < cfg->nevs; i++)
			if (derivable(&evs[i]) && (out->traced ||
						   evs[i].attr.config != PERF_COUNT_SW_CPU_MIGRATIONS))
				evs[i].resolved = false; /* filled in after the run */
	return evs;
}

/* The run's voluntary/involuntary split: the trace's, rusage's, /proc's, or why none. */
static void run_split(const struct run_cfg *cfg, const struct launcher *l,
		      const struct count_target *t, struct stat_result *res,
		      const struct run_outcome *out, const double sw0[2])
{
	double v1 = 0, i1 = 0;

	if (out->traced && cfg->repeat == 1) {
		/* the trace's own split: the switches the scheduler sections count, every
		 * traced task (processes -p added too), summing to the traced total */
		const struct sched_results *tr = live_session_results(cfg->live);

		stat_add_split(res, (double)tr->voluntary, (double)tr->involuntary, SPLIT_TRACE);
		if (cfg->argv && t->tids)
			stat_keep_rusage(res, (double)l->ru.ru_nvcsw - l->pre_voluntary,
					 (double)l->ru.ru_nivcsw - l->pre_involuntary);
	} else if (cfg->argv && t->tids) {
		stat_add_split(res, (double)l->ru.ru_nvcsw - l->pre_voluntary,
			       (double)l->ru.ru_nivcsw - l->pre_involuntary, SPLIT_RUSAGE);
	} else if (cfg->pid) {
		if (attached_switches(cfg, &v1, &i1) == 0)
			stat_add_split(res, v1 - sw0[0], i1 - sw0[1], SPLIT_PROCFS);
		else
			stat_no_split(res, "the process exited before its counts could be read");
	} else {
		stat_no_split(res, "system-wide counting has no per-task split");
	}
}

/*
 * The counted span: the counters enabled, the workload started (or the attached tasks
 * watched) until it ends, the trace stopped, the counts read into res. 0, or
 * EXIT_LOCUS_NOEXEC after printing why the workload could not run.
 */
static int run_counted(const struct run_cfg *cfg, struct launcher *l,
		       const struct count_target *t, struct counter_set *cs,
		       const struct event_desc *evs, struct stat_result *res,
		       struct run_outcome *out, const double sw0[2])
{
	uint64_t t0, t1;
	int err;

	if (res->runs == 0 && !res->c)
		init_result(cfg, cs, res);
	if (!t->enable_on_exec)
		counters_enable(cs);
	t0 = now_ns();
	if (cfg->argv && (err = launcher_start(l)) < 0) {
		locus_err("cannot run '%s': %s", cfg->argv[0], strerror(-err));
		return EXIT_LOCUS_NOEXEC;
	}
	wait_workload(cfg, l, cs, out);
	t1 = now_ns();
	if (out->traced)
		live_session_stop(cfg->live);
	counters_disable(cs);
	counters_read(cs);
	for (int i = 0; i < cs->n; i++)
		if (!evs[i].resolved && cfg->evs[i].resolved)
			derive(&cs->c[i], l, out->traced ? live_session_results(cfg->live) : NULL);
	record_run(res, cs, (double)(t1 - t0));
	run_split(cfg, l, t, res, out, sw0);
	return 0;
}

/* -p alone: the process already ended (its pidfd readable), a zombie included. */
static bool attached_gone(const struct run_cfg *cfg, const struct launcher *l)
{
	struct pollfd p = { .fd = l->watch_fd, .events = POLLIN };

	return cfg->pid && !cfg->argv && l->watch_fd >= 0 && poll(&p, 1, 0) == 1;
}

/* One run. Returns 0, or an exit code after printing why the run failed. */
static int one_run(const struct run_cfg *cfg, struct launcher *l, struct stat_result *res,
		   struct run_outcome *out)
{
	struct count_target t = { .cpus = cfg->cpus, .ncpus = cfg->ncpus, .per_cpu = cfg->per_cpu };
	struct counter_set cs;
	struct event_desc *evs;
	pid_t *tids = NULL;
	double sw0[2] = { 0, 0 };
	int rc, err;

	rc = run_target(cfg, l, &t, &tids, out, sw0);
	if (rc)
		goto out;
	if (cfg->trace && res->runs == 0)
		start_tracing(cfg, l, &t, out);
	if (attached_gone(cfg, l)) { /* before its counters: else every one "No such process" */
		locus_err("pid %d ended before locus could attach to it: nothing to count",
			  (int)cfg->pid);
		rc = EXIT_LOCUS_RUNTIME;
		if (out->traced)
			live_session_stop(cfg->live);
		goto out;
	}
	evs = run_events(cfg, &t, out);
	err = counters_open(&cs, evs, cfg->nevs, &t);
	if (err) {
		locus_err("cannot set up counters: %s", strerror(-err));
		rc = EXIT_LOCUS_RUNTIME;
	} else {
		rc = run_counted(cfg, l, &t, &cs, evs, res, out, sw0);
		counters_close(&cs);
	}
	free(evs);
	if (rc && out->traced)
		live_session_stop(cfg->live); /* a run that failed: the trace ends with it */
out:
	free(tids);
	if (rc)
		return rc;
	if (cfg->argv) { /* nothing locus started outlives it, nor disturbs the next run */
		launcher_end_tree(l, LEFT_GRACE_MS, &out->left);
		proctree_describe(&out->left, l->interrupts > 0, out->left_line,
				  sizeof(out->left_line));
	}
	out->exit_code = launcher_exit_code(l);
	return 0;
}

void counting_run(const struct run_cfg *cfg, struct stat_result *res,
		  struct run_outcome *out)
{
	struct launcher l;
	int err;

	memset(res, 0, sizeof(*res));
	memset(out, 0, sizeof(*out));
	if ((err = launcher_init(&l)) < 0) {
		locus_err("cannot set up signal handling: %s", strerror(-err));
		out->failed = true;
		out->exit_code = EXIT_LOCUS_RUNTIME;
		return;
	}
	l.output_fd = cfg->output_fd;
	if (cfg->pid && !cfg->argv && (err = launcher_watch(&l, cfg->pid)) < 0) {
		locus_err("cannot watch pid %d: %s", (int)cfg->pid, strerror(-err));
		out->failed = true;
		out->exit_code = EXIT_LOCUS_RUNTIME;
		goto out;
	}
	for (int run = 0; run < cfg->repeat; run++) {
		int rc = one_run(cfg, &l, res, out);

		if (rc) {
			out->exit_code = rc;
			out->failed = rc == EXIT_LOCUS_RUNTIME;
			break;
		}
		if (l.interrupts) {
			out->interrupted = true;
			out->interrupt_signal = l.last_signal;
			break;
		}
	}
out:
	launcher_release(&l);
	if (res->c)
		stat_finish(res);
}
