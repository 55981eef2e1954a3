/* counting.c - the options of stat, run, top and record: taken, checked, reported (counting.h). */
#include "counting.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "../report/sched_report.h"
#include "../report/stat_report.h"

int counting_take(struct counting_opts *o, const struct cli_cmd *cmd, int code, const char *arg)
{
	switch (code) {
	case 'e':
		if (!o->events) {
			o->events = xstrdup(arg);
		} else {
			size_t n = strlen(o->events) + strlen(arg) + 2;
			char *s = xmalloc(n);

			snprintf(s, n, "%s,%s", o->events, arg);
			free(o->events);
			o->events = s;
		}
		return 1;
	case 'r':
		if (parse_long(arg, 1, 100000, &o->repeat) < 0) {
			cli_usage_error(cmd, "bad repeat count '%s' (a number from 1 to 100000)",
					arg);
			return -1;
		}
		return 1;
	case 'a':
		o->all_cpus = true;
		return 1;
	case 'C':
		o->cpu_list = (char *)arg;
		return 1;
	case 'p': {
		char one[32];
		size_t n = strcspn(arg, ",");

		/* the first for attaching; the list is checked once the command is known */
		snprintf(one, sizeof(one), "%.*s", (int)(n < sizeof(one) ? n : sizeof(one) - 1), arg);
		if (parse_long(one, 1, 1L << 22, &o->pid) < 0) {
			cli_usage_error(cmd, "bad pid '%s'", arg);
			return -1;
		}
		o->pid_list = arg;
		return 1;
	}
	case 'A':
		o->per_cpu = true;
		return 1;
	case OPT_JSON:
		o->json_path = arg;
		return 1;
	case 'o':
		o->out_path = arg;
		return 1;
	case 'q':
		o->quiet = true;
		return 1;
	case 'v':
		locus_verbosity++;
		return 1;
	}
	return 0;
}

int cli_check_output(const struct cli_cmd *cmd, const char *path)
{
	char why[8400];

	if (outfile_check(path, why, sizeof(why)) == 0)
		return 0;
	cli_usage_error(cmd, "%s", why);
	return -1;
}

int counting_finish(struct counting_opts *o, const struct cli_cmd *cmd, char **argv)
{
	char why[400];

	if (cli_check_output(cmd, o->out_path) < 0 || cli_check_output(cmd, o->json_path) < 0)
		return -1;
	if (counting_check(o, argv, why, sizeof(why)) == 0)
		return 0;
	cli_usage_error(cmd, "%s", why);
	return -1;
}

int counting_report(const struct counting_opts *o, const struct stat_result *res,
		    const struct run_outcome *out, char **argv,
		    const struct report_extra *extra)
{
	struct stat_scope sc = { argv, o->pid, o->pid_list, o->added, o->nadded, o->cpu_list,
				 o->all_cpus };
	struct stat_scope_words w;
	struct stat_report_ctx ctx = { .exit_code = out->exit_code,
				       .interrupted = out->interrupted,
				       .left_n = out->left.n,
				       .left_termed = out->left.termed,
				       .left_killed = out->left.killed,
				       .left_names = out->left.names,
				       .left_line = out->left_line };

	stat_scope_fill(&sc, extra ? extra->trace : NULL, &w, &ctx);
	return stat_report_write(res, &ctx, extra, o->out_path, o->json_path) < 0
		       ? EXIT_LOCUS_RUNTIME
		       : 0;
}

int cli_load_topology(const struct cli_cmd *cmd, const char *sysfs_root, struct topology *t)
{
	char err[320];

	if (counting_topology(t, sysfs_root, err, sizeof(err)) == 0)
		return 0;
	if (sysfs_root) {
		cli_usage_error(cmd, "--sysfs-root: %s", err);
		return EXIT_LOCUS_USAGE;
	}
	locus_err("cannot read the CPU topology: %s", err);
	return EXIT_LOCUS_RUNTIME;
}

/* --collector's names, by enum collector_kind. */
static const char *const collector_names[] = { [COLLECTOR_AUTO] = "auto",
					       [COLLECTOR_BPF] = "bpf",
					       [COLLECTOR_PERF] = "perf" };

int collector_take(struct collector_opts *c, const struct cli_cmd *cmd, int code, const char *arg)
{
	switch (code) {
	case OPT_COLLECTOR:
		c->collector = parse_name(arg, collector_names, ARRAY_SIZE(collector_names));
		if (c->collector >= 0)
			return 1;
		cli_usage_error(cmd, "bad collector '%s' (bpf, perf or auto)", arg);
		return -1;
	case OPT_BTF:
		c->btf = arg;
		c->bpf_only_set = true;
		return 1;
	case OPT_DELAY_RATE:
		c->bpf_only_set = c->delay_rate_set = true;
		if (parse_long(arg, 0, 100000000, &c->delay_rate) == 0)
			return 1;
		cli_usage_error(cmd, "bad delay rate '%s' (wakeups a second per CPU, 0 for all)",
				arg);
		return -1;
	case OPT_IPIS:
		c->ipis = true;
		return 1;
	case OPT_MAX_TASKS:
	case OPT_MAX_PAIRS:
		if (parse_long(arg, 1, 1 << 24, code == OPT_MAX_TASKS ? &c->max_tasks :
			       &c->max_pairs) < 0) {
			cli_usage_error(cmd, "bad --%s '%s' (1 to 16777216)",
					code == OPT_MAX_TASKS ? "max-tasks" : "max-pairs", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

int trace_take(struct trace_opts *t, const struct cli_cmd *cmd, int code, const char *arg)
{
	switch (code) {
	case OPT_SYSFS_ROOT:
		t->sysfs_root = arg;
		return 1;
	case OPT_TRACEFS:
		t->tracefs = arg;
		return 1;
	case 'm':
		if (parse_long(arg, 1, 1 << 20, &t->pages) == 0 && !(t->pages & (t->pages - 1)))
			return 1;
		cli_usage_error(cmd, "bad --mmap-pages '%s' (a power of two)", arg);
		return -1;
	}
	return 0;
}

int collector_finish(const struct collector_opts *c, const struct trace_opts *t,
		     const struct cli_cmd *cmd)
{
	if (c->collector == COLLECTOR_PERF && c->bpf_only_set) {
		cli_usage_error(cmd, "--btf and --delay-rate are for the BPF collector (the perf "
				"collector times every wakeup)");
		return -1;
	}
	if (c->collector == COLLECTOR_BPF && t->tracefs) {
		cli_usage_error(cmd, "--tracefs is for the perf stream: the BPF collector attaches "
				"by BTF and reads no tracefs (use --collector perf)");
		return -1;
	}
	if (c->collector == COLLECTOR_BPF && t->pages) {
		cli_usage_error(cmd, "-m sizes the perf stream's ring buffers: the BPF collector "
				"counts in kernel maps and has none (use --collector perf)");
		return -1;
	}
	return 0;
}

#define BLAME_NOT_STREAMED "the events were not streamed to locus (the BPF collector only " \
			   "counts: --collector perf)"

void traced_report_init(struct traced_report *rr, struct live_session *live,
			const struct run_outcome *out, unsigned sections)
{
	struct live_outputs o;

	live_session_outputs(live, &o);
	rr->res = out->traced ? o.res : NULL;
	rr->sections = sections;
	rr->ctx = (struct sched_report_ctx){ out->traced, out->trace_reason, o.events, o.bytes,
					     terminal_columns() };
	rr->live = live;
	rr->mem_why[0] = '\0';
	rr->ls = (struct live_sections){ .res = rr->res, .ctx = &rr->ctx, .sections = sections,
					 .ss = o.ss, .ss_why = o.ss_why, .blame = o.blame,
					 .blame_why = BLAME_NOT_STREAMED, .cl = o.cl, .sz = o.sz,
					 .mem_why = rr->mem_why };
	if (rr->res) { /* -g: the stacks, named from this machine and the mappings seen */
		rr->ls.stacks = o.stacks;
		rr->ls.stacks_nm = o.stack_nm;
		rr->ls.stacks_fr = (struct stacks_frames){ .tab = o.stacks ? o.stack_tab : NULL,
							   .namer = &rr->ls.stacks_nm };
	}
	if ((sections & SEC_CACHELINES) && !o.cl)
		live_session_mem_why(live, rr->mem_why, sizeof(rr->mem_why));
}

struct report_extra traced_report_extra(struct traced_report *rr)
{
	bool sched = (rr->sections & ~SEC_COUNTERS) != 0;

	return (struct report_extra){ .counters = (rr->sections & SEC_COUNTERS) != 0,
				      .text = sched ? live_sections_text : NULL,
				      .json = sched ? live_sections_json : NULL, .ctx = &rr->ls,
				      .trace = rr->res };
}
