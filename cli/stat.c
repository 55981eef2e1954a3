/* stat.c - `locus stat`: count what a workload does, like perf stat, never faking a value. */
#include <stdio.h>
#include <string.h>

#include "../common/exitcodes.h"
#include "commands.h"
#include "counting.h"

static const struct cli_opt stat_opts[] = {
	{ "event", 'e', "LIST", "events to count: libpfm4 or perf names, sys:tracepoint, hitm" },
	{ "repeat", 'r', "N", "run the command N times; print mean and stddev" },
	{ "all-cpus", 'a', NULL, "count system-wide on every CPU" },
	{ "cpu", 'C', "LIST", "count system-wide on these CPUs only (0-3,8)" },
	{ "pid", 'p', "PID,...", "attach to running processes (A,B: their threads together) until "
				 "the first exits or Ctrl-C" },
	{ "per-cpu", 'A', NULL, "also show each counter per CPU" },
	{ "json", OPT_JSON, "FILE", "also write the numbers as JSON (- for stdout)" },
	{ "output", 'o', "FILE", "write the text report to FILE instead of stdout" },
	{ "quiet", 'q', NULL, "no notes on stderr" },
	{ "verbose", 'v', NULL, "more detail on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd stat_cmd = {
	.name = "stat",
	.usage = "[options] [-- COMMAND [ARGS...]]",
	.summary = "Count context switches, migrations, page faults and, where the hardware allows,\n"
		   "cycles, instructions, cache misses and HITM for a command, a process or CPUs.",
	.opts = stat_opts,
};

/* One option into o: 1 when taken, -1 after a usage error (every row is counting's). */
static int stat_take(void *ctx, int c, const char *arg)
{
	return counting_take(ctx, &stat_cmd, c, arg);
}

/* The command line into o and *cmdv: true to go on, false when the command ends with *rc. */
static bool stat_parse(int argc, char **argv, struct counting_opts *o, char ***cmdv, int *rc)
{
	if (!cli_parse(&stat_cmd, argc, argv, stat_take, o, rc))
		return false;
	*cmdv = argv + optind;
	if (!(*cmdv)[0] && !o->all_cpus && !o->cpu_list && !o->pid) {
		cli_usage_error(&stat_cmd, "nothing to count: give a command after --, -a, -C or -p");
		return false;
	}
	if (o->pid && (*cmdv)[0]) { /* counting only: nothing to add a process to */
		cli_usage_error(&stat_cmd, "-p attaches to a running process; give it or a command, "
					   "not both (locus run -p PID -- CMD traces both)");
		return false;
	}
	return counting_finish(o, &stat_cmd, *cmdv) == 0;
}

int cmd_stat(int argc, char **argv)
{
	struct counting_opts o = { 0 };
	struct run_cfg cfg;
	struct run_outcome out;
	struct stat_result res;
	char **cmdv;
	int rc;

	if (!stat_parse(argc, argv, &o, &cmdv, &rc))
		goto out;
	counting_run_cfg(&o, cmdv, &cfg);
	counting_run(&cfg, &res, &out);
	rc = out.exit_code;
	if (res.runs > 0 && counting_report(&o, &res, &out, cmdv, NULL) != 0)
		rc = EXIT_LOCUS_RUNTIME;
	stat_release(&res);
out:
	counting_release(&o);
	return rc;
}
