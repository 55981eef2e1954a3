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
	"bench pingpong", "[options]",
	"Pairs of threads waking each other through pipes: tbench in miniature.\n"
	"Prints its own throughput line (round trips/s).",
	pingpong_opts,
};

static const struct cli_cmd falseshare_cmd = {
	"bench falseshare", "[options]",
	"Threads incrementing neighbouring fields of one cacheline (false sharing),\n"
	"or padded apart with --padded. Prints increments/s.",
	falseshare_opts,
};

static const struct cli_cmd bench_cmd = {
	"bench", "NAME [options]",
	"Built-in workloads: pingpong, falseshare.",
	pingpong_opts,
};

static int max_cpu(void)
{
	return (int)sysconf(_SC_NPROCESSORS_CONF);
}

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

/* One pingpong option into o: 1 when taken, -1 after a usage error. */
static int pingpong_take(void *ctx, int c, const char *arg)
{
	struct pingpong_opts *o = ctx;
	long v;

	switch (c) {
	case OPT_PAIRS:
		if (parse_long(arg, 1, 4096, &v) < 0) {
			cli_usage_error(&pingpong_cmd, "bad --pairs '%s' (1 to 4096)", arg);
			return -1;
		}
		o->pairs = (int)v;
		break;
	case OPT_LOOPS:
		if (parse_long(arg, 1, 1L << 40, &o->loops) < 0) {
			cli_usage_error(&pingpong_cmd, "bad --loops '%s'", arg);
			return -1;
		}
		break;
	case OPT_PIN:
		if (parse_pin_pair(arg, o->pin) < 0)
			return -1;
		break;
	}
	return 1;
}

static int bench_pingpong(int argc, char **argv)
{
	struct pingpong_opts o = { 1, 100000, { -1, -1 } };
	int rc;

	if (!cli_parse(&pingpong_cmd, argc, argv, pingpong_take, &o, &rc))
		return rc;
	if (argv[optind]) {
		cli_usage_error(&pingpong_cmd, "unexpected argument '%s'", argv[optind]);
		return EXIT_LOCUS_USAGE;
	}
	rc = pingpong_run(&o, stdout);
	if (rc) {
		locus_err("pingpong: %s", strerror(-rc));
		return EXIT_LOCUS_RUNTIME;
	}
	return EXIT_LOCUS_OK;
}

/* One falseshare option into o: 1 when taken, -1 after a usage error. */
static int falseshare_take(void *ctx, int c, const char *arg)
{
	struct falseshare_opts *o = ctx;
	char err[200];
	long v;

	switch (c) {
	case OPT_THREADS:
		if (parse_long(arg, 1, 64, &v) < 0) {
			cli_usage_error(&falseshare_cmd, "bad --threads '%s' (1 to 64)", arg);
			return -1;
		}
		o->threads = (int)v;
		break;
	case OPT_LOOPS:
		if (parse_long(arg, 1, 1L << 40, &o->loops) < 0) {
			cli_usage_error(&falseshare_cmd, "bad --loops '%s'", arg);
			return -1;
		}
		break;
	case OPT_PADDED:
		o->padded = true;
		break;
	case OPT_PIN:
		free(o->pin);
		o->npin = parse_cpu_list(arg, max_cpu(), &o->pin, err, sizeof(err));
		if (o->npin < 0) {
			cli_usage_error(&falseshare_cmd, "bad --pin: %s", err);
			o->npin = 0;
			return -1;
		}
		break;
	}
	return 1;
}

static int bench_falseshare(int argc, char **argv)
{
	struct falseshare_opts o = { 2, 50000000, false, NULL, 0 };
	int err, rc;

	if (!cli_parse(&falseshare_cmd, argc, argv, falseshare_take, &o, &rc))
		goto out;
	rc = EXIT_LOCUS_USAGE;
	if (argv[optind]) {
		cli_usage_error(&falseshare_cmd, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	rc = EXIT_LOCUS_OK;
	if ((err = falseshare_run(&o, stdout))) {
		locus_err("falseshare: %s", strerror(-err));
		rc = EXIT_LOCUS_RUNTIME;
	}
out:
	free(o.pin);
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
		return bench_pingpong(argc - 1, argv + 1);
	if (!strcmp(argv[1], "falseshare"))
		return bench_falseshare(argc - 1, argv + 1);
	cli_usage_error(&bench_cmd, "unknown workload '%s' (pingpong, falseshare)", argv[1]);
	return EXIT_LOCUS_USAGE;
}
