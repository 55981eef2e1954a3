/* run.c - `locus run`: wrap a workload and report everything this machine can measure. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../collectors/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "commands.h"
#include "counting.h"
#include "sweep.h"
#include "traced.h"

enum { OPT_SECTIONS = OPT_COUNTING_END, OPT_SVG, OPT_SWEEP, OPT_METRIC,
       OPT_DIRECTION, OPT_SHOW_OUTPUT };

static const struct cli_opt run_opts[] = {
	{ "event", 'e', "LIST", "counters to use: libpfm4 or perf names, sys:tracepoint, hitm" },
	{ "all-cpus", 'a', NULL, "collect system-wide on every CPU (every task but locus)" },
	{ "cpu", 'C', "LIST", "collect system-wide on these CPUs only (0-3,8)" },
	{ "pid", 'p', "PID,...", "also trace these running processes and their new children with "
				 "the command (a benchmark's server: tbench_srv, postgres)" },
	{ "per-cpu", 'A', NULL, "also show each counter per CPU" },
	{ "repeat", 'r', "N", "run the command N times: a table of every run, mean, stddev" },
	{ "sweep", OPT_SWEEP, "NAME=V1,V2", "run once per value (times -r), {NAME} in the command "
					  "replaced by it" },
	{ "metric", OPT_METRIC, "PRESET|REGEX", "the benchmark's figure of merit from its output: "
						"tbench, hackbench, pgbench, sysbench, netperf, "
						"schbench, pingpong, or a regex with one group" },
	{ "direction", OPT_DIRECTION, "higher|lower", "which way the --metric regex is better" },
	{ "show-output", OPT_SHOW_OUTPUT, NULL, "with -r/--sweep/--metric, echo the workload's "
					       "output to stderr" },
	{ "sections", OPT_SECTIONS, "LIST", "report only these: counters,wakeups,latency,pairs,"
					      "migrations,switches,cpus,cachelines (default all)" },
	{ "json", OPT_JSON, "FILE", "also write the results as JSON (- for stdout)" },
	{ "svg", OPT_SVG, "FILE", "draw the wakeup heatmap (waker x target CPU) as SVG; with "
				  "-r/--sweep, the metric per value and class shares" },
	{ "output", 'o', "FILE", "write the text report to FILE instead of stdout" },
	COLLECTOR_OPT_ROWS,
	TRACE_OPT_ROWS,
	TAIL_OPT_ROWS,
	{ 0 },
};

static const struct cli_cmd run_cmd = {
	"run", "[options] [-- COMMAND [ARGS...]]",
	"Run a workload and report its counters and its scheduling: where wakeups\n"
	"landed relative to the waker and the previous CPU (same CPU, SMT, LLC, node,\n"
	"remote), wake-to-run delay, migrations, context switches and CPU use.\n"
	"Without a command, runs the built-in workload 'locus bench pingpong'.\n"
	"With -r, --sweep or --metric it runs the benchmark loop instead: each sweep value\n"
	"N times, the benchmark's metric next to switches/s, migrations/s, class shares,\n"
	"p99 wake-to-run and HITM/s per run; --json keeps every run for 'locus diff'.",
	run_opts,
};

struct run_opts {
	struct sweep_opts sw;
	unsigned sections;
	const char *svg;
	struct trace_opts tr;
};

static int take_run_opt(struct run_opts *ro, int c, const char *arg)
{
	char bad[64];
	int took;

	switch (c) {
	case OPT_SECTIONS:
		if (report_sections_parse(arg, &ro->sections, bad, sizeof(bad)) < 0) {
			cli_usage_error(&run_cmd, "unknown section '%s' (counters, wakeups, latency, "
					"pairs, migrations, switches, cpus, cachelines, all)", bad);
			return -1;
		}
		return 1;
	case OPT_SVG:
		ro->svg = arg;
		return 1;
	case OPT_SWEEP:
		ro->sw.sweep = arg;
		return 1;
	case OPT_METRIC:
		ro->sw.metric = arg;
		return 1;
	case OPT_DIRECTION:
		ro->sw.direction = arg;
		return 1;
	case OPT_SHOW_OUTPUT:
		ro->sw.show_output = true;
		return 1;
	}
	took = trace_take(&ro->tr, &run_cmd, c, arg);
	return took ? took : collector_take(&ro->sw.col, &run_cmd, c, arg);
}

int cmd_run(int argc, char **argv)
{
	struct counting_opts o = { 0 };
	struct run_opts ro = { .sections = SEC_ALL, .sw.col.delay_rate = LOCUS_DELAY_RATE };
	char *builtin[] = { (char *)locus_self_path(), "bench", "pingpong", NULL };
	struct session_cfg cfg;
	struct session_outcome out;
	struct stat_result res;
	struct topology topo;
	struct tracer tracer;
	struct source_cfg tc;
	struct traced_report rr;
	struct report_extra extra;
	struct cli_parser p;
	char **cmdv;
	bool loop;
	int c, rc;

	cli_parser_init(&p, &run_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		int took;

		if (c == -2)
			return EXIT_LOCUS_USAGE;
		if (c == 'h') {
			cli_print_help(stdout, &run_cmd);
			return EXIT_LOCUS_OK;
		}
		took = take_run_opt(&ro, c, optarg);
		if (took == 0)
			took = counting_take(&o, &run_cmd, c, optarg);
		if (took < 0) {
			counting_release(&o);
			return EXIT_LOCUS_USAGE;
		}
	}
	cmdv = argv + optind;
	if (!cmdv[0] && !o.all_cpus && !o.cpu_list) {
		cmdv = builtin;
		if (!o.quiet)
			fprintf(stderr, "locus: no command given: running the built-in workload "
					"'locus bench pingpong'\n");
	}
	if (counting_finish(&o, &run_cmd, cmdv) < 0 || collector_finish(&ro.sw.col, &run_cmd) < 0 ||
	    cli_check_output(&run_cmd, ro.svg) < 0) {
		counting_release(&o);
		return EXIT_LOCUS_USAGE;
	}
	loop = o.repeat > 1 || ro.sw.sweep || ro.sw.metric || ro.sw.direction;
	if (loop && sweep_check(&run_cmd, &ro.sw, cmdv) < 0) {
		counting_release(&o);
		return EXIT_LOCUS_USAGE;
	}
	if ((rc = cli_load_topology(&run_cmd, ro.tr.sysfs_root, &topo))) {
		counting_release(&o);
		return rc;
	}
	if (loop) {
		ro.sw.svg = ro.svg;
		ro.sw.tracefs = ro.tr.tracefs;
		ro.sw.pages = ro.tr.pages;
		ro.sw.argc = argc;
		ro.sw.argv = argv;
		rc = sweep_main(&o, &ro.sw, cmdv, &topo);
		topology_release(&topo);
		counting_release(&o);
		return rc;
	}
	counting_session(&o, cmdv, &cfg);
	if (!(ro.sections & SEC_COUNTERS))
		cfg.nevs = 0; /* counters cost every context switch something: open none */
	cfg.derive_software = !o.events; /* the default set: cheap sources where they exist */
	tc = (struct source_cfg){ .topo = &topo, .cpus = o.cpus, .ncpus = o.ncpus,
				  .tracefs = ro.tr.tracefs, .mmap_pages = (int)ro.tr.pages,
				  .system_wide = o.all_cpus || o.cpu_list,
				  .memory = (ro.sections & SEC_CACHELINES) != 0,
				  .collector = ro.sw.col.collector, .btf = ro.sw.col.btf,
				  .delay_rate = ro.sw.col.delay_rate, .quiet = o.quiet,
				  .max_tasks = (int)ro.sw.col.max_tasks,
				  .max_pairs = (int)ro.sw.col.max_pairs };
	memset(&tracer, 0, sizeof(tracer));
	if (ro.sections & (SEC_SCHED | SEC_CACHELINES)) {
		cfg.trace = &tc;
		cfg.tracer = &tracer;
	}
	session_count(&cfg, &res, &out);
	rc = out.exit_code;
	if (cfg.trace && !out.traced && !out.failed && res.runs > 0 && !o.quiet)
		locus_err("%s; reporting counters only", out.trace_reason);
	traced_report_init(&rr, &tracer, &tc, &out, ro.sections);
	extra = traced_report_extra(&rr);
	if (res.runs > 0 && counting_report(&o, &res, &out, cmdv, &extra) != 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (res.runs > 0 && ro.svg && rr.res) {
		char title[1100];

		session_command_text(cmdv, title, sizeof(title));
		if (write_heatmap_svg(ro.svg, rr.res, title) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	}
	if (cfg.trace)
		tracer_release(&tracer);
	stat_release(&res);
	topology_release(&topo);
	counting_release(&o);
	return rc;
}
