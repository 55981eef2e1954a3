/* report_stacks.h - locus report's stack outputs: --folded, --flame, --stack-addresses. */
#ifndef LOCUS_REPORT_STACKS_H
#define LOCUS_REPORT_STACKS_H

#include <stdbool.h>

#include "../pipeline/file_pass.h"
#include "../report/stacks_out.h"
#include "../report/stacks_report.h"
#include "opts.h"

enum { OPT_ST_FOLDED = OPT_LONG_BASE + 220, OPT_ST_FLAME, OPT_ST_ADDRS };

#define STACKS_OPT_ROWS \
	{ "folded", OPT_ST_FOLDED, "KIND=FILE", "write folded stacks (flamegraph.pl, speedscope) " \
						 "of a recording with callchains (record -g): KIND " \
						 "wakers, blocked, offwake (counts), blocked-time, " \
						 "offwake-time (off-CPU microseconds)" }, \
	{ "flame", OPT_ST_FLAME, "KIND=FILE", "draw those stacks as a flame graph SVG (KIND as " \
					       "--folded)" }, \
	{ "stack-addresses", OPT_ST_ADDRS, NULL, "name stack frames by address (as perf script " \
						 "-F ip prints them), not by symbol" }

#define STACKS_OUT_MAX 10

struct stacks_plan {
	struct stacks_out out[STACKS_OUT_MAX];
	int n;
	bool addresses;
};

/* Take one stacks option; 1 when consumed, 0 when not one, -1 after a usage error. */
int stacks_take(struct stacks_plan *p, const struct cli_cmd *cmd, int code, const char *arg);

#endif
