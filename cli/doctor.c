/* doctor.c - `locus doctor`: one line per capability, what it enables, how to get it. */
#include <stdio.h>

#include "../collectors/capabilities.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "commands.h"
#include "opts.h"

static const struct cli_opt doctor_opts[] = {
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd doctor_cmd = {
	"doctor", "",
	"Probe what this machine and kernel allow (perf_event, PMU, tracepoints,\n"
	"topology, limits) and say how to enable the rest. Exits 0 when software\n"
	"events work.",
	doctor_opts,
};

/* What rusage and /proc give when nothing traces the scheduler. */
#define UNTRACED_FIGURES "task-clock, context switches split voluntary/involuntary, page faults"

int cmd_doctor(int argc, char **argv)
{
	static const char *const tag[] = { "ok", "no", "warn" };
	struct capabilities caps;
	const struct check *checks = caps.c;
	struct cli_parser p;
	bool sw_ok, stream_ok, bpf_ok;
	int c;

	cli_parser_init(&p, &doctor_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		if (c == -2)
			return EXIT_LOCUS_USAGE;
		if (c == 'h') {
			cli_print_help(stdout, &doctor_cmd);
			return EXIT_LOCUS_OK;
		}
	}
	if (argv[optind]) {
		cli_usage_error(&doctor_cmd, "unexpected argument '%s'", argv[optind]);
		return EXIT_LOCUS_USAGE;
	}
	capabilities_probe(&caps);
	sw_ok = caps.sw_ok;
	stream_ok = caps.stream_ok;
	bpf_ok = caps.bpf_ok;
	for (int i = 0; i < caps.n; i++)
		printf("%-5s %-24s %-44s\n      %s\n", tag[checks[i].st], checks[i].what,
		       checks[i].enables, checks[i].detail);
	printf("\n%s\n", sw_ok ? "software events work: locus stat and locus run can count here."
			       : "software events do not work: locus cannot count here.");
	/* the scheduler's story in one line, as run and top will tell it */
	if (bpf_ok)
		printf("the scheduler: traced by BPF in the kernel (run, top); record streams "
		       "through perf ring buffers.\n");
	else if (stream_ok)
		printf("the scheduler: traced through perf ring buffers (run, top, record); BPF "
		       "cannot load (above).\n");
	else
		printf("the scheduler: cannot be traced here (BPF and the sched tracepoints, "
		       "above): run and top report what rusage and /proc give (" UNTRACED_FIGURES
		       "); record cannot run.\n");
	return sw_ok ? EXIT_LOCUS_OK : EXIT_LOCUS_RUNTIME;
}
