/* capabilities.c - what this machine and kernel allow, probed for real (capabilities.h). */
#include "capabilities.h"

#include <errno.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/util.h"
#include "bpf_sched.h"
#include "events.h"
#include "probe.h"
#include "topology.h"

static void add(struct check *c, int *n, enum status st, const char *what, const char *enables,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void add(struct check *c, int *n, enum status st, const char *what, const char *enables,
		const char *fmt, ...)
{
	va_list ap;

	if (*n >= CAPS_MAX)
		return;
	c[*n].st = st;
	snprintf(c[*n].what, sizeof(c[*n].what), "%s", what);
	snprintf(c[*n].enables, sizeof(c[*n].enables), "%s", enables);
	va_start(ap, fmt);
	vsnprintf(c[*n].detail, sizeof(c[*n].detail), fmt, ap);
	va_end(ap);
	(*n)++;
}

static bool check_software(struct check *c, int *n)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CONTEXT_SWITCHES };
	int err = probe_open(&a, 0, -1);

	if (!err) {
		add(c, n, ST_OK, "software events", "context switches, migrations, faults",
		    "perf_event_open works for this user");
		return true;
	}
	if (err == EACCES || err == EPERM) {
		/* paranoid 2: an unprivileged user counts its own tasks, in user space only */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		if (!probe_open(&a, 0, -1)) {
			add(c, n, ST_WARN, "software events", "context switches, migrations, faults",
			    "your own tasks, user space only (:u, as locus stat does for you); "
			    "kernel-side counts need root, CAP_PERFMON or kernel.perf_event_paranoid<=1");
			return true;
		}
	}
	add(c, n, ST_NO, "software events", "context switches, migrations, faults",
	    "perf_event_open fails: %s (sysctl kernel.perf_event_paranoid=2 or lower)",
	    strerror(err));
	return false;
}

static void check_privileges(struct check *c, int *n)
{
	int par = probe_paranoid();
	bool priv = probe_perf_privileged();

	if (priv)
		add(c, n, ST_OK, "privileges", "tracepoints, system-wide, kernel samples",
		    "perf_event_paranoid=%d; CAP_PERFMON or CAP_SYS_ADMIN held", par);
	else if (par <= -1)
		add(c, n, ST_OK, "privileges", "tracepoints, system-wide, kernel samples",
		    "perf_event_paranoid=%d allows everything to every user", par);
	else
		add(c, n, ST_WARN, "privileges", "tracepoints, system-wide, kernel samples",
		    "perf_event_paranoid=%d: only your own tasks, user space (run as root, grant "
		    "CAP_PERFMON, or sysctl kernel.perf_event_paranoid=-1)", par);
}

static void check_pmu(struct check *c, int *n)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE,
				     .config = PERF_COUNT_HW_CPU_CYCLES };
	char pmu[64], model[200], why[240];
	const char *hitm;
	int err;

	probe_cpu_model(model, sizeof(model));
	if (!probe_core_pmu("", pmu, sizeof(pmu))) {
		add(c, n, ST_NO, "hardware PMU", "cycles, instructions, cache misses, HITM",
		    "%s; CPU %s (run on bare metal or enable the guest's vPMU)",
		    probe_no_pmu_reason(), model);
	} else if ((err = probe_open(&a, 0, -1))) {
		add(c, n, ST_NO, "hardware PMU", "cycles, instructions, cache misses, HITM",
		    "PMU '%s' exported but cycles fail to open: %s", pmu, strerror(err));
	} else {
		add(c, n, ST_OK, "hardware PMU", "cycles, instructions, cache misses, HITM",
		    "PMU '%s'; CPU %s", pmu, model);
	}
	hitm = event_hitm_name(why, sizeof(why));
	if (hitm && probe_core_pmu("", pmu, sizeof(pmu)))
		add(c, n, ST_OK, "HITM counting event", "HITM counts in locus stat", "%s", hitm);
	else if (hitm)
		add(c, n, ST_NO, "HITM counting event", "HITM counts in locus stat",
		    "libpfm4 encodes %s, but there is no hardware PMU to count it", hitm);
	else
		add(c, n, ST_NO, "HITM counting event", "HITM counts in locus stat", "%s", why);
}

static void check_memory_sampling(struct check *c, int *n)
{
	char what[240];
	bool ok = probe_memory_sampling(what, sizeof(what));

	add(c, n, ok ? ST_OK : ST_NO, "precise memory samples",
	    "false sharing: HITM per cacheline, code, data", "%s", what);
}

/* Whether the BPF collector loads; stream_ok: whether the perf stream could trace instead. */
static bool check_bpf(struct check *c, int *n, bool stream_ok)
{
	struct topology t;
	struct bpf_sched_cfg bc = { .topo = &t, .exclude_tgid = getpid() };
	struct bpf_sched *b;
	char why[320];

	if (topology_load(&t, NULL, why, sizeof(why)) < 0) {
		add(c, n, ST_NO, "BPF collector", "in-kernel aggregation", "%s", why);
		return false;
	}
	b = bpf_sched_open(&bc, why, sizeof(why));
	if (b)
		add(c, n, ST_OK, "BPF collector", "run/top aggregate in the kernel (cheapest)",
		    "programs load and verify against /sys/kernel/btf/vmlinux");
	else if (stream_ok)
		add(c, n, ST_NO, "BPF collector", "run/top aggregate in the kernel (cheapest)",
		    "%s; run and top stream through perf ring buffers instead", why);
	else
		add(c, n, ST_NO, "BPF collector", "run/top aggregate in the kernel (cheapest)",
		    "%s; nor can the sched tracepoints be opened (above): run and top report "
		    "counters only", why);
	bpf_sched_close(b);
	topology_release(&t);
	return b != NULL;
}

/* The tracepoints locus reads, and what each gives (doctor's rows, list's names). */
static const struct {
	const char *sys, *name, *enables;
} tracepoints[] = {
	{ "sched", "sched_waking", "wakeups: waker CPU, target, locality" },
	{ "sched", "sched_wakeup", "wakeups where sched_waking is missing" },
	{ "sched", "sched_wakeup_new", "new tasks' placement" },
	{ "sched", "sched_switch", "switches, run time, wake-to-run delay" },
	{ "sched", "sched_migrate_task", "migrations, tasks moved after a wakeup" },
	{ "sched", "sched_process_fork", "the workload's task tree (its children)" },
	{ "sched", "sched_process_exit", "tasks that exited (kept in the totals)" },
	{ "sched", "sched_wake_idle_without_ipi", "wakeups of a polling idle CPU (no IPI)" },
	{ "ipi", "ipi_send_cpu", "which remote wakeups sent an IPI" },
	{ "irq", "irq_handler_entry", "--blame: hardirq time in the waits" },
	{ "irq", "irq_handler_exit", "--blame: hardirq time in the waits" },
	{ "irq", "softirq_entry", "--blame: softirq time in the waits" },
	{ "irq", "softirq_exit", "--blame: softirq time in the waits" },
};

/* One tracepoint's row; true when it opens. */
static bool check_tracepoint(struct check *c, int *n, const char *dir, size_t i,
			     int *unreadable)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT };
	char path[512], buf[32], what[48];
	const char *en = tracepoints[i].enables;
	bool needed = !strcmp(tracepoints[i].sys, "sched") && i < 7; /* the rest: optional */
	long id;
	int err;

	snprintf(what, sizeof(what), "%s:%s", tracepoints[i].sys, tracepoints[i].name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, tracepoints[i].sys,
		 tracepoints[i].name);
	errno = 0;
	if (read_text_file(path, buf, sizeof(buf)) < 0 || parse_long(buf, 0, 1L << 40, &id)) {
		*unreadable += errno == EACCES || errno == EPERM;
		if (errno == EACCES || errno == EPERM)
			add(c, n, ST_NO, what, en, "this user cannot read tracefs (%s): needs root, "
			    "or tracefs opened to the user and CAP_PERFMON", dir);
		else
			add(c, n, needed ? ST_NO : ST_WARN, what, en, "not in this kernel (%s)%s",
			    path, needed ? "" : ": what it gives is left out, and said");
		return false;
	}
	a.config = (unsigned long long)id;
	err = probe_open(&a, -1, 0);
	if (err)
		add(c, n, ST_NO, what, en, "id %ld, but opening it per CPU fails: %s (needs root, "
		    "CAP_PERFMON or perf_event_paranoid=-1)", id, strerror(err));
	else
		add(c, n, ST_OK, what, en, "id %ld, opens per CPU", id);
	return !err;
}

/* The tracepoints one by one; true when the perf stream can trace (switch and a wakeup). */
static bool check_tracepoints(struct check *c, int *n)
{
	char why[240];
	const char *dir = probe_tracefs(why, sizeof(why));
	bool opens[ARRAY_SIZE(tracepoints)] = { false };

	if (!dir) {
		add(c, n, ST_NO, "tracefs", "wakeup locality, latency, migrations", "%s", why);
		return false;
	}
	int row = *n, unreadable = 0;

	add(c, n, ST_OK, "tracefs", "tracepoint formats for decoding", "mounted at %s", dir);
	for (size_t i = 0; i < ARRAY_SIZE(tracepoints); i++)
		opens[i] = check_tracepoint(c, n, dir, i, &unreadable);
	if (unreadable) { /* mounted, but not for this user: one story with the rows below */
		c[row].st = ST_NO;
		snprintf(c[row].detail, sizeof(c[row].detail), "mounted at %s, but this user cannot "
			 "read it (needs root, or tracefs opened to the user)", dir);
	}
	return opens[3] && (opens[0] || opens[1]); /* sched_switch, and waking or wakeup */
}

const char *capabilities_tracepoint(size_t i)
{
	static char name[64];

	if (i >= ARRAY_SIZE(tracepoints))
		return NULL;
	snprintf(name, sizeof(name), "%s:%s", tracepoints[i].sys, tracepoints[i].name);
	return name;
}

static int count_llc_groups(void)
{
	char path[128], list[256], seen[64][256];
	int nseen = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (long cpu = 0; cpu < ncpu; cpu++) {
		bool dup = false;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%ld/cache/index3/shared_cpu_list", cpu);
		if (read_text_file(path, list, sizeof(list)) < 0)
			return cpu == 0 ? 0 : -1;
		for (int i = 0; i < nseen && !dup; i++)
			dup = !strcmp(seen[i], list);
		if (!dup && nseen < 64)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", list);
	}
	return nseen;
}

static void check_topology(struct check *c, int *n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int llc = count_llc_groups();

	if (numa_available() < 0)
		add(c, n, ST_WARN, "NUMA nodes", "node and remote wakeup classes",
		    "libnuma: NUMA not available in this kernel; one node assumed");
	else
		add(c, n, ST_OK, "NUMA nodes", "node and remote wakeup classes",
		    "%d node%s, %ld CPUs online", numa_num_configured_nodes(),
		    numa_num_configured_nodes() == 1 ? "" : "s", ncpu);
	if (llc > 0)
		add(c, n, ST_OK, "LLC groups", "shared-LLC wakeup class",
		    "%d last-level cache group%s (sysfs cache/index3)", llc, llc == 1 ? "" : "s");
	else
		add(c, n, ST_WARN, "LLC groups", "shared-LLC wakeup class",
		    "the kernel exports no cache/index3 in sysfs; LLC sharing is unknown "
		    "(reported as such, not guessed)");
}

static void check_limits(struct check *c, int *n)
{
	struct rlimit rl;
	struct stat st;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long need = ncpu * 8 + 10 + 64; /* sched tracepoints + counters per CPU, plus slack */
	char buf[32];

	if (stat("/proc/schedstat", &st) == 0)
		add(c, n, ST_OK, "/proc/schedstat", "wake_affine cross-check", "present");
	else
		add(c, n, ST_WARN, "/proc/schedstat", "wake_affine cross-check",
		    "absent: kernel built without CONFIG_SCHEDSTATS");
	nofile_original(&rl); /* as the shell gave it; locus itself runs raised */
	if ((long)rl.rlim_cur >= need)
		add(c, n, ST_OK, "RLIMIT_NOFILE", "one fd per CPU and event",
		    "soft %lu >= about %ld needed for %ld CPUs", (unsigned long)rl.rlim_cur, need,
		    ncpu);
	else if ((long)rl.rlim_max >= need)
		add(c, n, ST_OK, "RLIMIT_NOFILE", "one fd per CPU and event",
		    "soft %lu < %ld needed; locus raises it up to the hard limit %lu",
		    (unsigned long)rl.rlim_cur, need, (unsigned long)rl.rlim_max);
	else
		add(c, n, ST_NO, "RLIMIT_NOFILE", "one fd per CPU and event",
		    "hard limit %lu < about %ld needed (ulimit -Hn %ld as root)",
		    (unsigned long)rl.rlim_max, need, need);
	if (read_text_file("/proc/sys/kernel/perf_event_mlock_kb", buf, sizeof(buf)) == 0)
		add(c, n, ST_OK, "perf_event_mlock_kb", "ring buffers for tracing",
		    "%s KiB per user (root is not limited)", buf);
}

void capabilities_probe(struct capabilities *caps)
{
	struct check *c = caps->c;
	int *n = &caps->n;

	caps->n = 0;
	caps->sw_ok = check_software(c, n);
	check_privileges(c, n);
	check_pmu(c, n);
	check_memory_sampling(c, n);
	caps->stream_ok = check_tracepoints(c, n);
	caps->bpf_ok = check_bpf(c, n, caps->stream_ok);
	check_topology(c, n);
	check_limits(c, n);
}

const char *capabilities_event(const char *name, char *detail, size_t len)
{
	struct event_desc ev;
	int e;

	if (event_resolve(name, &ev, detail, len) < 0)
		return "unknown";
	if (!ev.resolved) {
		snprintf(detail, len, "%s", ev.reason);
		return "not supported";
	}
	e = probe_open(&ev.attr, ev.kind == EV_TRACEPOINT ? -1 : 0,
		       ev.kind == EV_TRACEPOINT ? 0 : -1);
	if (e == 0)
		snprintf(detail, len, "%s", ev.encoding);
	else if (ev.kind == EV_HARDWARE && (e == ENOENT || e == EOPNOTSUPP || e == ENODEV))
		snprintf(detail, len, "%s", probe_no_pmu_reason());
	else
		snprintf(detail, len, "%s", strerror(e));
	return e == 0 ? "ok" : "not supported";
}

/* What rusage and /proc give when nothing traces the scheduler. */
#define UNTRACED_FIGURES "task-clock, context switches split voluntary/involuntary, page faults"

const char *capabilities_sched_story(const struct capabilities *c)
{
	if (c->bpf_ok)
		return "traced by BPF in the kernel (run, top); record streams through perf ring "
		       "buffers.";
	if (c->stream_ok)
		return "traced through perf ring buffers (run, top, record); BPF cannot load "
		       "(above).";
	return "cannot be traced here (BPF and the sched tracepoints, above): run and top report "
	       "what rusage and /proc give (" UNTRACED_FIGURES "); record cannot run.";
}
