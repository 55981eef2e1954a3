/* list.c - `locus list`: the events this machine can count, and the ones it cannot. */
#include <stdio.h>

#include "../collectors/capabilities.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "opts.h"

static const struct cli_opt list_opts[] = {
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd list_cmd = {
	.name = "list",
	.usage = "",
	.summary = "List the events locus knows by name and whether this machine can count each.",
	.opts = list_opts,
};

static const char *const names[] = {
	"task-clock", "cpu-clock", "context-switches", "cpu-migrations", "page-faults",
	"minor-faults", "major-faults", "cycles", "instructions", "cache-references",
	"cache-misses", "branch-instructions", "branch-misses", "LLC-loads", "LLC-load-misses",
	"hitm",
};

static void row(const char *name)
{
	char detail[320];
	const char *st = capabilities_event(name, detail, sizeof(detail));

	printf("%-33s %-14s %s\n", name, st, detail);
}

int cmd_list(int argc, char **argv)
{
	int rc;

	if (!cli_parse(&list_cmd, argc, argv, NULL, NULL, &rc))
		return rc;
	printf("%-33s %-14s %s\n", "event", "status", "encoding or reason");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		row(names[i]);
	for (size_t i = 0; capabilities_tracepoint(i); i++) /* the ones locus reads */
		row(capabilities_tracepoint(i));
	printf("\nAny libpfm4 event name (showevtinfo lists them) and any tracepoint\n"
	       "sys:name under tracefs events/ is accepted by -e as well.\n");
	return EXIT_LOCUS_OK;
}
