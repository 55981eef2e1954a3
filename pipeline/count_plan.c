/* count_plan.c - a counting command's plan checked, then its run's and its source's settings. */
#include "count_plan.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../collectors/caption.h"
#include "../collectors/topology.h"
#include "../common/util.h"

/*
 * -p as given: beside a command, running processes join the workload's set (tbench_srv);
 * without one, the first is attached and the rest join it (client and server). 0, or -1
 * with why.
 */
static int take_pid_list(struct counting_opts *o, char **argv, char *why, size_t len)
{
	bool beside = argv && argv[0];
	char *list = xstrdup(o->pid_list), *save = NULL;
	int k = 0, rc = 0;

	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save), k++) {
		long v;

		if (parse_long(t, 1, 1L << 22, &v) < 0 ||
		    o->nadded >= (int)(sizeof(o->added) / sizeof(o->added[0]))) {
			snprintf(why, len, "bad pid list '%s' (up to 8 pids, comma separated)",
				 o->pid_list);
			rc = -1;
			goto out;
		}
		if (kill((pid_t)v, 0) < 0 && errno == ESRCH) {
			snprintf(why, len, "no process with pid %ld", v);
			rc = -1;
			goto out;
		}
		if (beside || k > 0)
			o->added[o->nadded++] = (pid_t)v;
	}
	if (beside)
		o->pid = 0; /* not attached: added */
out:
	free(list);
	return rc;
}

int counting_check(struct counting_opts *o, char **argv, char *why, size_t len)
{
	if (!o->repeat)
		o->repeat = 1;
	if (o->pid && (o->all_cpus || o->cpu_list)) {
		/* before -p beside a command is taken: with -a or -C it would add nothing */
		snprintf(why, len, "-p cannot be combined with -a or -C");
		return -1;
	}
	if (o->pid_list && take_pid_list(o, argv, why, len) < 0)
		return -1;
	if (o->pid && kill((pid_t)o->pid, 0) < 0 && errno == ESRCH) {
		snprintf(why, len, "no process with pid %ld", o->pid);
		return -1;
	}
	if (o->repeat > 1 && !(argv && argv[0])) {
		snprintf(why, len, "-r repeats a command; give one after --");
		return -1;
	}
	if (o->cpu_list) {
		o->ncpus = parse_cpu_list(o->cpu_list, (int)sysconf(_SC_NPROCESSORS_CONF),
					  &o->cpus, why, len);
		if (o->ncpus < 0)
			return -1;
	}
	o->nevs = event_resolve_list(o->events, &o->evs, why, len);
	if (o->nevs < 0) {
		o->nevs = 0;
		return -1;
	}
	return 0;
}

void counting_release(struct counting_opts *o)
{
	free(o->events);
	free(o->cpus);
	free(o->evs);
	memset(o, 0, sizeof(*o));
}

int counting_topology(struct topology *t, const char *sysfs_root, char *why, size_t len)
{
	return topology_load(t, sysfs_root, why, len);
}

void counting_caption(struct svg_caption *c, int argc, char **argv)
{
	caption_live(c, argc, argv);
}

void counting_run_cfg(const struct counting_opts *o, char **argv, struct run_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->argv = argv && argv[0] ? argv : NULL;
	cfg->pid = (pid_t)o->pid;
	cfg->added = o->added;
	cfg->nadded = o->nadded;
	cfg->system_wide = o->all_cpus || o->cpu_list;
	cfg->cpus = o->cpus;
	cfg->ncpus = o->ncpus;
	cfg->per_cpu = o->per_cpu;
	cfg->repeat = (int)o->repeat;
	cfg->evs = o->evs;
	cfg->nevs = o->nevs;
	/* with the JSON on standard output, the workload's output goes to standard error */
	cfg->output_fd = o->json_path && !strcmp(o->json_path, "-") ? STDERR_FILENO : -1;
}

void traced_source_cfg(struct source_cfg *tc, const struct counting_opts *o,
		       const struct trace_opts *tr, const struct collector_opts *col,
		       const struct topology *topo)
{
	*tc = (struct source_cfg){ .topo = topo, .cpus = o->cpus, .ncpus = o->ncpus,
				   .mmap_pages = (int)tr->pages,
				   .system_wide = o->all_cpus || o->cpu_list,
				   .collector = col->collector, .quiet = o->quiet,
				   .max_tasks = (int)col->max_tasks,
				   .max_pairs = (int)col->max_pairs, .ipis = col->ipis,
				   .stream = { .tracefs = tr->tracefs },
				   .bpf = { .btf = col->btf, .delay_rate = col->delay_rate } };
}

void run_source_cfg(struct source_cfg *tc, const struct counting_opts *o,
		    const struct trace_opts *tr, const struct collector_opts *col,
		    const struct topology *topo, bool memory, bool blame, bool callchain)
{
	bool bpf = col->collector == COLLECTOR_BPF;

	traced_source_cfg(tc, o, tr, col, topo);
	tc->memory = memory;
	tc->stream.blame = blame;
	tc->stream.callchain = callchain;
	tc->bpf.stacks = callchain && bpf;
	tc->bpf.blame = blame && bpf;
	if (tc->bpf.blame && !col->delay_rate_set)
		tc->bpf.delay_rate = LOCUS_BLAME_DELAY_RATE;
}
