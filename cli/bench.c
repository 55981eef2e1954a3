/* bench.c - `locus bench NAME`: the built-in workloads, with their own throughput lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../workloads/workloads.h"
#include "commands.h"
#include "opts.h"

enum { OPT_PAIRS = OPT_LONG_BASE, OPT_LOOPS, OPT_PIN, OPT_THREADS, OPT_PADDED };

static const struct cli_opt pingpong_opts[] = {
	{ "pairs", OPT_PAIRS, "N", "pairs of threads (default 1)" },
	{ "loops", OPT_LOOPS, "N", "round trips per pair (default 100000)" },
	{ "pin", OPT_PIN, "A,B", "pin each pair's threads to CPUs A and B" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_opt falseshare_opts[] = {
	{ "threads", OPT_THREADS, "N", "threads (default 2, at most 64)" },
	{ "loops", OPT_LOOPS, "N", "increments per thread (default 50000000)" },
	{ "padded", OPT_PADDED, NULL, "put each thread's field 128 bytes apart" },
	{ "pin", OPT_PIN, "LIST", "pin thread i to the i-th CPU of LIST (cycled)" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd pingpong_cmd = {
	.name = "bench pingpong",
	.usage = "[options]",
	.summary = "Pairs of threads waking each other through pipes: tbench in miniature.\n"
		   "Prints its own throughput line (round trips/s).",
	.opts = pingpong_opts,
};

static const struct cli_cmd falseshare_cmd = {
	.name = "bench falseshare",
	.usage = "[options]",
	.summary = "Threads incrementing neighbouring fields of one cacheline (false sharing),\n"
		   "or padded apart with --padded. Prints increments/s.",
	.opts = falseshare_opts,
};

static const struct cli_cmd bench_cmd = {
	.name = "bench",
	.usage = "NAME [options]",
	.summary = "Built-in workloads: pingpong, falseshare.",
	.opts = pingpong_opts,
};

static int max_cpu(void)
{
	return (int)sysconf(_SC_NPROCESSORS_CONF);
}

/* What a workload's command line asks for: the options of the one cmd names. */
struct bench_plan {
	const struct cli_cmd *cmd;	/* pingpong_cmd or falseshare_cmd */
	struct pingpong_opts pp;
	struct falseshare_opts fs;
};

/* pingpong's --pin A,B into pin. 0, or -1 after a usage error. */
static int parse_pin_pair(const char *arg, int pin[2])
{
	char a[32], b[32], extra;
	long x, y;

	if (sscanf(arg, "%31[^,],%31[^,]%c", a, b, &extra) != 2 ||
	    parse_long(a, 0, max_cpu() - 1, &x) < 0 || parse_long(b, 0, max_cpu() - 1, &y) < 0) {
		cli_usage_error(&pingpong_cmd, "bad --pin '%s' (two CPUs below %d, as A,B)", arg,
				max_cpu());
		return -1;
	}
	pin[0] = (int)x;
	pin[1] = (int)y;
	return 0;
}

/* falseshare's --pin LIST into o. 0, or -1 after a usage error. */
static int parse_pin_list(const char *arg, struct falseshare_opts *o)
{
	char err[200];

	free(o->pin);
	o->npin = parse_cpu_list(arg, max_cpu(), &o->pin, err, sizeof(err));
	if (o->npin >= 0)
		return 0;
	cli_usage_error(&falseshare_cmd, "bad --pin: %s", err);
	o->npin = 0;
	return -1;
}

/* One option of the workload's into the plan: 1 when taken, -1 after a usage error. */
static int bench_take(void *ctx, int c, const char *arg)
{
	struct bench_plan *pl = ctx;
	bool pp = pl->cmd == &pingpong_cmd;
	long v;

	switch (c) {
	case OPT_PAIRS:
	case OPT_THREADS:
		if (parse_long(arg, 1, pp ? 4096 : 64, &v) < 0) {
			cli_usage_error(pl->cmd, "bad --%s '%s' (1 to %d)",
					pp ? "pairs" : "threads", arg, pp ? 4096 : 64);
			return -1;
		}
		*(pp ? &pl->pp.pairs : &pl->fs.threads) = (int)v;
		break;
	case OPT_LOOPS:
		if (parse_long(arg, 1, 1L << 40, pp ? &pl->pp.loops : &pl->fs.loops) < 0) {
			cli_usage_error(pl->cmd, "bad --loops '%s'", arg);
			return -1;
		}
		break;
	case OPT_PADDED:
		pl->fs.padded = true;
		break;
	case OPT_PIN:
		if ((pp ? parse_pin_pair(arg, pl->pp.pin) : parse_pin_list(arg, &pl->fs)) < 0)
			return -1;
		break;
	}
	return 1;
}

/* The workload of cmd with its options, its throughput line on stdout. The exit status. */
static int bench_main(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct bench_plan pl = { cmd, { 1, 100000, { -1, -1 } }, { 2, 50000000, false, NULL, 0 } };
	bool pp = cmd == &pingpong_cmd;
	int err, rc;

	if (!cli_parse(cmd, argc, argv, bench_take, &pl, &rc))
		goto out;
	rc = EXIT_LOCUS_USAGE;
	if (argv[optind]) {
		cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	rc = EXIT_LOCUS_OK;
	if ((err = pp ? pingpong_run(&pl.pp, stdout) : falseshare_run(&pl.fs, stdout))) {
		locus_err("%s: %s", pp ? "pingpong" : "falseshare", strerror(-err));
		rc = EXIT_LOCUS_RUNTIME;
	}
out:
	free(pl.fs.pin);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *f = argc < 2 ? stderr : stdout;

		fprintf(f, "usage: locus bench NAME [options]\n\n"
			   "  pingpong    pairs of threads waking each other through pipes\n"
			   "  falseshare  threads writing neighbouring fields of one cacheline\n\n"
			   "'locus bench NAME --help' shows a workload's options.\n");
		return argc < 2 ? EXIT_LOCUS_USAGE : EXIT_LOCUS_OK;
	}
	if (!strcmp(argv[1], "pingpong"))
		return bench_main(&pingpong_cmd, argc - 1, argv + 1);
	if (!strcmp(argv[1], "falseshare"))
		return bench_main(&falseshare_cmd, argc - 1, argv + 1);
	cli_usage_error(&bench_cmd, "unknown workload '%s' (pingpong, falseshare)", argv[1]);
	return EXIT_LOCUS_USAGE;
}
