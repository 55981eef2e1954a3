/* report.c - `locus report -i FILE`: the analysis of locus run, from a perf.data file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/exitcodes.h"
#include "../report/cacheline_report.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "commands.h"
#include "../pipeline/replay.h"
#include "trace_export.h"
#include "counting.h"
#include "report_doc.h"

enum { OPT_SECTIONS = OPT_SYSFS_ROOT + 1, OPT_SVG, OPT_LINE_SIZE };

static const struct cli_opt report_opts[] = {
	{ "input", 'i', "FILE", "perf.data file to read (- for a pipe; default perf.data)" },
	{ "pid", 'p', "PID,...", "follow these tasks and their children only (default: the "
				 "workload locus record ran with the processes its -p added, else "
				 "every task)" },
	{ "all", 'a', NULL, "every task in the file, not only the recorded workload's" },
	{ "sections", OPT_SECTIONS, "LIST", "report only these: wakeups,latency,pairs,"
					      "migrations,switches,cpus,cachelines (default all)" },
	{ "line-size", OPT_LINE_SIZE, "N", "cacheline size for memory samples: 64 or 128" },
	{ "display", 'd', "WHAT", "rank cachelines by lcl, rmt or tot (default) HITM" },
	{ "json", OPT_JSON, "FILE", "also write the results as JSON (- for stdout)" },
	{ "svg", OPT_SVG, "FILE", "draw the wakeup heatmap (waker x target CPU) as SVG" },
	TIMELINE_OPT_ROWS,
	{ "output", 'o', "FILE", "write the text report to FILE instead of stdout" },
	{ "sysfs-root", OPT_SYSFS_ROOT, "DIR", "topology from DIR when the file carries none" },
	{ "quiet", 'q', NULL, "no notes or progress on stderr" },
	{ "verbose", 'v', NULL, "more detail on stderr" },
	{ "help", 'h', NULL, "show this help" },
	{ 0 },
};

static const struct cli_cmd report_cmd = {
	"report", "[options] [-i FILE]",
	"Analyze a perf.data file from locus record, perf record, perf sched record,\n"
	"perf c2c record or perf mem record with the analyzers of locus run: wakeup\n"
	"locality, wake-to-run delay, migrations, switches, and for memory samples the\n"
	"hot cachelines with their HITM counts and a sharing verdict per line. The\n"
	"topology comes from the file when it has one.",
	report_opts,
};

static void progress(const struct pd_file *f, void *ctx)
{
	(void)ctx;
	if (f->pipe)
		fprintf(stderr, "\rlocus: %llu records", (unsigned long long)f->records);
	else
		fprintf(stderr, "\rlocus: %3.0f%% of %s (%llu records)",
			100.0 * (double)(f->pos - f->data_off) / (double)(f->data_size + 1), f->path,
			(unsigned long long)f->records);
}

/* -p A,B,...: the first in opts->pid, the rest in opts->more. 0, or -1 when malformed. */
static int pid_list(const char *arg, struct replay_opts *opts)
{
	char *list = xstrdup(arg), *save = NULL;
	int n = 0, rc = 0;

	opts->nmore = 0;
	for (char *t = strtok_r(list, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		long v;

		if (parse_long(t, 1, 1L << 22, &v) < 0 || n > PD_ADDED_MAX)
			rc = -1;
		else if (n++ == 0)
			opts->pid = (int32_t)v;
		else
			opts->more[opts->nmore++] = (int32_t)v;
	}
	free(list);
	return rc == 0 && n > 0 ? 0 : -1;
}

int cmd_report(int argc, char **argv)
{
	const char *json = NULL, *svg = NULL, *out = NULL;
	struct trace_export tx = { 0 };
	struct replay_opts opts = { .path = "perf.data", .line_size = 64, .sort = CL_SORT_TOTAL };
	struct replay *st = xcalloc(1, sizeof(*st));
	struct report_doc ro = { st, { 0 }, SEC_SCHED | SEC_CACHELINES, NULL };
	long line_size;
	char err[400], bad[64];
	struct cli_parser p;
	bool quiet = false, all = false;
	long pid = 0;
	int c, opened, rc = EXIT_LOCUS_OK;

	tx.window_cuts_report = true;
	cli_parser_init(&p, &report_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
		int took = timeline_take(&tx, &report_cmd, c, optarg);

		if (took < 0) {
			free(st);
			return EXIT_LOCUS_USAGE;
		}
		if (took)
			continue;
		switch (c) {
		case -2:
			free(st);
			return EXIT_LOCUS_USAGE;
		case 'h':
			cli_print_help(stdout, &report_cmd);
			free(st);
			return EXIT_LOCUS_OK;
		case 'i':
			opts.path = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'p':
			if (pid_list(optarg, &opts) < 0) {
				cli_usage_error(&report_cmd, "bad pid list '%s' (up to %d pids, comma "
						"separated)", optarg, PD_ADDED_MAX + 1);
				free(st);
				return EXIT_LOCUS_USAGE;
			}
			pid = opts.pid;
			break;
		case OPT_SECTIONS:
			if (report_sections_parse(optarg, &ro.sections, bad, sizeof(bad)) < 0 ||
			    !(ro.sections & (SEC_SCHED | SEC_CACHELINES))) {
				cli_usage_error(&report_cmd, "unknown section '%s' (wakeups, latency, "
						"pairs, migrations, switches, cpus, cachelines, all)",
						bad);
				free(st);
				return EXIT_LOCUS_USAGE;
			}
			break;
		case OPT_LINE_SIZE:
			if (parse_long(optarg, 64, 128, &line_size) < 0 ||
			    (line_size != 64 && line_size != 128)) {
				cli_usage_error(&report_cmd, "bad --line-size '%s' (64 or 128)", optarg);
				free(st);
				return EXIT_LOCUS_USAGE;
			}
			opts.line_size = (unsigned)line_size;
			break;
		case 'd':
			if (!strcmp(optarg, "lcl"))
				opts.sort = CL_SORT_LOCAL;
			else if (!strcmp(optarg, "rmt"))
				opts.sort = CL_SORT_REMOTE;
			else if (!strcmp(optarg, "tot"))
				opts.sort = CL_SORT_TOTAL;
			else {
				cli_usage_error(&report_cmd, "bad --display '%s' (lcl, rmt or tot)",
						optarg);
				free(st);
				return EXIT_LOCUS_USAGE;
			}
			break;
		case OPT_JSON:
			json = optarg;
			break;
		case OPT_SVG:
			svg = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case OPT_SYSFS_ROOT:
			opts.sysfs_root = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'v':
			locus_verbosity++;
			break;
		}
	}
	if (argv[optind]) {
		cli_usage_error(&report_cmd, "unexpected argument '%s' (the file goes after -i)",
				argv[optind]);
		free(st);
		return EXIT_LOCUS_USAGE;
	}
	if (cli_check_output(&report_cmd, json) < 0 || cli_check_output(&report_cmd, svg) < 0 ||
	    cli_check_output(&report_cmd, out) < 0 || timeline_opts_finish(&tx, &report_cmd) < 0) {
		free(st);
		return EXIT_LOCUS_USAGE;
	}
	if (!quiet && isatty(STDERR_FILENO))
		opts.progress = progress;
	if (all && pid) {
		cli_usage_error(&report_cmd, "-a and -p: every task, or one tree, not both");
		free(st);
		return EXIT_LOCUS_USAGE;
	}
	opened = replay_open(st, &opts, err, sizeof(err));
	if (opened == 0 && !pid && !all && st->f.workload_pid) {
		opts.pid = st->f.workload_pid; /* as locus run reports: the workload's tree */
		opts.nmore = st->f.nadded;    /* with the processes record -p added */
		memcpy(opts.more, st->f.added_pids, sizeof(opts.more));
	}
	opts.from_ns = tx.from_ns; /* --from/--to cut the report as they cut the timelines */
	opts.to_ns = tx.to_ns;
	if (opened < 0 || replay_run(st, err, sizeof(err)) < 0) {
		if (opts.progress)
			fprintf(stderr, "\r\033[K");
		locus_err("%s: %s", opts.path, err);
		replay_release(st);
		free(st);
		return EXIT_LOCUS_RUNTIME;
	}
	if (opts.progress)
		fprintf(stderr, "\r\033[K");
	locus_verbose("%s: %zu events held at most, %llu re-sorted within a CPU, %llu late, "
		      "%llu forced releases (no rounds)", opts.path, st->ro.peak,
		      (unsigned long long)st->ro.unordered, (unsigned long long)st->ro.late,
		      (unsigned long long)st->ro.relieved);
	if (!quiet && strncmp(st->topo_note, "from the file", 13))
		fprintf(stderr, "locus: %s: topology: %s\n", opts.path, st->topo_note);
	if (!st->rd.sched_samples && !st->rd.mem_samples && !st->rd.ss.records)
		locus_err("%s: no sched tracepoint or memory samples in the file (record with locus "
			  "record, perf sched record or perf c2c record)", opts.path);
	report_doc_init(&ro, st, ro.sections, cli_terminal_width());
	if (out) {
		if (write_file_atomically(out, report_doc_text, &ro) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (!(json && !strcmp(json, "-"))) {
		report_doc_text(stdout, &ro);
	}
	if (json && write_file_atomically(json, report_doc_json, &ro) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (svg && st->rd.sched_samples &&
	    write_heatmap_svg(svg, wakeup_results(&st->src.an), opts.path) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if ((tx.trace || tx.svg) && !st->rd.sched_samples) {
		locus_err("%s: no sched events in the file: no timeline to write",
			  tx.trace ? tx.trace : tx.svg);
		rc = EXIT_LOCUS_RUNTIME;
	} else if (tx.trace || tx.svg) {
		tx.quiet = quiet;
		tx.r = wakeup_results(&st->src.an);
		tx.span_ns = st->last_ns > st->first_ns ? st->last_ns - st->first_ns : 0;
		tx.events = st->rd.sched_samples;
		tx.bytes = st->f.pos;
		if (trace_export(&opts, &tx) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	}
	if (!st->rd.sched_samples && !st->rd.mem_samples && !st->rd.ss.records && rc == EXIT_LOCUS_OK)
		rc = EXIT_LOCUS_RUNTIME;
	replay_release(st);
	free(st);
	return rc;
}
