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
#include "bpf/sched_bpf.h"
#include "sched.skel.h" /* build/bpf: the skeleton, or a note that there is none */

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

void bpf_sched_close(struct bpf_sched *b)
{
}

#else

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

struct bpf_sched {
	struct locus_sched *skel;
	const struct topology *topo;
	int ncpus;		/* the topology's */
	int nposs;		/* possible CPUs: per-CPU map values */
	uint64_t *mat[3];	/* wake, prev, mig: mapped */
	size_t mat_len;
	struct lb_pcpu *pc;	/* nposs values */
	size_t pc_stride;
	uint64_t t0;		/* CLOCK_MONOTONIC (the kernel's ktime) at attach */
	uint64_t t_end;		/* at detach, or 0 */
	uint64_t *busy0, *idle0;/* /proc/stat per CPU at attach, ns */
	long delay_rate;	/* the configured timing limit */
};

/* Busy and idle time of each CPU from /proc/stat, in ns (USER_HZ ticks). */
static void cpu_times(int ncpus, uint64_t *busy, uint64_t *idle)
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

static int no_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && locus_verbosity > 1)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static void why_load(int e, char *err, size_t len)
{
	if (e == EPERM || e == EACCES)
		snprintf(err, len, "loading BPF programs is not permitted (needs root, or "
			 "CAP_BPF and CAP_PERFMON)");
	else
		snprintf(err, len, "the kernel refused the BPF programs: %s (locus -vv shows "
			 "libbpf's log)", strerror(e));
}

struct bpf_sched *bpf_sched_open(const struct bpf_sched_cfg *cfg, char *err, size_t len)
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
	libbpf_set_print(no_print);
	opts.btf_custom_path = cfg->btf_path;
	b = xcalloc(1, sizeof(*b));
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
	if (cfg->delay_rate > 0) /* per window of LB_WINDOW_MS */
		b->skel->rodata->timed_per_window =
			(unsigned int)(cfg->delay_rate * LB_WINDOW_MS / 1000 ?: 1);
	n = (size_t)b->ncpus * (size_t)b->ncpus;
	bpf_map__set_max_entries(b->skel->maps.wake_matrix, (uint32_t)n);
	bpf_map__set_max_entries(b->skel->maps.prev_matrix, (uint32_t)n);
	bpf_map__set_max_entries(b->skel->maps.mig_matrix, (uint32_t)n);
	if (getenv("LOCUS_BPF_PAIR_TABLE")) { /* tests: a small table, to see drops counted */
		long pairs = atol(getenv("LOCUS_BPF_PAIR_TABLE"));

		if (pairs > 0 && pairs <= 16384)
			bpf_map__set_max_entries(b->skel->maps.pairs, (uint32_t)pairs);
	}
	if (locus_sched__load(b->skel) < 0) {
		why_load(errno, err, len);
		locus_sched__destroy(b->skel);
		free(b);
		return NULL;
	}
	for (int c = 0; c < b->ncpus; c++) {
		const struct cpu_topo *t = &cfg->topo->cpu[c];

		b->skel->bss->topo[c] = (struct lb_cpu){ t->core, cfg->topo->llc_known ? t->llc : -1,
							  t->node, t->present };
	}
	b->mat_len = (n * sizeof(uint64_t) + (size_t)getpagesize() - 1) &
		     ~((size_t)getpagesize() - 1);
	{
		struct bpf_map *maps[3] = { b->skel->maps.wake_matrix, b->skel->maps.prev_matrix,
					    b->skel->maps.mig_matrix };

		for (int i = 0; i < 3; i++) {
			b->mat[i] = mmap(NULL, b->mat_len, PROT_READ, MAP_SHARED,
					 bpf_map__fd(maps[i]), 0);
			if (b->mat[i] == MAP_FAILED) {
				e = errno;
				b->mat[i] = NULL;
				snprintf(err, len, "cannot map the BPF matrices: %s", strerror(e));
				bpf_sched_close(b);
				return NULL;
			}
		}
	}
	b->pc_stride = (sizeof(struct lb_pcpu) + 7) & ~(size_t)7;
	b->pc = xcalloc((size_t)b->nposs, b->pc_stride);
	return b;
}

/* Follow a task: its slot, or its task storage when another task holds the slot. */
int bpf_sched_track(struct bpf_sched *b, pid_t tid, char *err, size_t len)
{
	struct lb_tstate st = { 0 }, cur;
	uint32_t k = (uint32_t)tid & (LB_SLOTS - 1);
	int slots = bpf_map__fd(b->skel->maps.slots), tgid = tid, fd, e = 0;

	st.st.tid = st.st.pid = tid;
	st.tracked = st.known = 1;
	st.waker_cpu = st.prev_cpu = st.target_cpu = st.pend_waker = -1;
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

int bpf_sched_attach(struct bpf_sched *b, char *err, size_t len)
{
	b->busy0 = xcalloc((size_t)b->ncpus + 1, sizeof(uint64_t));
	b->idle0 = xcalloc((size_t)b->ncpus + 1, sizeof(uint64_t));
	cpu_times(b->ncpus, b->busy0, b->idle0);
	b->t0 = now_ns();
	if (locus_sched__attach(b->skel) < 0) {
		snprintf(err, len, "cannot attach to the sched tracepoints: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void bpf_sched_detach(struct bpf_sched *b)
{
	if (!b)
		return;
	locus_sched__detach(b->skel);
	b->t_end = now_ns();
}

static const struct lb_pcpu *pcpu_of(const struct bpf_sched *b, int i)
{
	return (const struct lb_pcpu *)(const void *)((const char *)b->pc +
						       (size_t)i * b->pc_stride);
}

/* A log2 bucket's counts into a log-linear histogram, at the bucket's middle. */
static void add_log2(struct hist *h, const unsigned long long *buckets)
{
	for (int k = 0; k < LB_BUCKETS; k++)
		if (buckets[k])
			hist_add_n(h, k == 0 ? 0 : (1ull << k) + (1ull << k) / 2, buckets[k]);
}

static void read_pairs(struct bpf_sched *b, struct sched_results *r)
{
	int fd = bpf_map__fd(b->skel->maps.pairs), n = 0, cap = 256;
	uint64_t key, next, *prev = NULL;
	struct lb_pair v;

	free(r->pairs);
	r->pairs = xcalloc((size_t)cap, sizeof(*r->pairs));
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &v) < 0 || !v.count)
			continue;
		if (n == cap) {
			cap *= 2;
			r->pairs = xrealloc(r->pairs, (size_t)cap * sizeof(*r->pairs));
		}
		memset(&r->pairs[n], 0, sizeof(r->pairs[n]));
		r->pairs[n].waker_tid = (int32_t)(key >> 32);
		r->pairs[n].wakee_tid = (int32_t)(uint32_t)key;
		memcpy(r->pairs[n].wakee_comm, v.wakee_comm, TASK_COMM_LEN);
		r->pairs[n].wakee_comm[TASK_COMM_LEN - 1] = '\0';
		r->pairs[n].count = v.count;
		for (int c = 0; c < LOC_NR; c++)
			r->pairs[n].by_class[c] = v.by_class[c];
		n++;
	}
	r->npairs = n;
	qsort(r->pairs, (size_t)n, sizeof(*r->pairs), sched_pair_cmp);
}

/* A live task's state from its slot or its task storage (looked up by pidfd), and its comm. */
static bool live_task(struct bpf_sched *b, int tid, struct lb_tstate *out)
{
	uint32_t k = (uint32_t)tid & (LB_SLOTS - 1);
	char path[64], comm[32];
	int fd;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.slots), &k, out) < 0 ||
	    out->owner != tid) {
		fd = (int)syscall(SYS_pidfd_open, tid, 0);
		if (fd < 0)
			fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
		if (fd < 0)
			return false;
		if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.tasks), &fd, out) < 0) {
			close(fd);
			return false;
		}
		close(fd);
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	if (read_text_file(path, comm, sizeof(comm)) == 0)
		snprintf(out->st.comm, sizeof(out->st.comm), "%s", comm);
	return true;
}

/* Wakeups a live task holds back from the pair table (its current waker's batch). */
struct pending {
	int waker, wakee;
	uint64_t count, by_class[LOC_NR];
	char comm[TASK_COMM_LEN];
};

static void read_tasks(struct bpf_sched *b, struct sched_results *r, struct pending **pend,
		       int *npend)
{
	int seen = bpf_map__fd(b->skel->maps.seen), done = bpf_map__fd(b->skel->maps.done);
	int key, next, *prev = NULL, n = 0, cap = 64, np = 0;
	struct lb_tstate ts;
	struct lb_task t;

	free(r->tasks);
	r->tasks = xcalloc((size_t)cap, sizeof(*r->tasks));
	*pend = xcalloc((size_t)cap, sizeof(**pend));
	while (bpf_map_get_next_key(seen, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(done, &key, &t) < 0) {
			if (!live_task(b, key, &ts))
				continue;
			t = ts.st;
			if (ts.pend_count) {
				struct pending *pe = &(*pend)[np++];

				pe->waker = ts.pend_waker;
				pe->wakee = key;
				pe->count = ts.pend_count;
				for (int c = 0; c < LOC_NR; c++)
					pe->by_class[c] = ts.pend_class[c];
				memcpy(pe->comm, t.comm, TASK_COMM_LEN);
			}
		}
		if (n == cap) {
			cap *= 2;
			r->tasks = xrealloc(r->tasks, (size_t)cap * sizeof(*r->tasks));
			*pend = xrealloc(*pend, (size_t)cap * sizeof(**pend));
		}
		memset(&r->tasks[n], 0, sizeof(r->tasks[n]));
		r->tasks[n].tid = t.tid;
		r->tasks[n].pid = t.pid;
		memcpy(r->tasks[n].comm, t.comm, TASK_COMM_LEN);
		r->tasks[n].comm[TASK_COMM_LEN - 1] = '\0';
		r->tasks[n].wakeups = t.wakeups;
		r->tasks[n].migrations = t.migrations;
		r->tasks[n].voluntary = t.voluntary;
		r->tasks[n].involuntary = t.involuntary;
		r->tasks[n].run_ns = t.run_ns;
		r->tasks[n].delays = t.delays;
		r->tasks[n].delay_sum_ns = t.delay_sum_ns;
		n++;
	}
	r->ntasks = n;
	*npend = np;
	qsort(r->tasks, (size_t)n, sizeof(*r->tasks), sched_task_cmp);
}

/* The pairs' held-back wakeups added, and the top pairs' wakers named. */
static void finish_pairs(struct sched_results *r, const struct pending *pend, int npend)
{
	for (int i = 0; i < npend; i++) {
		struct pair_stat *p = NULL;

		for (int k = 0; k < r->npairs && !p; k++)
			if (r->pairs[k].waker_tid == pend[i].waker && r->pairs[k].wakee_tid == pend[i].wakee)
				p = &r->pairs[k];
		if (!p) {
			r->pairs = xrealloc(r->pairs, (size_t)(r->npairs + 1) * sizeof(*r->pairs));
			p = &r->pairs[r->npairs++];
			memset(p, 0, sizeof(*p));
			p->waker_tid = pend[i].waker;
			p->wakee_tid = pend[i].wakee;
			memcpy(p->wakee_comm, pend[i].comm, TASK_COMM_LEN);
		}
		p->count += pend[i].count;
		for (int c = 0; c < LOC_NR; c++)
			p->by_class[c] += pend[i].by_class[c];
	}
	qsort(r->pairs, (size_t)r->npairs, sizeof(*r->pairs), sched_pair_cmp);
	for (int k = 0; k < r->npairs && k < 100; k++) {
		struct pair_stat *p = &r->pairs[k];
		char path[64], comm[32];

		if (p->waker_comm[0] || p->waker_tid <= 0)
			continue;
		for (int i = 0; i < r->ntasks && !p->waker_comm[0]; i++)
			if (r->tasks[i].tid == p->waker_tid)
				memcpy(p->waker_comm, r->tasks[i].comm, TASK_COMM_LEN);
		snprintf(path, sizeof(path), "/proc/%d/comm", p->waker_tid);
		if (!p->waker_comm[0] && read_text_file(path, comm, sizeof(comm)) == 0)
			snprintf(p->waker_comm, sizeof(p->waker_comm), "%s", comm);
	}
}

static const int ev_of[EV_TYPE_NR] = {
	[EV_WAKING] = LB_EV_WAKING, [EV_WAKEUP] = -1, [EV_WAKEUP_NEW] = LB_EV_WAKEUP_NEW,
	[EV_SWITCH] = LB_EV_SWITCH, [EV_MIGRATE] = LB_EV_MIGRATE, [EV_FORK] = LB_EV_FORK,
	[EV_EXIT] = LB_EV_EXIT, [EV_LOST] = -1, [EV_MEM] = -1,
};

void bpf_sched_read(struct bpf_sched *b, struct sched_results *r, bool tasks)
{
	uint32_t zero = 0;
	size_t n = (size_t)b->ncpus;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.pcpu), &zero, b->pc) < 0)
		return;
	memcpy(r->wake_matrix, b->mat[0], n * n * sizeof(uint64_t));
	memcpy(r->prev_matrix, b->mat[1], n * n * sizeof(uint64_t));
	memcpy(r->mig_matrix, b->mat[2], n * n * sizeof(uint64_t));
	r->waking_source = true;
	r->first_ns = b->t0;
	r->last_ns = b->t_end ? b->t_end : now_ns();
	r->wakeups = r->wakeups_placed = r->wakeups_running = r->wakeups_new = 0;
	r->moved_before_run = r->migrations = r->voluntary = r->involuntary = 0;
	r->pairs_dropped = r->delays_untimed = 0;
	r->delay_rate = b->delay_rate;
	memset(r->by_class, 0, sizeof(r->by_class));
	memset(r->prev_by_class, 0, sizeof(r->prev_by_class));
	memset(r->mig_by_class, 0, sizeof(r->mig_by_class));
	memset(r->placement, 0, sizeof(r->placement));
	memset(r->events, 0, sizeof(r->events));
	memset(r->cpu, 0, n * sizeof(*r->cpu));
	hist_init(&r->delay);
	for (int c = 0; c < LOC_NR; c++)
		hist_init(&r->delay_class[c]);
	for (int i = 0; i < b->nposs; i++) {
		const struct lb_pcpu *p = pcpu_of(b, i);

		r->wakeups += p->n[LB_WAKEUPS];
		r->wakeups_placed += p->n[LB_PLACED];
		r->wakeups_running += p->n[LB_RUNNING];
		r->wakeups_new += p->n[LB_NEW];
		r->moved_before_run += p->n[LB_MOVED];
		r->migrations += p->n[LB_MIGRATIONS];
		r->pairs_dropped += p->n[LB_PAIRS_DROPPED];
		r->delays_untimed += p->n[LB_UNTIMED];
		r->voluntary += p->voluntary;
		r->involuntary += p->involuntary;
		for (int e = 0; e < EV_TYPE_NR; e++)
			if (ev_of[e] >= 0)
				r->events[e] += p->n[ev_of[e]];
		for (int c = 0; c < LOC_NR; c++) {
			r->by_class[c] += p->by_class[c];
			r->prev_by_class[c] += p->prev_by_class[c];
			r->mig_by_class[c] += p->mig_by_class[c];
			add_log2(&r->delay_class[c], p->delay_class[c]);
		}
		for (int pl = 0; pl < PLACE_NR; pl++)
			r->placement[pl] += p->placement[pl];
		add_log2(&r->delay, p->delay);
		if (i < b->ncpus) {
			struct cpu_stat *cs = &r->cpu[i];

			cs->voluntary = p->voluntary;
			cs->involuntary = p->involuntary;
			cs->tracked_ns = p->tracked_ns;
			if (!r->no_cpu_delays) {
				hist_init(&r->delay_cpu[i]);
				add_log2(&r->delay_cpu[i], p->delay);
			}
		}
	}
	{
		uint64_t *busy = xcalloc(n + 1, sizeof(uint64_t)), *idle = xcalloc(n + 1, 8);

		/* CPU time from the kernel's own accounting, over the session (tick resolution) */
		cpu_times(b->ncpus, busy, idle);
		for (size_t i = 0; i < n; i++) {
			r->cpu[i].busy_ns = busy[i] > b->busy0[i] ? busy[i] - b->busy0[i] : 0;
			r->cpu[i].idle_ns = idle[i] > b->idle0[i] ? idle[i] - b->idle0[i] : 0;
		}
		free(busy);
		free(idle);
	}
	/* row and column sums of the matrices: wakeups sent and received, migrations */
	for (size_t a = 0; a < n; a++)
		for (size_t c = 0; c < n; c++) {
			r->cpu[a].wakeups_from += r->wake_matrix[a * n + c];
			r->cpu[c].wakeups_to += r->wake_matrix[a * n + c];
			r->cpu[a].migrations_out += r->mig_matrix[a * n + c];
			r->cpu[c].migrations_in += r->mig_matrix[a * n + c];
		}
	read_pairs(b, r);
	if (tasks) {
		struct pending *pend = NULL;
		int npend = 0;

		read_tasks(b, r, &pend, &npend);
		finish_pairs(r, pend, npend);
		free(pend);
	} else {
		finish_pairs(r, NULL, 0);
	}
}

uint64_t bpf_sched_events(struct bpf_sched *b)
{
	uint32_t zero = 0;
	uint64_t sum = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.pcpu), &zero, b->pc) < 0)
		return 0;
	for (int i = 0; i < b->nposs; i++)
		for (int e = LB_EV_WAKING; e <= LB_EV_EXIT; e++)
			sum += pcpu_of(b, i)->n[e];
	return sum;
}

void bpf_sched_close(struct bpf_sched *b)
{
	if (!b)
		return;
	for (int i = 0; i < 3; i++)
		if (b->mat[i])
			munmap(b->mat[i], b->mat_len);
	locus_sched__destroy(b->skel);
	free(b->pc);
	free(b->busy0);
	free(b->idle0);
	free(b);
}

#endif
