/* bpf_read.c - the BPF collector's maps read into results: per-CPU halves read and reset. */
#define _GNU_SOURCE
#include "bpf_sched.h"

#include "bpf/sched_bpf.h"
#include "sched.skel.h" /* build/bpf: the skeleton, or a note that there is none */

_Static_assert(LB_SAME_CPU == LOC_SAME_CPU && LB_SMT == LOC_SMT && LB_LLC == LOC_LLC &&
		       LB_NODE == LOC_NODE && LB_REMOTE == LOC_REMOTE && LB_CLASSES == LOC_NR,
	       "the BPF program's locality classes are enum locality's");

#ifndef LOCUS_NO_BPF

#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../common/util.h"
#include "bpf_sched_int.h"
#include "procfs.h"

_Static_assert((int)LB_EV_WAKING == (int)SM_NR, "the BPF counters start with the measures, in order");
_Static_assert(sizeof(struct lb_hot) == 128 && offsetof(struct lb_hot, wakeups) == 64,
	       "the hot counters: every event's line, then every wakeup's");
_Static_assert(offsetof(struct lb_tstate, on) == 64 && offsetof(struct lb_tstate, timed) < 128 &&
		       offsetof(struct lb_tstate, idle_watching) == 128 &&
		       offsetof(struct lb_tstate, idle_at_wake) == 192,
	       "a task's lines: its identity, its switches' (and whether a timed wakeup waits), "
	       "its timed wakeup's");
_Static_assert(sizeof(struct lb_pcache) == 64, "a pair cache entry is a line");
_Static_assert(LB_CLASSES <= 1 << (64 - LB_MAT_CLS_SHIFT), "a class fits a cell's top bits");

/* CPU i's value in a per-CPU lookup's buffer */
static struct lb_pcpu *pcpu_of(const struct bpf_sched *b, struct lb_pcpu *base, int i)
{
	return (struct lb_pcpu *)(void *)((char *)base + (size_t)i * b->pc_stride);
}

/* Flip the epoch; return once no program can still add to the old half. */
static uint32_t flip(struct bpf_sched *b, struct sched_results *r)
{
	size_t n = (size_t)b->ncpus, st = (size_t)b->mat_stride;
	uint32_t old = __atomic_fetch_add(&b->skel->bss->glob.epoch, 1, __ATOMIC_SEQ_CST) & 1;

	/*
	 * The matrices are live: copy them into the results now, with the flip, not after the
	 * grace period and the pair table's fold (tens of ms on a busy machine, and varying):
	 * a snapshot's per-CPU figures then cover the same interval as its counters.
	 */
	for (size_t t = 0; t < n; t++) /* prev and mig's row t: the counts into CPU t */
		for (size_t a = 0; a < n; a++) {
			r->wake_matrix[t * n + a] = b->mat[0][t * st + a] & LB_MAT_COUNT;
			r->prev_matrix[a * n + t] = b->mat[1][t * st + a];
			r->mig_matrix[a * n + t] = b->mat[2][t * st + a];
		}
	/* the hot lines too: totals since attach, each CPU's written by it alone */
	memcpy(b->hot_snap, b->hot, (size_t)b->nposs * sizeof(*b->hot));

	/* the programs run inside rcu_read_lock: a grace period outlasts them */
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) < 0)
		usleep(20000); /* nohz_full has no global barrier; a program takes microseconds */
	return old;
}

/* A pair's wakeups of one interval, into its slot or the filter (topk.h). */
static void add_pair(struct bpf_sched *b, uint64_t key, const struct lb_pair *v)
{
	bool fresh;
	int s = topk_add(&b->pairk, key, v->count, &fresh);
	struct pair_acc *p;

	if (s < 0)
		return;
	if (s >= b->cap_pairs) {
		b->cap_pairs = b->cap_pairs ? 2 * b->cap_pairs : 256;
		if (b->cap_pairs > b->pairk.cap)
			b->cap_pairs = b->pairk.cap;
		b->pairs = xrealloc(b->pairs, (size_t)b->cap_pairs * sizeof(*b->pairs));
	}
	p = &b->pairs[s];
	if (fresh) { /* new, or taken from the pair with the fewest wakeups */
		memset(p, 0, sizeof(*p));
		p->key = key;
	}
	/* the names as at the pair's last wakeups: the reads come in time order, and within
	 * one the entry of the latest rename generation names it (lb_pair) */
	if (fresh || p->drain != b->drains || LB_GEN_GE((uint32_t)v->gen, (uint32_t)p->v.gen)) {
		memcpy(p->v.wakee_comm, v->wakee_comm, sizeof(p->v.wakee_comm));
		memcpy(p->v.waker_comm, v->waker_comm, sizeof(p->v.waker_comm));
		p->v.gen = v->gen;
		p->drain = b->drains;
	}
	for (int c = 0; c < LB_CLASSES; c++)
		p->v.by_class[c] += v->by_class[c];
}

/* One half of the pair table into the totals, then emptied. */
static void fold_pairs(struct bpf_sched *b, int fd)
{
	uint64_t key, next, *prev = NULL, *keys = NULL;
	size_t n = 0, cap = 0;
	struct lb_pair v;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[n++] = key;
		if (bpf_map_lookup_elem(fd, &key, &v) == 0 && v.count)
			add_pair(b, key, &v);
	}
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(fd, &keys[i]);
	free(keys);
}

static unsigned long long min1_of(unsigned long long a, unsigned long long b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

static unsigned long long max_of(unsigned long long a, unsigned long long b)
{
	return a > b ? a : b;
}

/* One half's aggregate into the totals: counts add, smallest and largest delays do not. */
static void fold_pcpu(struct lb_pcpu *acc, const struct lb_pcpu *v)
{
	size_t words = sizeof(struct lb_pcpu) / sizeof(unsigned long long);
	unsigned long long *a = (unsigned long long *)acc;
	const unsigned long long *w = (const unsigned long long *)v;
	struct lb_pcpu keep = *acc;

	for (size_t i = 0; i < words; i++)
		a[i] += w[i];
	acc->delay_min1 = min1_of(keep.delay_min1, v->delay_min1);
	acc->delay_max = max_of(keep.delay_max, v->delay_max);
	for (int c = 0; c < LB_CLASSES; c++) {
		acc->class_min1[c] = min1_of(keep.class_min1[c], v->class_min1[c]);
		acc->class_max[c] = max_of(keep.class_max[c], v->class_max[c]);
	}
}

/*
 * A CPU's hot lines (totals since attach) into the results: the counts every event and
 * every wakeup touch; the untimed wakeups (each wakeup counted on the waker's CPU, timed
 * or not); the IPI wakeups, the sums of their classes.
 */
static void add_hot(struct sched_results *r, struct cpu_stat *cs, const struct lb_hot *h)
{
	r->events[EV_WAKING] += h->waking;
	r->events[EV_SWITCH] += h->switches;
	r->wakeups += h->wakeups;
	r->voluntary += h->voluntary;
	r->involuntary += h->involuntary;
	r->placement[PLACE_PULLED] += h->pulled;
	r->delays_untimed += h->wakeups > h->timed ? h->wakeups - h->timed : 0;
	for (int c = 0; c < LB_CLASSES; c++) {
		r->ipi_class[c] += h->ipi_class[c];
		r->wakeups_ipi += h->ipi_class[c];
	}
	if (!cs)
		return;
	cs->voluntary += h->voluntary;
	cs->involuntary += h->involuntary;
	cs->tracked_ns += h->tracked_ns;
}

/* A CPU's pair cache of one half into the totals, then emptied (no program adds to it). */
static void fold_pcache(struct bpf_sched *b, int cpu, uint32_t half)
{
	struct lb_pcache *e = &b->pcache[((size_t)cpu * 2 + half) * LB_PC_WAYS];

	for (int w = 0; w < LB_PC_WAYS; w++, e++) {
		struct lb_pair v = { .count = e->count, .gen = LB_PC_GEN_OF(e->key) };

		if (!e->count)
			continue;
		for (int c = 0; c < LB_CLASSES; c++)
			v.by_class[c] = e->by_class[c];
		memcpy(v.waker_comm, e->waker_comm, sizeof(v.waker_comm));
		memcpy(v.wakee_comm, e->wakee_comm, sizeof(v.wakee_comm));
		add_pair(b, e->key & LB_PC_TIDS, &v);
		memset(e, 0, sizeof(*e));
	}
}

/* Read and reset: the old half of the per-CPU aggregate and of the pairs into the totals. */
static void drain(struct bpf_sched *b, struct sched_results *r)
{
	int fd = bpf_map__fd(b->skel->maps.pcpu);
	uint32_t half = flip(b, r);

	b->drains++;

	if (bpf_map_lookup_elem(fd, &half, b->pc) == 0) {
		for (int i = 0; i < b->nposs; i++)
			fold_pcpu(pcpu_of(b, b->acc, i), pcpu_of(b, b->pc, i));
		memset(b->pc, 0, (size_t)b->nposs * b->pc_stride);
		bpf_map_update_elem(fd, &half, b->pc, BPF_ANY);
	}
	/* the table first: what a CPU's cache holds of a pair is newer than what that CPU
	 * flushed (an entry leaves its cache for a newer one, or its own renamed), so of one
	 * generation the caches' names win */
	fold_pairs(b, bpf_map__fd(half ? b->skel->maps.pairs1 : b->skel->maps.pairs0));
	for (int i = 0; i < b->nposs; i++)
		fold_pcache(b, i, half);
}

_Static_assert(LB_SUB_BITS == HIST_SUB_BITS && LB_BUCKETS <= HIST_BUCKETS,
	       "the programs' delay buckets are the histogram's");

/* This CPU's delays, every class, into h: the buckets, exact min, max and sum. */
static void add_delays(struct hist *h, const struct lb_pcpu *p)
{
	if (p->delay_min1)
		hist_add_buckets(h, p->delay, LB_BUCKETS, p->delay_min1 - 1, p->delay_max,
				 (double)p->delay_sum_ns);
}

static void add_class_delays(struct hist *h, const struct lb_pcpu *p, int c)
{
	if (p->class_min1[c])
		hist_add_buckets(h, p->delay_class[c], LB_BUCKETS, p->class_min1[c] - 1,
				 p->class_max[c], (double)p->class_sum_ns[c]);
}

/* The pairs read so far, the busiest first. */
static void read_pairs(struct bpf_sched *b, struct sched_results *r)
{
	free(r->pairs);
	r->pairs = xcalloc((size_t)b->pairk.n + 1, sizeof(*r->pairs));
	for (int i = 0; i < b->pairk.n; i++) {
		const struct pair_acc *p = &b->pairs[i];
		struct pair_stat *s = &r->pairs[i];

		s->waker_tid = (int32_t)(p->key >> 32);
		s->wakee_tid = (int32_t)(uint32_t)p->key;
		memcpy(s->wakee_comm, p->v.wakee_comm, TASK_COMM_LEN);
		s->wakee_comm[TASK_COMM_LEN - 1] = '\0';
		memcpy(s->waker_comm, p->v.waker_comm, TASK_COMM_LEN);
		s->waker_comm[TASK_COMM_LEN - 1] = '\0';
		if (s->waker_tid == 0) /* every CPU's idle task: named as the stream names it */
			snprintf(s->waker_comm, sizeof(s->waker_comm), "swapper");
		s->count = b->pairk.slot[i].count;
		s->over = b->pairk.slot[i].err;
		for (int c = 0; c < LOC_NR; c++)
			s->by_class[c] = p->v.by_class[c];
	}
	r->npairs = b->pairk.n;
	r->pairs_kept = b->pairk.cap;
	r->pairs_bound = topk_bound(&b->pairk);
	r->pairs_evicted = b->pairk.evicted;
	r->pairs_wakeups = b->pairk.total;
	r->pairs_filtered = b->pairk.filtered;
	qsort(r->pairs, (size_t)r->npairs, sizeof(*r->pairs), sched_pair_cmp);
}

/* A live task's state from its slot or its task storage (looked up by pidfd), and its comm. */
static bool live_task(struct bpf_sched *b, int tid, struct lb_tstate *out)
{
	uint32_t k = (uint32_t)tid & (LB_SLOTS - 1);
	char comm[32];
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
	if (proc_comm(tid, comm, sizeof(comm)) == 0)
		snprintf(out->st.comm, sizeof(out->st.comm), "%s", comm);
	return true;
}

static void task_of(struct task_stat *s, const struct lb_task *t)
{
	memset(s, 0, sizeof(*s));
	s->tid = t->tid;
	s->pid = t->pid;
	memcpy(s->comm, t->comm, TASK_COMM_LEN);
	s->comm[TASK_COMM_LEN - 1] = '\0';
	s->wakeups = t->wakeups;
	s->migrations = t->migrations;
	s->voluntary = t->voluntary;
	s->involuntary = t->involuntary;
	s->run_ns = t->run_ns;
	s->delays = t->delays;
	s->delay_sum_ns = t->delay_sum_ns;
}

void bpf_sched_retire(struct bpf_sched *b)
{
	int seen = bpf_map__fd(b->skel->maps.seen), done = bpf_map__fd(b->skel->maps.done);
	int key, next, *prev = NULL, *keys = NULL;
	size_t n = 0, cap = 0;
	struct lb_task t;
	struct task_stat st;

	while (bpf_map_get_next_key(done, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(done, &key, &t) < 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[n++] = key;
		task_of(&st, &t);
		task_top_offer(&b->retired, &st);
	}
	for (size_t i = 0; i < n; i++) { /* after the walk: deleting during it restarts it */
		bpf_map_delete_elem(done, &keys[i]);
		bpf_map_delete_elem(seen, &keys[i]);
	}
	free(keys);
}

/*
 * A task not in `done` when looked up: its slot. lb_retire() writes `done` before it frees
 * the slot, so a task that retired between the two reads (its slot gone, or read half
 * cleared) is in `done` now with its final totals: looked up again after.
 */
static bool live_row(struct bpf_sched *b, int done, int key, struct lb_task *t)
{
	struct lb_tstate ts;
	bool live = live_task(b, key, &ts);

	if (bpf_map_lookup_elem(done, &key, t) == 0)
		return true;
	if (!live)
		return false;
	*t = ts.st;
	t->wakeups = ts.wakeups; /* counted in the task's own line */
	t->voluntary = ts.voluntary;
	t->involuntary = ts.involuntary;
	t->run_ns = ts.run_ns;
	return true;
}

static void read_tasks(struct bpf_sched *b, struct sched_results *r)
{
	int seen = bpf_map__fd(b->skel->maps.seen), done = bpf_map__fd(b->skel->maps.done);
	int key, next, *prev = NULL, n = 0, cap = 64;
	struct lb_task t;

	free(r->tasks);
	r->tasks = xcalloc((size_t)cap, sizeof(*r->tasks));
	while (bpf_map_get_next_key(seen, prev, &next) == 0) {
		key = next;
		prev = &key;
		if (n == cap) {
			cap *= 2;
			r->tasks = xrealloc(r->tasks, (size_t)cap * sizeof(*r->tasks));
		}
		if (bpf_map_lookup_elem(done, &key, &t) < 0 && !live_row(b, done, key, &t)) {
			r->tasks_dropped++; /* its row cannot be read: say so */
			continue;
		}
		task_of(&r->tasks[n], &t);
		n++;
	}
	r->tasks = xrealloc(r->tasks, ((size_t)n + (size_t)b->retired.n + 1) * sizeof(*r->tasks));
	for (int i = 0; i < b->retired.n; i++) {
		if (b->max_tasks && n >= b->max_tasks) {
			r->tasks_dropped++; /* as the perf collector: the table's rows are bounded */
			continue;
		}
		r->tasks[n++] = b->retired.h[i];
	}
	r->tasks_retired = b->retired.offered;
	r->tasks_retired_kept = b->retired.n;
	r->ntasks = n;
	qsort(r->tasks, (size_t)n, sizeof(*r->tasks), sched_task_cmp);
}

/* The top pairs' wakers named where the kernel had no name for them. */
static void name_pairs(struct sched_results *r)
{
	for (int k = 0; k < r->npairs && k < 100; k++) {
		struct pair_stat *p = &r->pairs[k];
		if (p->waker_comm[0] || p->waker_tid <= 0)
			continue;
		for (int i = 0; i < r->ntasks && !p->waker_comm[0]; i++)
			if (r->tasks[i].tid == p->waker_tid)
				memcpy(p->waker_comm, r->tasks[i].comm, TASK_COMM_LEN);
		if (!p->waker_comm[0])
			proc_comm(p->waker_tid, p->waker_comm, sizeof(p->waker_comm));
	}
}

static const int ev_of[EV_TYPE_NR] = {
	[EV_WAKING] = LB_EV_WAKING, [EV_WAKEUP] = -1, [EV_WAKEUP_NEW] = LB_EV_WAKEUP_NEW,
	[EV_SWITCH] = LB_EV_SWITCH, [EV_MIGRATE] = LB_EV_MIGRATE, [EV_FORK] = LB_EV_FORK,
	[EV_EXIT] = LB_EV_EXIT, [EV_IPI] = -1, [EV_WAKE_IDLE] = -1, [EV_LOST] = -1, [EV_MEM] = -1,
	[EV_COMM] = -1, [EV_IRQ_ENTRY] = -1, [EV_IRQ_EXIT] = -1, [EV_SOFTIRQ_ENTRY] = -1,
	[EV_SOFTIRQ_EXIT] = -1, [EV_SETAFFINITY] = -1, [EV_SETAFFINITY_RET] = -1,
	[EV_AFFINITY] = -1,
};

/* The programs' classify(), on the topology they were given. */
int bpf_cpu_class(const struct bpf_sched *b, size_t x, size_t y)
{
	const struct lb_cpu *p = &b->skel->bss->topo[x], *q = &b->skel->bss->topo[y];

	if (x == y)
		return LOC_SAME_CPU;
	if (p->core == q->core)
		return LOC_SMT;
	if (p->llc >= 0 && p->llc == q->llc)
		return LOC_LLC;
	if (p->node == q->node)
		return LOC_NODE;
	return LOC_REMOTE;
}

/*
 * What the programs count once a wakeup in the matrices only: the by-class tallies of
 * waker, previous and migration CPU to target, stayed (the previous CPU's diagonal) and
 * elsewhere (off it, not pulled).
 */
static void by_class_of_matrices(const struct bpf_sched *b, struct sched_results *r)
{
	size_t n = (size_t)b->ncpus;
	uint64_t moved = 0;

	for (size_t a = 0; a < n; a++)
		for (size_t t = 0; t < n; t++) {
			int c = bpf_cpu_class(b, a, t);

			r->by_class[c] += r->wake_matrix[a * n + t];
			r->wakeups_placed += r->wake_matrix[a * n + t];
			r->prev_by_class[c] += r->prev_matrix[a * n + t];
			r->mig_by_class[c] += r->mig_matrix[a * n + t];
			if (a == t)
				r->placement[PLACE_STAYED] += r->prev_matrix[a * n + t];
			else
				moved += r->prev_matrix[a * n + t];
		}
	r->placement[PLACE_ELSEWHERE] = moved > r->placement[PLACE_PULLED] ?
						moved - r->placement[PLACE_PULLED] : 0;
}

/*
 * The programs stopped: the wakeup each CPU made last, still in flight (no event there
 * since), placed as the programs place it, into the lines they would have written (the
 * waker -> target cell, pulled, its pair's class, its IPI's class). Once: each is then no
 * longer in flight.
 */
static void close_flights(struct bpf_sched *b)
{
	size_t n = (size_t)b->ncpus;

	for (size_t i = 0; i < (size_t)b->nposs && i < n; i++) {
		struct lb_hot *h = &b->hot[i];
		size_t t = (size_t)h->fl_target;
		uint32_t pair;
		int c;

		if (!h->fl_tid)
			continue;
		h->fl_tid = 0;
		if (h->fl_target < 0 || t >= n || !b->cpu_on[i])
			continue;
		c = bpf_cpu_class(b, i, t);
		b->mat[0][i * (size_t)b->mat_stride + t]++;
		if (h->fl_target != h->fl_prev && c <= LOC_LLC)
			h->pulled++;
		if (h->fl_pair & LB_FL_SENT)
			h->ipi_class[c]++;
		else if (h->fl_pair & LB_FL_POLL)
			pcpu_of(b, b->acc, (int)i)->no_ipi_class[c]++;
		pair = h->fl_pair & LB_FL_PAIR;
		if (pair && pair <= (uint32_t)b->nposs * 2 * LB_PC_WAYS && b->pcache[pair - 1].count)
			b->pcache[pair - 1].by_class[c]++;
	}
}

void bpf_sched_read(struct bpf_sched *b, struct sched_results *r, bool tasks)
{
	size_t n = (size_t)b->ncpus;

	if (b->t_end)
		close_flights(b);
	drain(b, r); /* the matrices too, with the flip */
	bpf_sched_retire(b);
	r->waking_source = true;
	r->first_ns = b->t0;
	r->last_ns = b->t_end ? b->t_end : now_ns();
	for (int m = 0; m < SM_NR; m++) /* every measure is the sum of its LB_ counter */
		*sched_measure_ptr(r, m) = 0;
	memset(r->by_class, 0, sizeof(r->by_class));
	memset(r->prev_by_class, 0, sizeof(r->prev_by_class));
	memset(r->mig_by_class, 0, sizeof(r->mig_by_class));
	memset(r->ipi_class, 0, sizeof(r->ipi_class));
	memset(r->no_ipi_class, 0, sizeof(r->no_ipi_class));
	memset(r->idle_passed_class, 0, sizeof(r->idle_passed_class));
	memset(r->idle_wait_class, 0, sizeof(r->idle_wait_class));
	memset(r->idle_closest, 0, sizeof(r->idle_closest));
	memset(r->placement, 0, sizeof(r->placement));
	memset(r->events, 0, sizeof(r->events));
	memset(r->cpu, 0, n * sizeof(*r->cpu));
	hist_init(&r->delay);
	for (int c = 0; c < LOC_NR; c++)
		hist_init(&r->delay_class[c]);
	for (int i = 0; i < b->nposs; i++) {
		const struct lb_pcpu *p = pcpu_of(b, b->acc, i);

		for (int m = 0; m < SM_NR; m++)
			*sched_measure_ptr(r, m) += p->n[m]; /* LB_<field> == SM_<field> */
		for (int e = 0; e < EV_TYPE_NR; e++)
			if (ev_of[e] >= 0)
				r->events[e] += p->n[ev_of[e]];
		for (int c = 0; c < LOC_NR; c++) {
			r->ipi_class[c] += p->ipi_class[c];
			r->no_ipi_class[c] += p->no_ipi_class[c];
			r->idle_passed_class[c] += p->idle_passed_class[c];
			r->idle_wait_class[c] += p->idle_wait_class[c];
			r->idle_closest[c] += p->idle_closest[c];
			add_class_delays(&r->delay_class[c], p, c);
		}
		for (int pl = 0; pl < PLACE_NR; pl++)
			r->placement[pl] += p->placement[pl];
		add_delays(&r->delay, p);
		if (i < b->ncpus) {
			struct cpu_stat *cs = &r->cpu[i];

			cs->voluntary = p->n[LB_voluntary];
			cs->involuntary = p->n[LB_involuntary];
			cs->tracked_ns = p->tracked_ns;
			cs->idle_passed = p->n[LB_idle_passed]; /* where they ran, as a rule their target */
			if (!r->no_cpu_delays) {
				hist_init(&r->delay_cpu[i]);
				add_delays(&r->delay_cpu[i], p);
			}
		}
		add_hot(r, i < b->ncpus ? &r->cpu[i] : NULL, &b->hot_snap[i]);
	}
	for (int c = 0; c < LOC_NR; c++) /* the programs count these by class only */
		r->wakeups_no_ipi += r->no_ipi_class[c];
	r->runs_missed = bpf_sched_runs_missed(b);
	{
		uint64_t *busy = xcalloc(n + 1, sizeof(uint64_t)), *idle = xcalloc(n + 1, 8);
		uint64_t wall;

		/*
		 * Each CPU's idle time from the kernel's own accounting (nohz: exact, in
		 * /proc/stat's 10 ms units), its busy time the session's wall time less that.
		 * /proc/stat's user + system time is sampled at the tick, charging whatever
		 * runs then: beside a ping-pong's short runs and sleeps it counted half the
		 * busy time a perf record of sched_switch saw on the same run (36-40% against
		 * 74-79%, wall less idle 74-78%), and less than the traced tasks' own runtime.
		 */
		if (b->idle1)
			memcpy(idle, b->idle1, n * sizeof(uint64_t));
		else
			bpf_cpu_times(b->ncpus, busy, idle);
		wall = (b->t_end ? b->t_end : now_ns()) - b->t0;
		for (size_t i = 0; i < n; i++) {
			uint64_t id = idle[i] > b->idle0[i] ? idle[i] - b->idle0[i] : 0;

			if (!b->cpu_on[i])
				continue; /* -C: not this CPU */
			r->cpu[i].idle_ns = id < wall ? id : wall;
			r->cpu[i].busy_ns = wall - r->cpu[i].idle_ns;
		}
		free(busy);
		free(idle);
	}
	by_class_of_matrices(b, r);
	/* row and column sums of the matrices: wakeups sent and received, migrations */
	for (size_t a = 0; a < n; a++)
		for (size_t c = 0; c < n; c++) {
			r->cpu[a].wakeups_from += r->wake_matrix[a * n + c];
			r->cpu[c].wakeups_to += r->wake_matrix[a * n + c];
			r->cpu[a].migrations_out += r->mig_matrix[a * n + c];
			r->cpu[c].migrations_in += r->mig_matrix[a * n + c];
		}
	read_pairs(b, r);
	if (tasks)
		read_tasks(b, r);
	name_pairs(r);
}

uint64_t bpf_sched_events(struct bpf_sched *b)
{
	uint64_t sum = 0;

	for (int i = 0; i < b->nposs; i++) {
		for (int e = LB_EV_WAKING; e <= LB_EV_EXIT; e++)
			sum += pcpu_of(b, b->acc, i)->n[e];
		sum += b->hot_snap[i].waking + b->hot_snap[i].switches; /* counted there */
	}
	return sum;
}

#endif
