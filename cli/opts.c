/* opts.c - getopt_long driven by the per-command option tables, and --help from the same data. */
#include "opts.h"

#include <stdarg.h>
#include <string.h>

#include "../common/exitcodes.h"
#include "../common/util.h"

/* getopt_long's tables, built from a command's option table. */
struct cli_parser {
	const struct cli_cmd *cmd;
	struct option lo[64];
	char so[160];
};

static void cli_parser_init(struct cli_parser *p, const struct cli_cmd *cmd)
{
	size_t so = 0;
	int n = 0;

	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	if (!cmd->anywhere)
		p->so[so++] = '+'; /* stop at the first operand: the workload's command */
	p->so[so++] = ':'; /* report a missing argument as ':' */
	for (const struct cli_opt *o = cmd->opts; o->lname && n < 63; o++) {
		p->lo[n++] = (struct option){ o->lname, o->arg ? required_argument : no_argument,
					      NULL, o->code };
		if (o->code < OPT_LONG_BASE && so + 3 < sizeof(p->so)) {
			p->so[so++] = (char)o->code;
			if (o->arg)
				p->so[so++] = ':';
		}
	}
	p->so[so] = '\0';
	optind = 1;
	opterr = 0;
}

static const char *opt_name(const struct cli_parser *p, int code, char *buf, size_t len)
{
	for (const struct cli_opt *o = p->cmd->opts; o->lname; o++)
		if (o->code == code) {
			snprintf(buf, len, "--%s", o->lname);
			return buf;
		}
	snprintf(buf, len, "-%c", code);
	return buf;
}

/*
 * Next option code, -1 at the end (optind then indexes the first operand), or
 * -2 after printing a one-line usage error for an unknown option or a missing
 * argument. Parsing stops at the first operand or after "--".
 */
static int cli_next(struct cli_parser *p, int argc, char **argv)
{
	char buf[64];
	int c = getopt_long(argc, argv, p->so, p->lo, NULL);

	if (c == '?') {
		if (optopt && optopt < OPT_LONG_BASE)
			cli_usage_error(p->cmd, "unknown option '-%c'", optopt);
		else
			cli_usage_error(p->cmd, "unknown option '%s'", argv[optind - 1]);
		return -2;
	}
	if (c == ':') {
		cli_usage_error(p->cmd, "option '%s' needs a value",
				opt_name(p, optopt, buf, sizeof(buf)));
		return -2;
	}
	return c;
}

void cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "locus %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'locus %s --help')\n", cmd->name);
}

void cli_print_help(FILE *f, const struct cli_cmd *cmd)
{
	fprintf(f, "usage: locus %s %s\n\n%s\n\noptions:\n", cmd->name, cmd->usage, cmd->summary);
	for (const struct cli_opt *o = cmd->opts; o->lname; o++) {
		char left[64], lead[96];

		if (o->code < OPT_LONG_BASE)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->code, o->lname,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->lname, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		snprintf(lead, sizeof(lead), "  %-26s ", left); /* the text folds under its column */
		fprint_folded(f, lead, o->help, (int)strlen(lead), 80);
	}
}

bool cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	       int (*take)(void *ctx, int code, const char *arg), void *ctx, int *rc)
{
	struct cli_parser p;
	int c, took;

	*rc = EXIT_LOCUS_USAGE;
	cli_parser_init(&p, cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		if (c == -2)
			return false;
		if (c == 'h') {
			cli_print_help(stdout, cmd);
			*rc = EXIT_LOCUS_OK;
			return false;
		}
		took = take ? take(ctx, c, optarg) : 0;
		if (took == 0)
			cli_usage_error(cmd, "option not handled");
		if (took <= 0)
			return false;
	}
	return true;
}
