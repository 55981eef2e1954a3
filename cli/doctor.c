/* doctor.c - `locus doctor`: one line per capability, what it enables, how to get it. */
#include <stdio.h>
#include <string.h>

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
	.name = "doctor",
	.usage = "",
	.summary = "Probe what this machine and kernel allow (perf_event, PMU, tracepoints,\n"
		   "topology, limits) and say how to enable the rest. Exits 0 when software\n"
		   "events work.",
	.opts = doctor_opts,
};

int cmd_doctor(int argc, char **argv)
{
	static const char *const tag[] = { "ok", "no", "warn" };
	struct capabilities caps;
	const struct check *checks = caps.c;
	int rc, wide = 0;

	if (!cli_parse(&doctor_cmd, argc, argv, NULL, NULL, &rc))
		return rc;
	if (argv[optind]) {
		cli_usage_error(&doctor_cmd, "unexpected argument '%s'", argv[optind]);
		return EXIT_LOCUS_USAGE;
	}
	capabilities_probe(&caps);
	for (int i = 0; i < caps.n; i++)
		if ((int)strlen(checks[i].what) > wide)
			wide = (int)strlen(checks[i].what);
	for (int i = 0; i < caps.n; i++) {
		char lead[96];

		snprintf(lead, sizeof(lead), "%-5s %-*s ", tag[checks[i].st], wide, checks[i].what);
		fprint_folded(stdout, lead, checks[i].enables, (int)strlen(lead), 80);
		fprint_folded(stdout, "      ", checks[i].detail, 6, 80);
	}
	putchar('\n');
	fprint_folded(stdout, "", caps.sw_ok ? "software events work: locus stat and locus run "
		      "can count here." : "software events do not work: locus cannot count here.",
		      0, 80);
	fprint_folded(stdout, "the scheduler: ", capabilities_sched_story(&caps), 0, 80);
	return caps.sw_ok ? EXIT_LOCUS_OK : EXIT_LOCUS_RUNTIME;
}
