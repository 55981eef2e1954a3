/* record.c - `locus record`: the sched tracepoints of a workload into a perf.data file. */
#include <stdio.h>
#include <string.h>

#include "../collectors/topology.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "counting.h"

enum { OPT_TRACEFS = OPT_SYSFS_ROOT + 1 };

static const struct cli_opt record_opts[] = {
	{ "output", 'o', "FILE", "the perf.data file to write (default perf.data)" },
	{ "all-cpus", 'a', NULL, "record every task, not only the workload's" },
	{ "cpu", 'C', "LIST", "record these CPUs only" },
	{ "sysfs-root", OPT_SYSFS_ROOT, "DIR", "topology to write into the file: DIR, not /sys" },
	{ "tracefs", OPT_TRACEFS, "DIR", "tracefs mount point (default: found, or mounted)" },
	{ "mmap-pages", 'm', "N", "ring buffer pages per CPU, a power of two" },
	{ "quiet", 'q', NULL, "no summary line on stderr" },
	{ "verbose", 'v', NULL, "more detail on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd record_cmd = {
	"record", "[options] -- COMMAND [ARGS...]",
	"Record the sched tracepoints while COMMAND runs into a perf.data file that\n"
	"locus report, perf script and perf report read. The file carries the\n"
	"tracepoint formats and the machine's topology.",
	record_opts,
};

int cmd_record(int argc, char **argv)
{
	struct counting_opts o = { 0 };
	const char *path = "perf.data", *sysfs = NULL, *tracefs = NULL;
	char err[320], cmdline[1024], size[32], n[32];
	struct session_cfg cfg;
	struct session_outcome out;
	struct stat_result res;
	struct topology topo;
	struct tracer tracer;
	struct tracer_cfg tc;
	struct cli_parser p;
	long pages = 0;
	char **cmdv;
	int c, rc;

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
		case OPT_SYSFS_ROOT:
			sysfs = optarg;
			continue;
		case OPT_TRACEFS:
			tracefs = optarg;
			continue;
		case 'm':
			if (cli_parse_pages(&record_cmd, optarg, &pages) < 0)
				return EXIT_LOCUS_USAGE;
			continue;
		}
		if (counting_take(&o, &record_cmd, c, optarg) < 0) {
			counting_release(&o);
			return EXIT_LOCUS_USAGE;
		}
	}
	cmdv = argv + optind;
	if (!cmdv[0] && !o.all_cpus && !o.cpu_list) {
		cli_usage_error(&record_cmd, "nothing to record: give a command after --, or -a");
		return EXIT_LOCUS_USAGE;
	}
	o.events = xstrdup("task-clock"); /* resolved, then not opened: record writes no counters */
	if (counting_finish(&o, &record_cmd, cmdv) < 0) {
		counting_release(&o);
		return EXIT_LOCUS_USAGE;
	}
	if ((rc = cli_load_topology(&record_cmd, sysfs, &topo))) {
		counting_release(&o);
		return rc;
	}
	snprintf(cmdline, sizeof(cmdline), "locus record -o %s -- ", path);
	session_command_text(cmdv, cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline));
	counting_session(&o, cmdv, &cfg);
	cfg.nevs = 0;
	tc = (struct tracer_cfg){ .topo = &topo, .cpus = o.cpus, .ncpus = o.ncpus,
				  .tracefs = tracefs, .mmap_pages = (int)pages,
				  .system_wide = o.all_cpus || o.cpu_list, .record_path = path,
				  .cmdline = cmdline, .collector = COLLECTOR_PERF };
	memset(&tracer, 0, sizeof(tracer));
	cfg.trace = &tc;
	cfg.tracer = &tracer;
	session_count(&cfg, &res, &out);
	rc = out.exit_code;
	if (!out.failed && !out.traced && res.runs > 0) {
		locus_err("%s", out.trace_reason);
		if (rc == EXIT_LOCUS_OK)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (out.traced) {
		if (tracer.write_err) {
			locus_err("%s: %s: the file holds the %s whole records written before it (locus report reads them)",
				  path, strerror(-tracer.write_err),
				  fmt_count(tracer.record ? tracer.record->records_on_disk : 0, n, sizeof(n)));
			if (rc == EXIT_LOCUS_OK)
				rc = EXIT_LOCUS_RUNTIME;
		} else if (!o.quiet) {
			fprintf(stderr, "[ locus record: wrote %s events (%s, %s lost) to %s ]\n",
				fmt_count(tracer.col.samples, n, sizeof(n)),
				fmt_bytes(tracer.record->data_size, size, sizeof(size)),
				fmt_count(tracer.col.lost, err, sizeof(err)), path);
		}
	}
	tracer_release(&tracer);
	stat_release(&res);
	topology_release(&topo);
	counting_release(&o);
	return rc;
}
