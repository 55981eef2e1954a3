/* report.c - `locus report -i FILE`: the analysis of locus run, from a perf.data file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#include "../analyzers/reorder.h"
#include "../analyzers/wakeup.h"
#include "../collectors/perfdata.h"
#include "../collectors/topology.h"
#include "../collectors/tp_decode.h"
#include "../collectors/tracing_data.h"
#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "commands.h"
#include "counting.h"

enum { OPT_SECTIONS = OPT_SYSFS_ROOT + 1, OPT_SVG };

static const struct cli_opt report_opts[] = {
	{ "input", 'i', "FILE", "perf.data file to read (- for a pipe; default perf.data)" },
	{ "pid", 'p', "PID", "follow this task and its children only (default: every task)" },
	{ "sections", OPT_SECTIONS, "LIST", "report only these: wakeups,latency,pairs,"
					      "migrations,switches,cpus (default all)" },
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
	"Analyze a perf.data file from locus record, perf record, perf sched record or\n"
	"perf c2c record with the analyzers of locus run: wakeup locality, wake-to-run\n"
	"delay, migrations, switches. The topology comes from the file when it has one.",
	report_opts,
};

struct report_state {
	struct pd_file f;
	struct tep_handle *tep;
	struct tp_decoder dec;
	bool decoder;
	struct reorder ro;
	struct wakeup an;
	struct topology topo;
	uint64_t samples, sched_samples, other_tracepoints, undecodable;
	bool quiet, tty;
	uint64_t next_progress;
};

static void analyze(void *ctx, const struct event *e)
{
	wakeup_add(&((struct report_state *)ctx)->an, e);
}

/* Tracepoint formats from the file: needed before the first sched sample. */
static int setup_decoder(struct report_state *st, char *err, size_t len)
{
	char why[320];

	if (st->decoder)
		return 0;
	if (!st->f.tracing_data) {
		snprintf(err, len, "no tracepoint formats (TRACING_DATA) in the file");
		return -1;
	}
	st->tep = tracing_data_parse(st->f.tracing_data, st->f.tracing_len, why, sizeof(why));
	if (!st->tep) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	if (tp_decoder_init(&st->dec, st->tep, why, sizeof(why)) < 0) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	st->decoder = true;
	return 0;
}

static void progress(struct report_state *st)
{
	if (!st->tty || st->quiet || st->f.records < st->next_progress)
		return;
	st->next_progress = st->f.records + 200000;
	if (st->f.pipe)
		fprintf(stderr, "\rlocus: %llu records", (unsigned long long)st->f.records);
	else
		fprintf(stderr, "\rlocus: %3.0f%% of %s (%llu records)",
			100.0 * (double)(st->f.pos - st->f.data_off) / (double)(st->f.data_size + 1),
			st->f.path, (unsigned long long)st->f.records);
}

static int on_sample(struct report_state *st, const struct pd_record *rec)
{
	struct pd_sample s;
	struct event e;
	char err[320];
	int r;

	if (pd_parse_sample(&st->f, rec, &s) < 0)
		return -1;
	st->samples++;
	if (s.attr->attr.type != PERF_TYPE_TRACEPOINT || !s.raw)
		return 0;
	if (setup_decoder(st, err, sizeof(err)) < 0) {
		snprintf(st->f.err, sizeof(st->f.err), "%s", err);
		return -1;
	}
	memset(&e, 0, sizeof(e));
	r = tp_decode(&st->dec, s.raw, s.raw_size, &e);
	if (r > 0) {
		st->other_tracepoints++;
		return 0;
	}
	if (r < 0) {
		st->undecodable++; /* counted and reported, the rest of the file still read */
		return 0;
	}
	e.time_ns = s.time;
	e.cpu = (int32_t)s.cpu;
	e.pid = (int32_t)s.pid;
	e.tid = (int32_t)s.tid;
	st->sched_samples++;
	reorder_add(&st->ro, &e, analyze, st);
	return 0;
}

/* Read every record. Returns 0 or -1 (st->f.err says what and where). */
static int read_all(struct report_state *st)
{
	struct pd_record rec;
	int r;

	while ((r = pd_next(&st->f, &rec)) > 0) {
		progress(st);
		if (rec.type == PERF_RECORD_SAMPLE) {
			if (on_sample(st, &rec) < 0)
				return -1;
		} else if (rec.type == PERF_RECORD_LOST && rec.size >= 24) {
			struct event e = { .type = EV_LOST };

			memcpy(&e.lost.lost, rec.data + 16, 8);
			analyze(st, &e);
		} else if (rec.type == PD_REC_FINISHED_ROUND) {
			reorder_round(&st->ro, analyze, st);
		}
	}
	if (st->tty && !st->quiet)
		fprintf(stderr, "\r\033[K");
	return r;
}

struct report_out {
	struct report_state *st;
	struct sched_report_ctx ctx;
	unsigned sections;
	const char *topo_note;
};

static void input_text(FILE *f, const struct report_state *st, const char *topo_note)
{
	const struct pd_file *pf = &st->f;
	char a[32], b[32], c[32];

	fprintf(f, "\n Input: %s%s: %s records, %s samples, %s sched events\n", pf->path,
		pf->pipe ? " (pipe mode)" : "", fmt_count(pf->records, a, sizeof(a)),
		fmt_count(st->samples, b, sizeof(b)), fmt_count(st->sched_samples, c, sizeof(c)));
	if (pf->hostname[0] || pf->cmdline[0])
		fprintf(f, "   recorded on %s (%s) by '%.200s'\n", pf->hostname[0] ? pf->hostname : "?",
			pf->osrelease[0] ? pf->osrelease : "?", pf->cmdline);
	if (pf->unknown_total)
		fprintf(f, "   %llu records of types locus does not use were skipped\n",
			(unsigned long long)pf->unknown_total);
	if (st->other_tracepoints)
		fprintf(f, "   %llu samples of other tracepoints (sched_stat_runtime, ...) are not "
			   "used\n", (unsigned long long)st->other_tracepoints);
	if (st->undecodable)
		fprintf(f, "   %llu sched samples could not be decoded (malformed payloads)\n",
			(unsigned long long)st->undecodable);
	fprintf(f, "   topology: %s\n", topo_note);
}

static void text_doc(FILE *f, void *arg)
{
	struct report_out *o = arg;

	input_text(f, o->st, o->topo_note);
	sched_report_text(f, wakeup_results(&o->st->an), o->sections, &o->ctx);
}

static void json_doc(FILE *f, void *arg)
{
	struct report_out *o = arg;
	const struct report_state *st = o->st;
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "locus_version", LOCUS_VERSION);
	json_object(&j, "input");
	json_string(&j, "path", st->f.path);
	json_bool(&j, "pipe", st->f.pipe);
	json_uint(&j, "records", st->f.records);
	json_uint(&j, "samples", st->samples);
	json_uint(&j, "sched_samples", st->sched_samples);
	json_uint(&j, "other_tracepoint_samples", st->other_tracepoints);
	json_uint(&j, "undecodable_samples", st->undecodable);
	json_uint(&j, "unknown_records", st->f.unknown_total);
	json_string(&j, "hostname", st->f.hostname);
	json_string(&j, "osrelease", st->f.osrelease);
	json_string(&j, "cmdline", st->f.cmdline);
	json_string(&j, "topology", o->topo_note);
	json_object_end(&j);
	sched_report_json_members(&j, wakeup_results((struct wakeup *)&st->an), &o->ctx);
	json_object_end(&j);
	json_end(&j);
}

static int report_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

int cmd_report(int argc, char **argv)
{
	const char *input = "perf.data", *json = NULL, *svg = NULL, *out = NULL, *sysfs = NULL;
	struct report_state *st = xcalloc(1, sizeof(*st));
	struct wakeup_cfg wc = { 0 };
	struct report_out ro = { st, { 0 }, SEC_SCHED, NULL };
	char note[400], err[320], bad[64];
	struct cli_parser p;
	long pid = 0;
	int c, rc = EXIT_LOCUS_OK;

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
			input = optarg;
			break;
		case 'p':
			if (parse_long(optarg, 1, 1L << 22, &pid) < 0) {
				cli_usage_error(&report_cmd, "bad pid '%s'", optarg);
				free(st);
				return EXIT_LOCUS_USAGE;
			}
			break;
		case OPT_SECTIONS:
			if (report_sections_parse(optarg, &ro.sections, bad, sizeof(bad)) < 0 ||
			    !(ro.sections & SEC_SCHED)) {
				cli_usage_error(&report_cmd, "unknown section '%s' (wakeups, latency, "
						"pairs, migrations, switches, cpus, all)", bad);
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
			sysfs = optarg;
			break;
		case 'q':
			st->quiet = true;
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
	if (pd_open(&st->f, input) < 0) {
		locus_err("%s: %s", input, st->f.err);
		pd_close(&st->f);
		free(st);
		return EXIT_LOCUS_RUNTIME;
	}
	st->tty = isatty(STDERR_FILENO);
	/* pipe mode carries its features inside the stream: read them first */
	if (pd_topology(&st->f, &st->topo) == 0) {
		snprintf(note, sizeof(note), "%s", st->topo.source);
	} else if (topology_load(&st->topo, sysfs, err, sizeof(err)) == 0) {
		snprintf(note, sizeof(note), "the file has none: %s's (%s)",
			 sysfs ? "--sysfs-root" : "this machine", st->topo.source);
	} else {
		locus_err("%s: no topology in the file, and %s", input, err);
		pd_close(&st->f);
		free(st);
		return EXIT_LOCUS_RUNTIME;
	}
	ro.topo_note = note;
	if (!st->quiet && strncmp(note, "from the file", 13))
		fprintf(stderr, "locus: %s: topology: %s\n", input, note);
	wc.topo = &st->topo;
	wc.system_wide = pid == 0;
	wc.waking_source = true;
	reorder_init(&st->ro);
	/* the waking source is known once formats are read; decide at the first sample */
	if (st->f.tracing_data && setup_decoder(st, err, sizeof(err)) == 0)
		wc.waking_source = st->dec.fmt[EV_WAKING].id >= 0;
	wakeup_init(&st->an, &wc);
	if (pid)
		wakeup_track(&st->an, (int32_t)pid);
	if (read_all(st) < 0) {
		locus_err("%s: %s", input, st->f.err);
		rc = EXIT_LOCUS_RUNTIME;
		goto out;
	}
	reorder_flush(&st->ro, analyze, st);
	wakeup_finish(&st->an);
	wakeup_results(&st->an)->late = st->ro.late;
	wakeup_results(&st->an)->undecodable = st->undecodable;
	if (!st->sched_samples)
		locus_err("%s: no sched tracepoint samples in the file (record with locus record "
			  "or perf sched record)", input);
	ro.ctx = (struct sched_report_ctx){ st->sched_samples > 0, "no sched tracepoint samples",
					     "a perf.data file",
					     pid ? "one task and its children" : "every task",
					     st->topo.nonline, st->sched_samples, st->f.pos,
					     report_width() };
	if (out) {
		if (write_file_atomically(out, text_doc, &ro) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (!(json && !strcmp(json, "-"))) {
		text_doc(stdout, &ro);
	}
	if (json && write_file_atomically(json, json_doc, &ro) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (svg && st->sched_samples && sched_report_svg(svg, wakeup_results(&st->an), input) < 0) {
		locus_err("cannot write %s", svg);
		rc = EXIT_LOCUS_RUNTIME;
	}
	if (!st->sched_samples && rc == EXIT_LOCUS_OK)
		rc = EXIT_LOCUS_RUNTIME;
out:
	wakeup_release(&st->an);
	reorder_release(&st->ro);
	topology_release(&st->topo);
	if (st->tep)
		tep_free(st->tep);
	pd_close(&st->f);
	free(st);
	return rc;
}
