/* sweep.h - `locus run -r N --sweep NAME=... --metric ...`: the benchmark loop. */
#ifndef LOCUS_CLI_SWEEP_H
#define LOCUS_CLI_SWEEP_H

#include "counting.h"

struct topology;

struct sweep_opts {
	const char *sweep;	/* "NAME=v1,v2,..." or NULL */
	const char *metric;	/* preset or regex, or NULL */
	const char *direction;	/* "higher", "lower" or NULL */
	const char *svg;
	struct trace_opts tr;	/* where the sessions trace, and the topology's root */
	bool show_output;	/* echo the workload's output to stderr */
	struct collector_opts col;
	int argc;		/* locus's own command line, for the record */
	char **argv;
};

/* Validate --sweep and --metric; returns 0 or -1 after a usage error. */
int sweep_check(const struct cli_cmd *cmd, const struct sweep_opts *so, char **cmdv);
/* Run the loop and report; returns the exit status. */
int sweep_main(const struct counting_opts *o, const struct sweep_opts *so, char **cmdv,
	       const struct topology *topo);

#endif
