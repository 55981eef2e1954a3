/* run.c - `locus run`: wrap a workload and report everything this machine can measure. */
#include <stdio.h>
#include <string.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "counting.h"

static const struct cli_opt run_opts[] = {
	{ "event", 'e', "LIST", "counters to add: libpfm4 or perf names, sys:tracepoint, hitm" },
	{ "all-cpus", 'a', NULL, "collect system-wide on every CPU" },
	{ "cpu", 'C', "LIST", "collect system-wide on these CPUs only (0-3,8)" },
	{ "per-cpu", 'A', NULL, "also show each counter per CPU" },
	{ "json", OPT_JSON, "FILE", "also write the results as JSON (- for stdout)" },
	{ "output", 'o', "FILE", "write the text report to FILE instead of stdout" },
	{ "quiet", 'q', NULL, "no notes on stderr" },
	{ "verbose", 'v', NULL, "more detail on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd run_cmd = {
	"run", "[options] [-- COMMAND [ARGS...]]",
	"Run a workload under perf_event and report what it did. Without a command,\n"
	"runs the built-in workload 'locus bench pingpong'.",
	run_opts,
};

int cmd_run(int argc, char **argv)
{
	struct counting_opts o = { 0 };
	char *builtin[] = { (char *)locus_self_path(), "bench", "pingpong", NULL };
	struct session_cfg cfg;
	struct session_outcome out;
	struct stat_result res;
	struct cli_parser p;
	char **cmdv;
	int c, rc;

	cli_parser_init(&p, &run_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		if (c == -2)
			return EXIT_LOCUS_USAGE;
		if (c == 'h') {
			cli_print_help(stdout, &run_cmd);
			return EXIT_LOCUS_OK;
		}
		if (counting_take(&o, &run_cmd, c, optarg) < 0) {
			counting_release(&o);
			return EXIT_LOCUS_USAGE;
		}
	}
	cmdv = argv + optind;
	if (!cmdv[0]) {
		cmdv = builtin;
		if (!o.quiet)
			fprintf(stderr, "locus: no command given: running the built-in workload "
					"'locus bench pingpong'\n");
	}
	if (counting_finish(&o, &run_cmd, cmdv) < 0) {
		counting_release(&o);
		return EXIT_LOCUS_USAGE;
	}
	counting_session(&o, cmdv, &cfg);
	session_count(&cfg, &res, &out);
	rc = out.exit_code;
	if (res.runs > 0 && counting_report(&o, &res, &out, cmdv) != 0)
		rc = EXIT_LOCUS_RUNTIME;
	stat_release(&res);
	counting_release(&o);
	return rc;
}
