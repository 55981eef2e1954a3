/* top.c - `locus top`: the live dashboard over a workload or the whole machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/dash_screen.h"
#include "../pipeline/watch.h"
#include "commands.h"
#include "counting.h"

enum { OPT_EXIT_ON_END = OPT_COUNTING_END, OPT_TEXT, OPT_WORKLOAD_OUTPUT, OPT_KEEP_OUTPUT,
       OPT_NO_ANTAGONISTS };

static const struct cli_opt top_opts[] = {
	{ "delay", 'd', "SECS", "refresh every SECS seconds (default 1, at least 0.1)" },
	{ "iterations", 'n', "N", "stop after N refreshes" },
	{ "all-cpus", 'a', NULL, "watch every task on every CPU but locus (the default "
				 "without a command)" },
	{ "cpu", 'C', "LIST", "watch these CPUs only (0-3,8)" },
	{ "pid", 'p', "PID,...", "watch existing processes and their threads (A,B: a client and "
				 "its server); beside a command, also trace them with it" },
	{ "event", 'e', "LIST", "counters for the final report (default set otherwise)" },
	{ "exit-on-end", OPT_EXIT_ON_END, NULL, "leave as soon as the workload exits" },
	{ "text", OPT_TEXT, NULL, "print a text snapshot each interval, no full screen" },
	{ "workload-output", OPT_WORKLOAD_OUTPUT, "FILE", "the workload's stdout and stderr go to "
			  "FILE, kept (default with the full screen: $TMPDIR/locus-top.PID.out, "
			  "its last lines printed and the file removed at exit; key o shows its "
			  "last lines)" },
	{ "keep-output", OPT_KEEP_OUTPUT, NULL, "keep the default output file at exit (its "
			  "path is said)" },
	{ "no-antagonists", OPT_NO_ANTAGONISTS, NULL, "no antagonists pane: the perf stream "
			  "then leaves out the irq tracepoints and who delayed woken tasks, the BPF "
			  "collector does not split the waits" },
	{ "json", OPT_JSON, "FILE", "write the final results as JSON (- for stdout)" },
	{ "output", 'o', "FILE", "write the final text report to FILE instead of stdout" },
	COLLECTOR_OPT_ROWS,
	TRACE_OPT_ROWS,
	TAIL_OPT_ROWS,
	{ 0 },
};

static const struct cli_cmd top_cmd = {
	.name = "top",
	.usage = "[options] [-- COMMAND [ARGS...]]",
	.summary = "Watch a workload live: context switches, migrations and wakeups per second,\n"
		   "the wakeup heatmap (waker x target CPU), locality classes, wake-to-run\n"
		   "delay, the busiest task pairs, per-CPU busy time, and hot cachelines where\n"
		   "the PMU samples memory. Without a command, watches the whole machine.\n"
		   "The antagonists pane says which tasks delayed woken tasks most (ran on their\n"
		   "CPU while they waited) and splits the wait by cause: every wakeup on the perf\n"
		   "stream (--collector perf); on the BPF collector the timed wakeups (1 in N,\n"
		   "sampled), split in the kernel, without irq handler names or chains.\n"
		   "Keys: q quit, space pause, tab or 1-5 focus, s sort, i interval/cumulative,\n"
		   "r reset, a antagonists, o the workload's output, h or ? help, arrows scroll.\n"
		   "The screen is the dashboard's: the workload writes to a file\n"
		   "(--workload-output). Without a terminal (or with --text) it prints a text\n"
		   "snapshot each interval. The text report follows at the end (with the\n"
		   "antagonists' \"Why woken tasks waited\" where the pane had them).",
	.opts = top_opts,
};


/* What the command line asks for. */
struct top_plan {
	struct counting_opts o;
	struct trace_opts tr;
	struct collector_opts col;
	int interval_ms;		/* -d */
	long iterations;		/* -n */
	bool exit_on_end, text;
	bool no_antagonists;		/* --no-antagonists: no pane, no blame collected */
	const char *output_path;	/* --workload-output */
	bool keep_output;		/* --keep-output: the default file stays after exit */
	char **cmdv;		/* the workload, or none: what -a, -C or -p watch */
};

/* The dashboard over the watched session. */
struct top {
	const struct top_plan *pl;
	struct live_session *live;
	struct watch w;			/* its snapshots, intervals, totals, series, header */
	uint64_t draw_cpu_ns;		/* the dashboard's own CPU time (main thread) */
	struct tui *tui;
	struct dash_ui ui;
	bool redraw;
};

static void draw(struct top *tp)
{
	struct dash_view v = { 0 };

	watch_view(&tp->w, tp->ui.cumulative, tp->ui.blame_pane, now_ns(), &v);
	if (watch_output_path(&tp->w) && tp->tui) {
		v.output_path = watch_output_path(&tp->w);
		if (tp->ui.output)
			v.output_tail = watch_output_tail(&tp->w);
	}
	v.ui = &tp->ui;
	dash_show(tp->tui, &v);
}

/* Keys waiting on the terminal. Returns false when the user quits or the terminal is gone. */
static bool keys(struct top *tp)
{
	bool reset = false;

	if (!dash_keys(tp->tui, &tp->ui, &tp->redraw, &reset))
		return false;
	if (reset)
		watch_reset(&tp->w);
	return true;
}

static int tick(void *ctx, struct counter_set *cs)
{
	struct top *tp = ctx;
	uint64_t c0 = thread_cpu_ns();

	if (!keys(tp))
		return -1;
	if (watch_due(&tp->w, now_ns(), tp->ui.paused)) {
		watch_sample(&tp->w, cs, now_ns());
		tp->redraw = true;
	}
	if (tp->redraw)
		draw(tp);
	tp->redraw = false;
	tp->draw_cpu_ns += thread_cpu_ns() - c0;
	if (tp->pl->iterations && tp->w.refreshes >= tp->pl->iterations)
		return -1;
	return watch_wait_ms(&tp->w, now_ns());
}

static int take_top_opt(void *ctx, int c, const char *arg)
{
	struct top_plan *pl = ctx;
	double d;
	int took;

	switch (c) {
	case 'd':
		if (parse_double(arg, 0.1, 3600, &d) < 0) {
			cli_usage_error(&top_cmd, "bad refresh delay '%s' (seconds, 0.1 to 3600)", arg);
			return -1;
		}
		pl->interval_ms = (int)(d * 1000 + 0.5);
		return 1;
	case 'n':
		if (parse_long(arg, 1, 1000000000L, &pl->iterations) < 0) {
			cli_usage_error(&top_cmd, "bad iteration count '%s'", arg);
			return -1;
		}
		return 1;
	case OPT_EXIT_ON_END:
		pl->exit_on_end = true;
		return 1;
	case OPT_TEXT:
		pl->text = true;
		return 1;
	case OPT_WORKLOAD_OUTPUT:
		pl->output_path = arg;
		return 1;
	case OPT_KEEP_OUTPUT:
		pl->keep_output = true;
		return 1;
	case OPT_NO_ANTAGONISTS:
		pl->no_antagonists = true;
		return 1;
	}
	took = trace_take(&pl->tr, &top_cmd, c, arg);
	if (!took)
		took = collector_take(&pl->col, &top_cmd, c, arg);
	return took ? took : counting_take(&pl->o, &top_cmd, c, arg);
}

/* The workload has ended: show the final screen until q. */
static void final_screen(struct top *tp)
{
	tp->ui.paused = false;
	watch_sample(&tp->w, NULL, now_ns());
	tp->ui.cumulative = true; /* what the run did, whole */
	draw(tp);
	while (tui_wait(tp->tui) && keys(tp))
		draw(tp); /* a resize ends the wait too */
}

/* After every option: the scope, then every setting checked. 0, or -1 after a usage error. */
static int top_validate(struct top_plan *pl)
{
	if (!pl->cmdv[0] && !pl->o.pid && !pl->o.cpu_list)
		pl->o.all_cpus = true; /* no command: the whole machine */
	if (counting_finish(&pl->o, &top_cmd, pl->cmdv) < 0 ||
	    collector_finish(&pl->col, &pl->tr, &top_cmd) < 0 ||
	    cli_check_output(&top_cmd, pl->output_path) < 0)
		return -1;
	if (pl->output_path && !pl->cmdv[0]) {
		cli_usage_error(&top_cmd, "--workload-output needs a command to run");
		return -1;
	}
	return 0;
}

/* Before the session: what the dashboard watches, what it cannot show, the screen. */
static void top_describe(struct top *tp)
{
	const struct top_plan *pl = tp->pl;
	char why[200];

	watch_describe(&tp->w, pl->cmdv, &pl->o);
	if (!pl->text) {
		tp->tui = tui_open(why, sizeof(why));
		if (!tp->tui && !pl->o.quiet)
			locus_err("no full-screen dashboard (%s): printing a text snapshot each "
				  "interval", why);
	}
}

/* The clock and the empty results the first interval fills; the watch over the session. */
static void top_start(struct top *tp, const struct topology *topo,
		      const struct run_outcome *out, struct run_watch *watch)
{
	tp->w.interval_ms = tp->pl->interval_ms;
	tp->w.live = tp->live;
	tp->w.out = out;
	watch_start(&tp->w, topo, now_ns());
	tp->redraw = tp->tui != NULL; /* a frame at once, filled at the first interval */
	*watch = (struct run_watch){ .fd = tp->tui ? tui_fd(tp->tui) : -1, .tick = tick,
					 .ctx = tp };
}

/* The session has ended: the final screen until q, then the screen given back. */
static void top_leave(struct top *tp, const struct run_outcome *out)
{
	const struct top_plan *pl = tp->pl;
	char *state = tp->w.state;

	watch_end(&tp->w, out, !pl->cmdv[0] && !pl->o.pid);
	if (tp->tui)
		snprintf(state + strlen(state), sizeof(tp->w.state) - strlen(state),
			 ", q to leave");
	if (tp->tui && out->traced && !pl->exit_on_end && !out->interrupted && !out->stopped &&
	    !out->failed && !(pl->iterations && tp->w.refreshes >= pl->iterations))
		final_screen(tp);
	tui_close(tp->tui);
	watch_output_close(&tp->w, pl->o.quiet, pl->keep_output);
	locus_verbose("dashboard: %ld refreshes, %.1f ms of CPU in the main thread over %.1f s "
		      "(%.2f%% of one CPU)", tp->w.refreshes, (double)tp->draw_cpu_ns / 1e6,
		      (double)(now_ns() - tp->w.t0) / 1e9,
		      100.0 * (double)tp->draw_cpu_ns / (double)(now_ns() - tp->w.t0));
}

/* The final report after the dashboard. The exit status. */
static int top_report(const struct top_plan *pl, struct live_session *live,
		      const struct stat_result *res, const struct run_outcome *out)
{
	struct traced_report rr;
	struct report_extra extra;
	int rc = out->stopped ? EXIT_LOCUS_OK : out->exit_code;

	if (!out->traced && !out->failed && res->runs > 0 && !pl->o.quiet)
		locus_err("%s; reporting counters only", out->trace_reason);
	/* who delayed the wakee, whole, where the antagonists pane had it */
	traced_report_init(&rr, live, out, SEC_ALL | (live_session_blame(live) ? SEC_BLAME : 0));
	extra = traced_report_extra(&rr);
	if (res->runs > 0 && counting_report(&pl->o, res, out, pl->cmdv, &extra) != 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (out->failed)
		rc = EXIT_LOCUS_RUNTIME;
	return rc;
}

/* The watched session with the dashboard, then the report. The exit status. */
static int top_session(struct top *tp, const struct topology *topo)
{
	const struct top_plan *pl = tp->pl;
	struct run_watch watch;
	struct run_cfg cfg;
	struct run_outcome out;
	struct stat_result res;
	struct live_session *live = tp->live;
	struct source_cfg tc;
	int rc;

	counting_run_cfg(&pl->o, pl->cmdv, &cfg);
	cfg.derive_software = !pl->o.events;
	traced_source_cfg(&tc, &pl->o, &pl->tr, &pl->col, topo);
	tc.memory = true;
	tc.stream.blame_if_streamed = !pl->no_antagonists; /* the pane; no reason to refuse BPF */
	tc.stream.blame_no_p99 = true; /* watched for hours: no record of each wakeup */
	tc.bpf.blame = !pl->no_antagonists; /* on BPF: split in the kernel, the timed wakeups */
	tp->ui.blame_pane = !pl->no_antagonists;
	memset(live, 0, sizeof(*live));
	cfg.trace = &tc;
	cfg.live = live;
	tp->w.topo = topo;
	top_describe(tp);
	if (pl->cmdv[0] && (pl->output_path || tp->tui) &&
	    (cfg.output_fd = watch_output_open(&tp->w, pl->output_path)) < 0) {
		tui_close(tp->tui);
		return EXIT_LOCUS_RUNTIME;
	}
	top_start(tp, topo, &out, &watch);
	cfg.watch = &watch;
	counting_run(&cfg, &res, &out);
	top_leave(tp, &out);
	rc = top_report(pl, live, &res, &out);
	live_session_release(live);
	watch_release(&tp->w);
	stat_release(&res);
	return rc;
}

int cmd_top(int argc, char **argv)
{
	struct live_session live; /* the watched session's, read by the dashboard */
	struct top_plan pl = { .interval_ms = 1000, .col.delay_rate = LOCUS_DELAY_RATE };
	struct top tp = { .pl = &pl, .live = &live };
	struct topology topo;
	int rc;

	if (!cli_parse(&top_cmd, argc, argv, take_top_opt, &pl, &rc))
		goto out;
	pl.cmdv = argv + optind;
	rc = EXIT_LOCUS_USAGE;
	if (top_validate(&pl) < 0)
		goto out;
	rc = cli_load_topology(&top_cmd, pl.tr.sysfs_root, &topo);
	if (rc)
		goto out;
	rc = top_session(&tp, &topo);
	topology_release(&topo);
out:
	counting_release(&pl.o);
	return rc;
}
