/* list.c - `locus list`: the events this machine can count, and the ones it cannot. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "../collectors/events.h"
#include "../collectors/probe.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "opts.h"

static const struct cli_opt list_opts[] = {
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd list_cmd = {
	"list", "",
	"List the events locus knows by name and whether this machine can count each.",
	list_opts,
};

static const char *const names[] = {
	"task-clock", "cpu-clock", "context-switches", "cpu-migrations", "page-faults",
	"minor-faults", "major-faults", "cycles", "instructions", "cache-references",
	"cache-misses", "branch-instructions", "branch-misses", "LLC-loads", "LLC-load-misses",
	"hitm", "sched:sched_waking", "sched:sched_wakeup", "sched:sched_wakeup_new",
	"sched:sched_switch", "sched:sched_migrate_task",
};

int cmd_list(int argc, char **argv)
{
	struct cli_parser p;
	int c;

	cli_parser_init(&p, &list_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		if (c == -2)
			return EXIT_LOCUS_USAGE;
		if (c == 'h') {
			cli_print_help(stdout, &list_cmd);
			return EXIT_LOCUS_OK;
		}
	}
	printf("%-26s %-14s %s\n", "event", "status", "encoding or reason");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct event_desc ev;
		char err[320];
		int e;

		if (event_resolve(names[i], &ev, err, sizeof(err)) < 0) {
			printf("%-26s %-14s %s\n", names[i], "unknown", err);
			continue;
		}
		if (!ev.resolved) {
			printf("%-26s %-14s %s\n", names[i], "not supported", ev.reason);
			continue;
		}
		e = probe_open(&ev.attr, ev.kind == EV_TRACEPOINT ? -1 : 0,
			       ev.kind == EV_TRACEPOINT ? 0 : -1);
		if (e == 0)
			printf("%-26s %-14s %s\n", names[i], "ok", ev.encoding);
		else if (ev.kind == EV_HARDWARE && (e == ENOENT || e == EOPNOTSUPP || e == ENODEV))
			printf("%-26s %-14s %s\n", names[i], "not supported", probe_no_pmu_reason());
		else
			printf("%-26s %-14s %s\n", names[i], "not supported", strerror(e));
	}
	printf("\nAny libpfm4 event name (showevtinfo lists them) and any tracepoint\n"
	       "sys:name under tracefs events/ is accepted by -e as well.\n");
	return EXIT_LOCUS_OK;
}
