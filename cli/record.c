/* record.c - `locus record`: the sched tracepoints of a workload into a perf.data file. */
#include <stdio.h>
#include <string.h>

#include "../collectors/perfdata.h"
#include "../collectors/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "counting.h"
#include "trace_export.h"

static const struct cli_opt record_opts[] = {
	{ "output", 'o', "FILE", "the perf.data file to write (default perf.data)" },
	{ "all-cpus", 'a', NULL, "record every task, not only the workload's" },
	{ "cpu", 'C', "LIST", "record these CPUs only" },
	{ "pid", 'p', "PID,...", "also record these running processes and their new children "
				 "with the command (a benchmark's server); locus report follows "
				 "them with the command's tree" },
	TIMELINE_OPT_ROWS,
	TRACE_OPT_ROWS,
	TAIL_OPT_ROWS,
	{ 0 },
};

static const struct cli_cmd record_cmd = {
	"record", "[options] -- COMMAND [ARGS...]",
	"Record the sched tracepoints while COMMAND runs into a perf.data file that\n"
	"locus report, perf script and perf report read. The file carries the\n"
	"tracepoint formats and the machine's topology. --trace and --svg-timeline\n"
	"also write its timelines once the workload ends (as locus report does).",
	record_opts,
};

int cmd_record(int argc, char **argv)
{
	struct counting_opts o = { 0 };
	const char *path = "perf.data";
	struct trace_opts tr = { 0 };
	struct trace_export tx = { 0 };
	char err[320], cmdline[1024], size[32], n[32];
	struct session_cfg cfg;
	struct session_outcome out;
	struct stat_result res;
	struct topology topo;
	struct tracer tracer;
	struct source_cfg tc;
	struct cli_parser p;
	char **cmdv;
	int c, rc, took;

	cli_parser_init(&p, &record_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		if (c == -2)
			return EXIT_LOCUS_USAGE;
		switch (c) {
		case 'h':
			cli_print_help(stdout, &record_cmd);
			return EXIT_LOCUS_OK;
		case 'o':
			path = optarg;
			continue;
		}
		if ((took = timeline_take(&tx, &record_cmd, c, optarg)) < 0)
			return EXIT_LOCUS_USAGE;
		if (!took && (took = trace_take(&tr, &record_cmd, c, optarg)) < 0)
			return EXIT_LOCUS_USAGE;
		if (!took && counting_take(&o, &record_cmd, c, optarg) < 0) {
			counting_release(&o);
			return EXIT_LOCUS_USAGE;
		}
	}
	cmdv = argv + optind;
	if (o.pid_list && !cmdv[0]) {
		cli_usage_error(&record_cmd, "-p adds running processes to a command's tree: give "
				"the command after -- (or -a for every task)");
		return EXIT_LOCUS_USAGE;
	}
	if (!cmdv[0] && !o.all_cpus && !o.cpu_list) {
		cli_usage_error(&record_cmd, "nothing to record: give a command after --, or -a");
		return EXIT_LOCUS_USAGE;
	}
	o.events = xstrdup("task-clock"); /* resolved, then not opened: record writes no counters */
	if (counting_finish(&o, &record_cmd, cmdv) < 0 || cli_check_output(&record_cmd, path) < 0 ||
	    timeline_opts_finish(&tx, &record_cmd) < 0) {
		counting_release(&o);
		return EXIT_LOCUS_USAGE;
	}
	if ((rc = cli_load_topology(&record_cmd, tr.sysfs_root, &topo))) {
		counting_release(&o);
		return rc;
	}
	/* the command line as given (-a, -C and all): what the file was recorded with */
	snprintf(cmdline, sizeof(cmdline), "locus ");
	session_command_text(argv, cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline));
	/* the processes -p added: locus report follows them with the workload's tree */
	for (int i = 0; i < o.nadded; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline), "%s%d%s",
			 i ? "," : " " PD_ADDED_MARK, (int)o.added[i], i + 1 < o.nadded ? "" : "]");
	counting_session(&o, cmdv, &cfg);
	cfg.nevs = 0;
	tc = (struct source_cfg){ .topo = &topo, .cpus = o.cpus, .ncpus = o.ncpus,
				  .tracefs = tr.tracefs, .mmap_pages = (int)tr.pages,
				  .system_wide = o.all_cpus || o.cpu_list, .record_path = path,
				  .cmdline = cmdline, .collector = COLLECTOR_PERF,
				  .memory = true };
	memset(&tracer, 0, sizeof(tracer));
	cfg.trace = &tc;
	cfg.tracer = &tracer;
	session_count(&cfg, &res, &out);
	rc = out.exit_code;
	if (out.left.n && !o.quiet)
		fprintf(stderr, "[ locus record: %s ]\n", out.left_line);
	if (!out.failed && !out.traced && res.runs > 0) {
		locus_err("%s", out.trace_reason);
		if (rc == EXIT_LOCUS_OK)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (out.traced) {
		if (tracer.src->write_err) {
			locus_err("%s: %s: the file holds the %s whole records written before it (locus report reads them)",
				  path, strerror(-tracer.src->write_err),
				  fmt_count(tracer.src->file_records, n, sizeof(n)));
			if (rc == EXIT_LOCUS_OK)
				rc = EXIT_LOCUS_RUNTIME;
		} else if (!o.quiet) {
			fprintf(stderr, "[ locus record: wrote %s events (%s, %s lost) to %s ]\n",
				fmt_count(tracer.src->events, n, sizeof(n)),
				fmt_bytes(tracer.src->file_bytes, size, sizeof(size)),
				fmt_count(tracer.src->lost, err, sizeof(err)), path);
			if (tracer.src->keep_pages)
				fprintf(stderr, "[ locus record: records were lost: -m %d would have "
					"kept them (the ring plus twice its largest overflow) ]\n",
					tracer.src->keep_pages);
			if (tracer.src->mem_why[0])
				fprintf(stderr, "[ locus record: no memory samples: %s ]\n",
					tracer.src->mem_why);
			else
				fprintf(stderr, "[ locus record: %s memory samples among them ]\n",
					fmt_count(tracer.src->file_mem_samples, n, sizeof(n)));
		}
		if (!tracer.src->write_err && (tx.trace || tx.svg)) {
			tx.quiet = o.quiet;
			if (trace_export_file(path, tr.sysfs_root, o.all_cpus || o.cpu_list, &tx) < 0 &&
			    rc == EXIT_LOCUS_OK)
				rc = EXIT_LOCUS_RUNTIME;
		}
	}
	tracer_release(&tracer);
	stat_release(&res);
	topology_release(&topo);
	counting_release(&o);
	return rc;
}
