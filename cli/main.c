/* main.c - the command table and dispatcher: flags on a row are handled once, here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "wrap a workload, collect everything available, print a report" },
	{ "top", cmd_top, "live dashboard of a workload (or the machine): wakeups, heatmap, CPUs" },
	{ "stat", cmd_stat, "count events for a workload (like perf stat), -r N repeats" },
	{ "diff", cmd_diff, "compare --json runs (means, ratios, significance), or stacks" },
	{ "record", cmd_record, "write a perf.data file (sched tracepoints) that perf reads too" },
	{ "report", cmd_report, "analyze a perf.data file (locus record, perf sched record, ...)" },
	{ "doctor", cmd_doctor, "what this machine and kernel allow, and how to enable the rest" },
	{ "list", cmd_list, "events this machine can count" },
	{ "bench", cmd_bench, "built-in workloads: pingpong, falseshare" },
};

static char self_path[4096];

const char *locus_self_path(void)
{
	return self_path;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: locus [--version] [--help] COMMAND [options] [-- WORKLOAD...]\n\n"
		   "locus shows where a workload's work happened: context switches, migrations,\n"
		   "wakeup locality and cacheline contention, measured through perf_event.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'locus COMMAND --help' shows a command's options; man locus-COMMAND has more.\n");
}

/* An unknown command: say so, with the nearest command at most two edits away. */
static int unknown(const char *name)
{
	const char *near = NULL;
	int best = 3; /* at most two edits away */

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		int d = edit_distance(name, commands[i].name);

		if (d < best) {
			best = d;
			near = commands[i].name;
		}
	}
	if (near)
		fprintf(stderr, "locus: '%s' is not a locus command; did you mean '%s'? (see "
				"'locus --help')\n", name, near);
	else
		fprintf(stderr, "locus: '%s' is not a locus command (see 'locus --help')\n", name);
	return EXIT_LOCUS_USAGE;
}

/* Flush stdout and report a lost write (full disk, closed pipe) as an error. */
static int finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "locus: cannot write the report: %s\n", strerror(errno));
		return rc ? rc : EXIT_LOCUS_RUNTIME;
	}
	return rc;
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);

	self_path[n > 0 ? n : 0] = '\0';
	if (n <= 0)
		snprintf(self_path, sizeof(self_path), "%s", argv[0]);
	/* A report piped into head must not kill locus before the workload is reaped. */
	signal(SIGPIPE, SIG_IGN);
	nofile_raise();
	if (argc < 2) {
		usage(stderr);
		return EXIT_LOCUS_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("locus %s\n", LOCUS_VERSION);
		return finish(EXIT_LOCUS_OK);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(EXIT_LOCUS_OK);
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].fn(argc - 1, argv + 1));
	return unknown(argv[1]);
}
