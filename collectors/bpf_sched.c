/* bpf_sched.c - loads the sched aggregator (libbpf skeleton), reads its maps into results. */
#define _GNU_SOURCE
#include "bpf_sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/util.h"
#include "procfs.h"
#include "bpf/sched_bpf.h"
#include "sched.skel.h" /* build/bpf: the skeleton, or a note that there is none */

unsigned bpf_sched_every(long rate)
{
	if (rate <= 0 || rate >= LB_PACE_PEAK)
		return 1;
	return (unsigned)((LB_PACE_PEAK + rate - 1) / rate);
}

#ifdef LOCUS_NO_BPF

struct bpf_sched {
	int unused;
};

struct bpf_sched *bpf_sched_open(const struct bpf_sched_cfg *cfg, char *err, size_t len)
{
	(void)cfg;
	snprintf(err, len, "locus was built without the BPF collector (no kernel BTF or bpftool "
		 "at build time)");
	return NULL;
}

int bpf_sched_track(struct bpf_sched *b, pid_t tid, char *err, size_t len)
{
	return -1;
}

int bpf_sched_attach(struct bpf_sched *b, char *err, size_t len)
{
	return -1;
}

void bpf_sched_detach(struct bpf_sched *b)
{
}

void bpf_sched_read(struct bpf_sched *b, struct sched_results *r, bool tasks)
{
}

uint64_t bpf_sched_events(struct bpf_sched *b)
{
	return 0;
}

uint64_t bpf_sched_unmeasured(const struct bpf_sched *b)
{
	return ~0ull;
}

const char *bpf_sched_left_out(const struct bpf_sched *b)
{
	return "";
}

void bpf_sched_close(struct bpf_sched *b)
{
}

#else

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>

#include "../common/bench_pause.h"
#include "bpf_sched_int.h"

/*
 * The arguments the kernel's raw tracepoint name passes (its BTF at path: the typedef
 * btf_trace_<name>, a pointer to a function of the context and them), or -1 when the
 * kernel has no such tracepoint (tp_btf cannot attach to it).
 */
static int tracepoint_args(const char *path, const char *name)
{
	struct btf *btf = btf__parse(path, NULL);
	const struct btf_type *t;
	char type[96];
	int id, n = -1;

	if (!btf)
		return -1;
	snprintf(type, sizeof(type), "btf_trace_%s", name);
	id = btf__find_by_name_kind(btf, type, BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, btf__resolve_type(btf, id)) : NULL;
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_func_proto(t))
		n = btf_vlen(t) - 1; /* the first is the context */
	btf__free(btf);
	return n;
}

static bool has_tracepoint(const char *path, const char *name)
{
	return tracepoint_args(path, name) >= 0;
}

/* Whether the kernel whose BTF is at path knows the helper (BPF_FUNC_<name> in its enum). */
static bool has_helper(const char *path, const char *name)
{
	struct btf *btf = btf__parse(path, NULL);
	const struct btf_type *t;
	char want[64];
	bool found = false;
	int id;

	if (!btf)
		return false;
	snprintf(want, sizeof(want), "BPF_FUNC_%s", name);
	id = btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (int i = 0; t && i < btf_vlen(t) && !found; i++)
		found = !strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off), want);
	btf__free(btf);
	return found;
}

uint64_t bpf_sched_unmeasured(const struct bpf_sched *b)
{
	return (b->ipi ? 0 : SM_BIT(wakeups_ipi) | SM_BIT(ipis_resched_other) |
			     SM_BIT(ipis_call_other)) |
	       (b->wake_idle ? 0 : SM_BIT(wakeups_no_ipi)) |
	       (b->idle_words ? 0 : SM_BIT(idle_passed) | SM_BIT(idle_not_allowed) |
				    SM_BIT(idle_wait_ns) | SM_BIT(affinity_unknown));
}

_Static_assert(LB_IDLE_CPUS == PROV_BPF_IDLE_CPUS, "the report says where idle masks stop");

/* The CPUs of each core, LLC and node, in the row of the group's first CPU (idle.c's). */
static void fill_near(struct bpf_sched *b)
{
	static const enum locality level[3] = { LOC_SMT, LOC_LLC, LOC_NODE };
	const struct topology *t = b->topo;

	for (int k = 0; k < 3; k++)
		for (int a = 0; a < b->ncpus; a++) {
			int ga = topology_group(t, a, level[k]), first = 0;

			while (ga >= 0 && topology_group(t, first, level[k]) != ga)
				first++;
			b->skel->bss->idle_leader[k][a] = ga >= 0 ? first : -1;
			if (ga >= 0)
				b->skel->bss->near_mask[k][first][a / 64] |= 1ull << (a % 64);
		}
}

void bpf_cpu_times(int ncpus, uint64_t *busy, uint64_t *idle)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	long hz = sysconf(_SC_CLK_TCK);

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 };
		int cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 9 || cpu < 0 || cpu >= ncpus)
			continue;
		/* user nice system idle iowait irq softirq steal */
		busy[cpu] = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * 1000000000ull / (uint64_t)hz;
		idle[cpu] = (v[3] + v[4]) * 1000000000ull / (uint64_t)hz;
	}
	if (f)
		fclose(f);
}

/*
 * The program the verifier refused last and its reason (the line before "processed N
 * insns", else the log's last line): libbpf's print callback has no context pointer, and
 * the collector is opened from one thread.
 */
static char refused[256];

static void note_refusal(const char *msg)
{
	const char *log = strstr(msg, "-- BEGIN PROG LOAD LOG --"), *name = strstr(msg, "prog '");
	const char *end, *stop, *line;
	int n;

	if (!log || !name)
		return;
	name += 6;
	n = (int)strcspn(name, "'");
	log = strchr(log, '\n');
	end = log ? strstr(log, "\nprocessed ") : NULL;
	if (!end && log)
		end = strstr(log, "\n-- END PROG LOAD LOG");
	if (!log || !end || end <= log)
		return;
	line = end; /* back to the start of the line before end */
	while (line > log && line[-1] != '\n')
		line--;
	stop = memchr(line, '\n', (size_t)(end - line + 1));
	snprintf(refused, sizeof(refused), "%.*s: %.*s", n, name,
		 (int)((stop ? stop : end) - line), line);
}

static int no_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg = NULL;
	int r = 0;

	if (level == LIBBPF_WARN && strstr(fmt, "LOG")) { /* a verifier log: keep its reason */
		va_list aq;

		va_copy(aq, ap);
		if (vasprintf(&msg, fmt, aq) >= 0)
			note_refusal(msg);
		va_end(aq);
	}
	/* -vv: libbpf's warnings; and with LOCUS_BPF_VERIFIER_STATS set, its debug output,
	 * where the kernel's verifier says what each program cost it (docs/cost.md) */
	if ((level == LIBBPF_WARN || getenv("LOCUS_BPF_VERIFIER_STATS")) && locus_verbosity > 1)
		r = msg ? fputs(msg, stderr) : vfprintf(stderr, fmt, ap);
	free(msg);
	return r;
}

/* Why the load failed: the verifier's log first (its refusal is EACCES too, as root). */
static void why_load(int e, char *err, size_t len)
{
	if (refused[0])
		snprintf(err, len, "the kernel's verifier refused %s (locus -vv shows libbpf's "
			 "log)", refused);
	else if (e == EPERM || e == EACCES)
		snprintf(err, len, "loading BPF programs is not permitted (needs root, or "
			 "CAP_BPF and CAP_PERFMON)");
	else
		snprintf(err, len, "the kernel refused the BPF programs: %s (locus -vv shows "
			 "libbpf's log)", strerror(e));
}

/* bpf_sched_open with the idle CPUs passed over kept or left out (idle). */
static struct bpf_sched *open_once(const struct bpf_sched_cfg *cfg, bool idle, char *err,
				   size_t len)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	const char *btf = cfg->btf_path ? cfg->btf_path : "/sys/kernel/btf/vmlinux";
	struct bpf_sched *b;
	size_t n;
	int e;

	if (access(btf, R_OK) < 0) {
		snprintf(err, len, "no kernel BTF at %s (a kernel without CONFIG_DEBUG_INFO_BTF)",
			 btf);
		return NULL;
	}
	if (cfg->topo->ncpus > LB_MAX_CPUS) {
		snprintf(err, len, "more than %d CPUs", LB_MAX_CPUS);
		return NULL;
	}
	/* voluntary or not from the state the scheduler read (its argument since 5.18), not
	 * from the task's state at the tracepoint, which a racing wakeup may have reset */
	if (tracepoint_args(btf, "sched_switch") < 4) {
		snprintf(err, len, "this kernel's sched_switch passes no prev_state (5.18 and later "
			 "do): voluntary and involuntary switches cannot be told apart in BPF "
			 "(--collector perf reads them from the tracepoint's format)");
		return NULL;
	}
	libbpf_set_print(no_print);
	opts.btf_custom_path = cfg->btf_path;
	if (getenv("LOCUS_BPF_VERIFIER_STATS"))
		opts.kernel_log_level = 4; /* the verifier's statistics of each program */
	b = xcalloc(1, sizeof(*b));
	b->stats_fd = -1; /* no run-time statistics until attach */
	b->topo = cfg->topo;
	b->ncpus = cfg->topo->ncpus;
	b->nposs = libbpf_num_possible_cpus();
	b->skel = locus_sched__open_opts(&opts);
	if (!b->skel || b->nposs <= 0) {
		snprintf(err, len, "cannot open the BPF object: %s", strerror(errno));
		free(b);
		return NULL;
	}
	b->skel->rodata->ncpus = b->ncpus;
	b->skel->rodata->system_wide = cfg->system_wide;
	b->skel->rodata->exclude_tgid = cfg->exclude_tgid;
	b->delay_rate = cfg->delay_rate;
	b->skel->rodata->timed_every = bpf_sched_every(cfg->delay_rate);
	/* idle CPUs: a mask per pending wakeup, up to LB_IDLE_CPUS (else not measured) */
	b->idle_words = idle && b->ncpus <= LB_IDLE_CPUS ? (b->ncpus + 63) / 64 : 0;
	b->skel->rodata->idle_words = (unsigned int)b->idle_words;
	b->mat_stride = (b->ncpus + 7) & ~7;
	b->skel->rodata->mat_stride = (unsigned int)b->mat_stride;
	n = (size_t)b->ncpus * (size_t)b->mat_stride;
	bpf_map__set_max_entries(b->skel->maps.hot, (uint32_t)b->nposs);
	bpf_map__set_max_entries(b->skel->maps.pcache, (uint32_t)b->nposs * 2 * LB_PC_WAYS);
	bpf_map__set_max_entries(b->skel->maps.wake_matrix, (uint32_t)n);
	bpf_map__set_max_entries(b->skel->maps.prev_matrix, (uint32_t)n);
	bpf_map__set_max_entries(b->skel->maps.mig_matrix, (uint32_t)n);
	/* the kernel's pair table stays at 16384 an interval: --max-pairs sizes the busiest
	 * pairs user space keeps over the session (Space-Saving) */
	if (cfg->max_pairs > 0)
		b->max_pairs = cfg->max_pairs;
	if (cfg->max_tasks > 0) {
		bpf_map__set_max_entries(b->skel->maps.seen, (uint32_t)cfg->max_tasks);
		b->max_tasks = cfg->max_tasks;
	}
	b->cpu_on = xcalloc((size_t)b->ncpus + 1, 1);
	for (int i = 0; i < cfg->ncpus; i++) {
		if (cfg->cpus[i] < 0 || cfg->cpus[i] >= b->ncpus) {
			snprintf(err, len, "CPU %d is not in the topology (0-%d)", cfg->cpus[i],
				 b->ncpus - 1);
			locus_sched__destroy(b->skel);
			free(b->cpu_on);
			free(b);
			return NULL;
		}
		b->cpu_on[cfg->cpus[i]] = 1;
	}
	b->skel->rodata->cpu_filter = cfg->cpus != NULL;
	/* IPIs asked for (--ipis: their programs cost a run more a remote wakeup) where the
	 * kernel has the tracepoints (6.5 and later): else not measured, and said */
	b->ipi = cfg->ipis && has_tracepoint(btf, "ipi_send_cpu");
	b->wake_idle = cfg->ipis && has_tracepoint(btf, "sched_wake_idle_without_ipi");
	bpf_program__set_autoload(b->skel->progs.on_ipi, b->ipi);
	bpf_program__set_autoload(b->skel->progs.on_wake_idle, b->wake_idle);
	/* renames seen: the pair caches compare names only after one; else at every wakeup */
	b->skel->rodata->renames_seen = has_tracepoint(btf, "task_rename");
	bpf_program__set_autoload(b->skel->progs.on_rename, b->skel->rodata->renames_seen);
	b->stack_every = cfg->stack_every;
	u64map_init(&b->stk_tgids);
	if (cfg->stack_every) { /* -g: the stack and counts tables sized; else one entry each */
		b->skel->rodata->stack_every = cfg->stack_every;
		bpf_map__set_max_entries(b->skel->maps.stk_ids, LB_STACK_ENTRIES);
		bpf_map__set_max_entries(b->skel->maps.stk_counts, 16384);
	}
	/* blame: the programs' flag, its tables sized; the irq programs only then */
	b->blame = cfg->blame;
	b->blame_irq = cfg->blame && has_tracepoint(btf, "irq_handler_entry") &&
		       has_tracepoint(btf, "softirq_entry");
	b->skel->rodata->lb_blame_on = cfg->blame;
	if (cfg->blame)
		bpf_map__set_max_entries(b->skel->maps.bl_culprits, LB_BL_CULPRITS);
	bpf_program__set_autoload(b->skel->progs.on_irq_entry, b->blame_irq);
	bpf_program__set_autoload(b->skel->progs.on_irq_exit, b->blame_irq);
	bpf_program__set_autoload(b->skel->progs.on_softirq_entry, b->blame_irq);
	bpf_program__set_autoload(b->skel->progs.on_softirq_exit, b->blame_irq);
	refused[0] = 0;
	if (locus_sched__load(b->skel) < 0) {
		why_load(errno, err, len);
		locus_sched__destroy(b->skel);
		free(b->cpu_on);
		free(b);
		return NULL;
	}
	for (int c = 0; c < b->ncpus; c++) {
		const struct cpu_topo *t = &cfg->topo->cpu[c];

		b->skel->bss->topo[c] = (struct lb_cpu){ t->core, cfg->topo->llc_known ? t->llc : -1,
							  t->node, t->present };
		b->skel->bss->cpu_on[c] = !cfg->cpus || b->cpu_on[c];
		if (!cfg->cpus)
			b->cpu_on[c] = 1;
	}
	if (b->idle_words)
		fill_near(b);
	b->mat_len = (n * sizeof(uint64_t) + (size_t)getpagesize() - 1) &
		     ~((size_t)getpagesize() - 1);
	{
		struct bpf_map *maps[3] = { b->skel->maps.wake_matrix, b->skel->maps.prev_matrix,
					    b->skel->maps.mig_matrix };

		for (int i = 0; i < 3; i++) {
			/* the waker's matrix written too, once the programs stop: the last
			 * wakeup each CPU made, placed then (bpf_read.c's close_flights) */
			b->mat[i] = mmap(NULL, b->mat_len, i ? PROT_READ : PROT_READ | PROT_WRITE,
					 MAP_SHARED, bpf_map__fd(maps[i]), 0);
			if (b->mat[i] == MAP_FAILED) {
				e = errno;
				b->mat[i] = NULL;
				snprintf(err, len, "cannot map the BPF matrices: %s", strerror(e));
				bpf_sched_close(b);
				return NULL;
			}
		}
	}
	/* each waker -> target cell's class in its top bits (the programs read it there) */
	for (size_t a = 0; a < (size_t)b->ncpus; a++)
		for (size_t t = 0; t < (size_t)b->ncpus; t++)
			b->mat[0][a * (size_t)b->mat_stride + t] =
				(uint64_t)bpf_cpu_class(b, a, t) << LB_MAT_CLS_SHIFT;
	b->hot_len = ((size_t)b->nposs * sizeof(struct lb_hot) + (size_t)getpagesize() - 1) &
		     ~((size_t)getpagesize() - 1);
	b->hot = mmap(NULL, b->hot_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      bpf_map__fd(b->skel->maps.hot), 0);
	if (b->hot == MAP_FAILED) {
		e = errno;
		b->hot = NULL;
		snprintf(err, len, "cannot map the BPF per-CPU lines: %s", strerror(e));
		bpf_sched_close(b);
		return NULL;
	}
	b->hot_snap = xcalloc((size_t)b->nposs, sizeof(*b->hot_snap));
	b->pcache_len = ((size_t)b->nposs * 2 * LB_PC_WAYS * sizeof(struct lb_pcache) +
			 (size_t)getpagesize() - 1) & ~((size_t)getpagesize() - 1);
	b->pcache = mmap(NULL, b->pcache_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bpf_map__fd(b->skel->maps.pcache), 0);
	if (b->pcache == MAP_FAILED) {
		e = errno;
		b->pcache = NULL;
		snprintf(err, len, "cannot map the BPF pair caches: %s", strerror(e));
		bpf_sched_close(b);
		return NULL;
	}
	b->pc_stride = (sizeof(struct lb_pcpu) + 7) & ~(size_t)7;
	b->pc = xcalloc((size_t)b->nposs, b->pc_stride);
	b->acc = xcalloc((size_t)b->nposs, b->pc_stride);
	topk_init(&b->pairk, b->max_pairs > 0 ? b->max_pairs : BPF_PAIRS_KEPT);
	return b;
}

/*
 * What this kernel lacks is left out, and said (bpf_sched_left_out); the rest loads. The idle
 * CPUs passed over walk masks in bpf_loop (5.17 and later): without it, or when the verifier
 * refuses the programs with them but takes them without, they are not measured. --blame's
 * programs need bpf_loop and bpf_map_lookup_percpu_elem (5.19): asked for, they are refused
 * with the reason (run and top then stream, where blame is split in user space).
 */
struct bpf_sched *bpf_sched_open(const struct bpf_sched_cfg *cfg, char *err, size_t len)
{
	const char *btf = cfg->btf_path ? cfg->btf_path : "/sys/kernel/btf/vmlinux";
	bool loop = access(btf, R_OK) < 0 || has_helper(btf, "loop");
	struct bpf_sched *b;
	char first[320];

	if (cfg->blame && (!loop || !has_helper(btf, "map_lookup_percpu_elem"))) {
		snprintf(err, len, "blame in BPF needs bpf_loop and bpf_map_lookup_percpu_elem "
			 "(kernels 5.19 and later): this kernel lacks %s",
			 loop ? "bpf_map_lookup_percpu_elem" : "bpf_loop");
		return NULL;
	}
	b = open_once(cfg, loop, first, sizeof(first));
	if (b || !loop || !refused[0]) {
		if (b && !loop && b->ncpus <= LB_IDLE_CPUS)
			snprintf(b->left_out, sizeof(b->left_out), "idle CPUs passed over (this "
				 "kernel has no bpf_loop: 5.17 and later)");
		if (!b)
			snprintf(err, len, "%s", first);
		return b;
	}
	b = open_once(cfg, false, err, len); /* the verifier refused: try without them */
	if (!b) {
		snprintf(err, len, "%s", first);
		return NULL;
	}
	if (b->ncpus <= LB_IDLE_CPUS)
		snprintf(b->left_out, sizeof(b->left_out), "idle CPUs passed over (with them, %s)",
			 first);
	return b;
}

const char *bpf_sched_left_out(const struct bpf_sched *b)
{
	return b->left_out;
}

/* Follow a task: its slot, or its task storage when another task holds the slot. */
int bpf_sched_track(struct bpf_sched *b, pid_t tid, char *err, size_t len)
{
	struct lb_tstate st = { 0 }, cur;
	uint32_t k = (uint32_t)tid & (LB_SLOTS - 1);
	int slots = bpf_map__fd(b->skel->maps.slots), tgid = tid, fd, e = 0;

	st.st.tid = st.st.pid = tid;
	st.tracked = st.known = 1;
	st.waker_cpu = st.prev_cpu = st.target_cpu = st.last_cpu = -1;
	if (bpf_map_lookup_elem(slots, &k, &cur) == 0 && (!cur.owner || cur.owner == tid)) {
		st.owner = tid;
		st.overflow = cur.overflow;
		if (bpf_map_update_elem(slots, &k, &st, BPF_ANY) < 0)
			e = errno;
	} else {
		fd = (int)syscall(SYS_pidfd_open, tid, 0);
		if (fd < 0)
			fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
		if (fd < 0) {
			snprintf(err, len, "cannot follow task %d: %s", (int)tid, strerror(errno));
			return -1;
		}
		cur.overflow = 1; /* the programs look in task storage for this index */
		if (bpf_map_update_elem(slots, &k, &cur, BPF_ANY) < 0 ||
		    bpf_map_update_elem(bpf_map__fd(b->skel->maps.tasks), &fd, &st, BPF_ANY) < 0)
			e = errno;
		close(fd);
	}
	if (!e && bpf_map_update_elem(bpf_map__fd(b->skel->maps.seen), &tid, &tgid, BPF_ANY) < 0)
		e = errno;
	if (e) {
		snprintf(err, len, "cannot follow task %d: %s", (int)tid, strerror(e));
		return -1;
	}
	return 0;
}

/* LOCUS_BENCH_PAUSE's command (common/bench_pause.h): the programs off or on again. */
static int pause_set(void *ctx, bool on)
{
	struct bpf_sched *b = ctx;

	if (on && b->detached) {
		if (locus_sched__attach(b->skel) < 0)
			return -1;
	} else if (!on && !b->detached) {
		locus_sched__detach(b->skel);
	}
	b->detached = !on;
	return 0;
}

int bpf_sched_attach(struct bpf_sched *b, char *err, size_t len)
{
	b->busy0 = xcalloc((size_t)b->ncpus + 1, sizeof(uint64_t));
	b->idle0 = xcalloc((size_t)b->ncpus + 1, sizeof(uint64_t));
	bpf_cpu_times(b->ncpus, b->busy0, b->idle0);
	b->t0 = now_ns(); /* before the first statistics window: the windows lie within the span */
	bpf_cost_start(b);
	if (locus_sched__attach(b->skel) < 0) {
		snprintf(err, len, "cannot attach to the sched tracepoints: %s", strerror(errno));
		return -1;
	}
	if (b->idle_words) { /* every CPU shows whether it is idle */
		int *cpus = xcalloc((size_t)b->ncpus + 1, sizeof(int)), n = 0;

		for (int c = 0; c < b->ncpus; c++)
			if (b->cpu_on[c])
				cpus[n++] = c;
		visit_cpus(cpus, n);
		free(cpus);
	}
	b->pause = bench_pause_start(pause_set, b);
	return 0;
}

void bpf_sched_detach(struct bpf_sched *b)
{
	if (!b)
		return;
	bench_pause_stop(b->pause);
	b->pause = NULL;
	locus_sched__detach(b->skel);
	bpf_cost_stop(b);
	/* the CPUs' time over the same span as the programs counted */
	b->busy1 = xcalloc((size_t)b->ncpus + 1, sizeof(uint64_t));
	b->idle1 = xcalloc((size_t)b->ncpus + 1, sizeof(uint64_t));
	bpf_cpu_times(b->ncpus, b->busy1, b->idle1);
	b->t_end = now_ns();
}
void bpf_sched_close(struct bpf_sched *b)
{
	if (!b)
		return;
	bench_pause_stop(b->pause);
	for (int i = 0; i < 3; i++)
		if (b->mat[i])
			munmap(b->mat[i], b->mat_len);
	if (b->hot)
		munmap(b->hot, b->hot_len);
	if (b->pcache)
		munmap(b->pcache, b->pcache_len);
	free(b->hot_snap);
	bpf_cost_stop(b);
	locus_sched__destroy(b->skel);
	free(b->pc);
	free(b->acc);
	free(b->pairs);
	topk_release(&b->pairk);
	task_top_release(&b->retired);
	free(b->busy0);
	free(b->idle0);
	free(b->busy1);
	free(b->idle1);
	free(b->cpu_on);
	for (int i = 0; i < b->nsmaps; i++)
		free(b->smaps[i].path);
	free(b->smaps);
	u64map_release(&b->stk_tgids);
	free(b);
}

#endif
