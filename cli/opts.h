/* opts.h - option tables: one per subcommand, driving both getopt_long and --help. */
#ifndef LOCUS_OPTS_H
#define LOCUS_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* Long-only options use codes from here up. */
#define OPT_LONG_BASE 256

struct cli_opt {
	const char *lname;	/* long name without dashes */
	int code;		/* short letter, or >= OPT_LONG_BASE for long-only */
	const char *arg;	/* argument name, NULL for a flag */
	const char *help;
};

struct cli_cmd {
	const char *name;	/* "stat" */
	const char *usage;	/* "[options] -- COMMAND [ARGS...]" */
	const char *summary;	/* one line */
	const struct cli_opt *opts; /* terminated by a zero row */
	bool anywhere;		/* options after operands too (no workload command to keep) */
};

/* Print "locus NAME: <msg> (see 'locus NAME --help')" to stderr. */
void cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cli_print_help(FILE *f, const struct cli_cmd *cmd);
/*
 * Parse argv by cmd's table: -h prints the help, every other option goes to take (1 when
 * it took it, 0 when it did not: a usage error, -1 after printing one); take may be NULL
 * for a table of -h alone. True with optind at the first operand; false when the command
 * ends now with *rc (EXIT_LOCUS_OK after the help, EXIT_LOCUS_USAGE else).
 */
bool cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	       int (*take)(void *ctx, int code, const char *arg), void *ctx, int *rc);

#endif
