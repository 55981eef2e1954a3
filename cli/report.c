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
#include "counting.h"

enum { OPT_SECTIONS = OPT_SYSFS_ROOT + 1, OPT_SVG, OPT_LINE_SIZE };

static const struct cli_opt report_opts[] = {
	{ "input", 'i', "FILE", "perf.data file to read (- for a pipe; default perf.data)" },
	{ "pid", 'p', "PID", "follow this task and its children only (default: the workload "
			     "locus record ran, else every task)" },
	{ "all", 'a', NULL, "every task in the file, not only the recorded workload's" },
	{ "sections", OPT_SECTIONS, "LIST", "report only these: wakeups,latency,pairs,"
					      "migrations,switches,cpus,cachelines (default all)" },
	{ "line-size", OPT_LINE_SIZE, "N", "cacheline size for memory samples: 64 or 128" },
	{ "display", 'd', "WHAT", "rank cachelines by lcl, rmt or tot (default) HITM" },
	{ "json", OPT_JSON, "FILE", "also write the results as JSON (- for stdout)" },
	{ "svg", OPT_SVG, "FILE", "draw the wakeup heatmap (waker x target CPU) as SVG" },
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

struct report_out {
	struct replay *st;
	struct sched_report_ctx ctx;
	unsigned sections;
	const char *topo_note;
};

static void input_text(FILE *f, const struct replay *st, const char *topo_note)
{
	const struct pd_file *pf = &st->f;
	char a[32], b[32], c[32];

	fprintf(f, "\n Input: %s%s\n   %s records, %s samples: %s sched events", pf->path,
		pf->pipe ? " (pipe mode)" : "", fmt_count(pf->records, a, sizeof(a)),
		fmt_count(st->rd.samples, b, sizeof(b)), fmt_count(st->rd.sched_samples, c, sizeof(c)));
	if (st->rd.mem_samples)
		fprintf(f, ", %s memory samples", fmt_count(st->rd.mem_samples, a, sizeof(a)));
	fputc('\n', f);
	if (pf->hostname[0] || pf->cmdline[0])
		fprintf(f, "   recorded on %s (%s) by '%.200s'\n", pf->hostname[0] ? pf->hostname : "?",
			pf->osrelease[0] ? pf->osrelease : "?", pf->cmdline);
	if (pf->workload_pid)
		fprintf(f, "   workload: pid %d%s\n", pf->workload_pid,
			st->o->pid == pf->workload_pid ? " (its tasks are reported; -a for every task)"
							: "");
	if (pf->unknown_total) {
		fprintf(f, "   %llu records of unknown types were skipped (type:count",
			(unsigned long long)pf->unknown_total);
		for (int t = 0; t < PD_REC_MAX; t++)
			if (pf->unknown[t])
				fprintf(f, " %d:%llu", t, (unsigned long long)pf->unknown[t]);
		fprintf(f, ")\n");
	}
	if (st->rd.other_tracepoints)
		fprintf(f, "   %llu samples of other tracepoints (sched_stat_runtime, ...) are not "
			   "used\n", (unsigned long long)st->rd.other_tracepoints);
	if (st->rd.undecodable)
		fprintf(f, "   %llu sched samples could not be decoded (malformed payloads)\n",
			(unsigned long long)st->rd.undecodable);
	fprintf(f, "   topology: %s\n", topo_note);
}

static void text_doc(FILE *f, void *arg)
{
	struct report_out *o = arg;

	input_text(f, o->st, o->topo_note);
	if (o->st->rd.sched_samples || !o->st->rd.mem_samples)
		sched_report_text(f, wakeup_results(&o->st->src.an), o->sections, &o->ctx);
	if (o->st->rd.mem_samples && (o->sections & SEC_CACHELINES)) {
		struct symbolizer sz = symbols_symbolizer(&o->st->syms);

		cacheline_report_text(f, &o->st->cl, &sz);
	}
}

static void json_doc(FILE *f, void *arg)
{
	struct report_out *o = arg;
	const struct replay *st = o->st;
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "locus_version", LOCUS_VERSION);
	json_object(&j, "input");
	json_string(&j, "path", st->f.path);
	json_bool(&j, "pipe", st->f.pipe);
	json_uint(&j, "records", st->f.records);
	json_uint(&j, "samples", st->rd.samples);
	json_uint(&j, "sched_samples", st->rd.sched_samples);
	json_uint(&j, "memory_samples", st->rd.mem_samples);
	json_uint(&j, "other_tracepoint_samples", st->rd.other_tracepoints);
	json_uint(&j, "undecodable_samples", st->rd.undecodable);
	json_uint(&j, "unknown_records", st->f.unknown_total);
	json_string(&j, "hostname", st->f.hostname);
	json_string(&j, "osrelease", st->f.osrelease);
	json_string(&j, "cmdline", st->f.cmdline);
	json_string(&j, "topology", o->topo_note);
	json_object_end(&j);
	if (st->rd.sched_samples || !st->rd.mem_samples)
		sched_report_json_members(&j, wakeup_results((struct wakeup *)&st->src.an), &o->ctx);
	if (st->rd.mem_samples) {
		struct symbolizer sz = symbols_symbolizer((struct symbols *)&st->syms);

		cacheline_report_json_members(&j, &st->cl, &sz);
	}
	json_object_end(&j);
	json_end(&j);
}

int cmd_report(int argc, char **argv)
{
	const char *json = NULL, *svg = NULL, *out = NULL;
	struct replay_opts opts = { "perf.data", NULL, 0, 64, CL_SORT_TOTAL, NULL, NULL };
	struct replay *st = xcalloc(1, sizeof(*st));
	struct report_out ro = { st, { 0 }, SEC_SCHED | SEC_CACHELINES, NULL };
	long line_size;
	char err[400], bad[64];
	struct cli_parser p;
	bool quiet = false, all = false;
	long pid = 0;
	int c, opened, rc = EXIT_LOCUS_OK;

	cli_parser_init(&p, &report_cmd);
	while ((c = cli_next(&p, argc, argv)) != -1) {
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
			if (parse_long(optarg, 1, 1L << 22, &pid) < 0) {
				cli_usage_error(&report_cmd, "bad pid '%s'", optarg);
				free(st);
				return EXIT_LOCUS_USAGE;
			}
			opts.pid = (int32_t)pid;
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
	    cli_check_output(&report_cmd, out) < 0) {
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
	if (opened == 0 && !pid && !all && st->f.workload_pid)
		opts.pid = st->f.workload_pid; /* as locus run reports: the workload's tree */
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
	ro.topo_note = st->topo_note;
	if (!quiet && strncmp(st->topo_note, "from the file", 13))
		fprintf(stderr, "locus: %s: topology: %s\n", opts.path, st->topo_note);
	if (!st->rd.sched_samples && !st->rd.mem_samples)
		locus_err("%s: no sched tracepoint or memory samples in the file (record with locus "
			  "record, perf sched record or perf c2c record)", opts.path);
	ro.ctx = (struct sched_report_ctx){ st->rd.sched_samples > 0, "no sched tracepoint samples",
					     st->rd.sched_samples, st->f.pos, cli_terminal_width() };
	if (out) {
		if (write_file_atomically(out, text_doc, &ro) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (!(json && !strcmp(json, "-"))) {
		text_doc(stdout, &ro);
	}
	if (json && write_file_atomically(json, json_doc, &ro) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (svg && st->rd.sched_samples &&
	    write_heatmap_svg(svg, wakeup_results(&st->src.an), opts.path) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (!st->rd.sched_samples && !st->rd.mem_samples && rc == EXIT_LOCUS_OK)
		rc = EXIT_LOCUS_RUNTIME;
	replay_release(st);
	free(st);
	return rc;
}
