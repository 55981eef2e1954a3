/* counters.c - counting events through libperf, with honest reasons for what cannot open. */
#include "counters.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include "../common/util.h"
#include "probe.h"

static int libperf_quiet(enum libperf_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBPERF_INFO && locus_verbosity < 2)
		return 0;
	if (locus_verbosity <= 0)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void counters_lib_init(void)
{
	static bool done;

	if (!done) {
		libperf_init(libperf_quiet);
		done = true;
	}
}

struct perf_cpu_map *cpu_map_new(const int *cpus, int n)
{
	char list[16384];

	if (!cpus)
		return perf_cpu_map__new(NULL);
	return perf_cpu_map__new(fmt_cpu_list(cpus, n, list, sizeof(list)));
}

long counters_fds_needed(int n, const struct count_target *t)
{
	long cpus = t->cpus ? t->ncpus : sysconf(_SC_NPROCESSORS_ONLN);
	long per_event;

	if (t->tids)
		per_event = (long)t->ntids * (t->per_cpu ? cpus : 1);
	else
		per_event = cpus;
	return per_event * n;
}

static void explain(struct counter *c, int err, long fds)
{
	char pmu[64];
	int paranoid;

	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (c->ev.kind == EV_HARDWARE && !probe_core_pmu("", pmu, sizeof(pmu)))
			snprintf(c->reason, sizeof(c->reason), "%s", probe_no_pmu_reason());
		else
			snprintf(c->reason, sizeof(c->reason),
				 "the kernel cannot count this event here (%s)", strerror(err));
		break;
	case EACCES:
	case EPERM:
		paranoid = probe_paranoid();
		snprintf(c->reason, sizeof(c->reason),
			 "permission denied: perf_event_paranoid is %d (run as root, grant "
			 "CAP_PERFMON, or sysctl kernel.perf_event_paranoid=%d)",
			 paranoid, c->ev.kind == EV_TRACEPOINT ? -1 : 1);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(c->reason, sizeof(c->reason),
			 "out of file descriptors: about %ld needed (raise ulimit -n)", fds);
		break;
	case EBUSY:
		snprintf(c->reason, sizeof(c->reason),
			 "the PMU is busy (another tool holds it exclusively)");
		break;
	case EINVAL:
		snprintf(c->reason, sizeof(c->reason),
			 "the kernel rejected the event encoding (EINVAL)");
		break;
	default:
		snprintf(c->reason, sizeof(c->reason), "%s", strerror(err));
	}
}

/* Software events that only ever occur in kernel mode. */
static bool kernel_only(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE && (attr->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						    attr->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

static int open_one(struct counter *c, struct counter_set *cs, const struct count_target *t,
		    long fds)
{
	struct perf_event_attr attr = c->ev.attr;
	int err;

	attr.size = sizeof(attr);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	attr.inherit = t->tids != NULL;
	attr.enable_on_exec = t->enable_on_exec;
	c->evsel = perf_evsel__new(&attr);
	if (!c->evsel)
		return -ENOMEM;
	err = perf_evsel__open(c->evsel, cs->cpus, cs->threads);
	if ((err == -EACCES || err == -EPERM) && kernel_only(&attr)) {
		/* a user-space-only count of an event that happens in the kernel is 0, not data */
		snprintf(c->reason, sizeof(c->reason),
			 "happens only in the kernel, and perf_event_paranoid is %d: user-space "
			 "counting would read 0 (run as root, grant CAP_PERFMON, or sysctl "
			 "kernel.perf_event_paranoid=1)", probe_paranoid());
		perf_evsel__delete(c->evsel);
		c->evsel = NULL;
		return 0;
	}
	if ((err == -EACCES || err == -EPERM) && !attr.exclude_kernel &&
	    c->ev.kind != EV_TRACEPOINT) {
		/* perf_event_paranoid >= 2: fall back to user space only, as perf does */
		perf_evsel__delete(c->evsel);
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		c->evsel = perf_evsel__new(&attr);
		if (!c->evsel)
			return -ENOMEM;
		err = perf_evsel__open(c->evsel, cs->cpus, cs->threads);
		c->user_only = err == 0;
	}
	if (err) {
		explain(c, -err, fds);
		perf_evsel__delete(c->evsel);
		c->evsel = NULL;
		return 0;
	}
	c->open = true;
	return 0;
}

int counters_open(struct counter_set *cs, const struct event_desc *evs, int n,
		  const struct count_target *t)
{
	long fds = counters_fds_needed(n, t);

	counters_lib_init();
	memset(cs, 0, sizeof(*cs));
	cs->per_cpu = t->per_cpu;
	if (t->tids) {
		cs->threads = perf_thread_map__new_array(t->ntids, (pid_t *)t->tids);
	} else {
		cs->threads = perf_thread_map__new_dummy();
	}
	if (t->tids && !t->per_cpu) {
		cs->cpus = perf_cpu_map__dummy_new();
	} else {
		cs->cpus = cpu_map_new(t->cpus, t->ncpus);
	}
	if (!cs->threads || !cs->cpus) {
		counters_close(cs);
		return -ENOMEM;
	}
	cs->ncpus = perf_cpu_map__nr(cs->cpus);
	if (cs->per_cpu) {
		cs->cpu_ids = xcalloc((size_t)cs->ncpus, sizeof(int));
		for (int i = 0; i < cs->ncpus; i++)
			cs->cpu_ids[i] = perf_cpu_map__cpu(cs->cpus, i).cpu;
	}
	cs->c = xcalloc((size_t)n, sizeof(*cs->c));
	cs->n = n;
	for (int i = 0; i < n; i++) {
		struct counter *c = &cs->c[i];
		int err;

		c->ev = evs[i];
		if (cs->per_cpu)
			c->cpu_value = xcalloc((size_t)cs->ncpus, sizeof(double));
		if (!c->ev.resolved) {
			snprintf(c->reason, sizeof(c->reason), "%s", c->ev.reason);
			continue;
		}
		err = open_one(c, cs, t, fds);
		if (err) {
			counters_close(cs);
			return err;
		}
	}
	return 0;
}

void counters_enable(struct counter_set *cs)
{
	for (int i = 0; i < cs->n; i++)
		if (cs->c[i].open)
			perf_evsel__enable(cs->c[i].evsel);
}

void counters_disable(struct counter_set *cs)
{
	for (int i = 0; i < cs->n; i++)
		if (cs->c[i].open)
			perf_evsel__disable(cs->c[i].evsel);
}

void counters_read(struct counter_set *cs)
{
	int nthreads = perf_thread_map__nr(cs->threads);

	for (int i = 0; i < cs->n; i++) {
		struct counter *c = &cs->c[i];

		c->value = 0;
		c->enabled_ns = c->running_ns = 0;
		c->counted = false;
		if (!c->open)
			continue;
		for (int ci = 0; ci < cs->ncpus; ci++) {
			double cpu_sum = 0;

			for (int ti = 0; ti < nthreads; ti++) {
				struct perf_counts_values v = { 0 };
				double scaled;

				if (perf_evsel__read(c->evsel, ci, ti, &v) < 0)
					continue;
				c->enabled_ns += v.ena;
				c->running_ns += v.run;
				if (v.run == 0)
					continue;
				c->counted = true;
				scaled = (double)v.val;
				if (v.run < v.ena)
					scaled *= (double)v.ena / (double)v.run;
				cpu_sum += scaled;
			}
			c->value += cpu_sum;
			if (c->cpu_value)
				c->cpu_value[ci] = cpu_sum;
		}
	}
}

void counters_close(struct counter_set *cs)
{
	for (int i = 0; i < cs->n; i++) {
		struct counter *c = &cs->c[i];

		if (c->evsel) {
			if (c->open)
				perf_evsel__close(c->evsel);
			perf_evsel__delete(c->evsel);
		}
		free(c->cpu_value);
	}
	free(cs->c);
	free(cs->cpu_ids);
	if (cs->cpus)
		perf_cpu_map__put(cs->cpus);
	if (cs->threads)
		perf_thread_map__put(cs->threads);
	memset(cs, 0, sizeof(*cs));
}
