/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tasks.bpf.h - part of sched.bpf.c (included there, on core.bpf.h): each task's
 * state (a tid-indexed slot, else task storage), its first sight and its retirement to
 * `done` at its last switch-out, and the waker -> wakee pairs counted in the waker's
 * CPU's pair cache and added from there to the pair table (pair_note, pc_flush).
 */
#ifndef LOCUS_TASKS_BPF_H
#define LOCUS_TASKS_BPF_H

#include "core.bpf.h"
#include "idle.bpf.h" /* a retired task's idle watch lifted */

/* Set by user space before load: on_rename attached (glob.rename_gen holds). */
const volatile int renames_seen = 0;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lb_tstate);
} tasks SEC(".maps");

/* mmapable: page-aligned, so that each slot's lines are whole cache lines */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, LB_SLOTS);
	__type(key, __u32);
	__type(value, struct lb_tstate);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct lb_pair);
} pairs0 SEC(".maps"), pairs1 SEC(".maps");

/*
 * Each CPU's pair cache, per half: (cpu * 2 + half) * LB_PC_WAYS + way; sized by user
 * space (possible CPUs x 2 x LB_PC_WAYS), which maps it to read each half with the table's.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_pcache);
} pcache SEC(".maps");

/* tasks that exited, and every tracked task seen (tid -> pid), both bounded */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, int);
	__type(value, struct lb_task);
} done SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, int);
	__type(value, int);
} seen SEC(".maps");

/* The task's first sight: its identity, and whether it is tracked. */
static __always_inline void init_task(struct lb_tstate *t, struct task_struct *p, int tracked)
{
	int tid = p->pid, tgid = p->tgid;

	t->known = 1;
	t->st.tid = tid;
	t->st.pid = tgid;
	t->last_cpu = task_cpu(p);
	t->waker_cpu = t->prev_cpu = t->target_cpu = -1;
	t->last_sum = p->se.sum_exec_runtime;
	if (tracked || (system_wide && tgid != exclude_tgid && tid != 0))
		t->tracked = 1;
	if (t->tracked && bpf_map_update_elem(&seen, &tid, &tgid, BPF_ANY) < 0) {
		struct lb_pcpu *c = me();

		if (c)
			c->n[LB_tasks_dropped]++;
	}
}

/*
 * The task's state: its slot when it owns it (an array lookup the verifier
 * inlines), else its task storage when a task with the same slot index came
 * first (a helper call). Created, and its tracking decided, when create is set.
 */
static __always_inline struct lb_tstate *state(struct task_struct *p, int create, int tracked)
{
	int tid = p->pid;
	__u32 k = (__u32)tid & (LB_SLOTS - 1);
	struct lb_tstate *t = bpf_map_lookup_elem(&slots, &k), *s;

	if (!t)
		return 0;
	if (t->owner != tid && create && !t->owner)
		__sync_val_compare_and_swap(&t->owner, 0, tid); /* a free slot is all zeros */
	if (t->owner == tid) {
		if (!t->known)
			init_task(t, p, tracked);
		return t;
	}
	if (!create && !t->overflow)
		return 0; /* no task with this index lives in task storage */
	t->overflow = 1;
	s = bpf_task_storage_get(&tasks, p, 0, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (s && !s->known)
		init_task(s, p, tracked);
	return s;
}

static __always_inline struct lb_tstate *lb_tracked(struct task_struct *p)
{
	struct lb_tstate *t = state(p, system_wide, 0);

	return t && t->tracked ? t : 0;
}

/* A pair's entry in one half of the table, created when missing; NULL when it is full. */
static __always_inline struct lb_pair *pair_entry(void *pairs, __u64 key)
{
	struct lb_pair *pr = bpf_map_lookup_elem(pairs, &key);
	struct lb_pair np = {};

	if (pr)
		return pr;
	bpf_map_update_elem(pairs, &key, &np, BPF_NOEXIST); /* or another CPU's came first */
	return bpf_map_lookup_elem(pairs, &key);
}

/* Whether a name differs from the one an entry was given (two 8-byte loads each). */
static __always_inline int renamed(const char *comm, const char *name)
{
	const __u64 *a = (const __u64 *)comm, *b = (const __u64 *)name;

	return a[0] != b[0] || a[1] != b[1];
}

static __always_inline void name_copy(char *to, const char *from)
{
	__u64 *a = (__u64 *)to;
	const __u64 *b = (const __u64 *)from;

	a[0] = b[0];
	a[1] = b[1];
}

/* A cache entry's wakeups into its half of the pair table (an entry leaves the cache). */
static __always_inline void pc_flush(__u32 half, struct lb_pcache *e)
{
	__u64 key = e->key & LB_PC_TIDS;
	struct lb_pair *pr = half ? pair_entry(&pairs1, key) : pair_entry(&pairs0, key);
	struct lb_pcpu *c;
	__u32 gen;

	if (!pr) {
		c = cold(half);
		if (c)
			c->n[LB_pairs_dropped] += e->count; /* the table is full */
		return;
	}
	/* the names as at the pair's latest wakeups, as perf script names each wakeup (the
	 * table's entry may be years old: an exec renames; another CPU's cache may flush an
	 * older entry of the pair after a newer one) */
	gen = LB_PC_GEN_OF(e->key);
	if (!pr->count || LB_GEN_GE(gen, (__u32)pr->gen)) {
		__builtin_memcpy(pr->waker_comm, e->waker_comm, LB_COMM);
		__builtin_memcpy(pr->wakee_comm, e->wakee_comm, LB_COMM);
		pr->gen = gen;
	}
	__sync_fetch_and_add(&pr->count, e->count);
	for (int k = 0; k < LB_CLASSES; k++)
		if (e->by_class[k])
			__sync_fetch_and_add(&pr->by_class[k], e->by_class[k]);
}

/*
 * A wakeup of p by the current task, made on cpu in half: counted in this CPU's cache,
 * in the entry of this pair under these two names (the entry there first, if another,
 * goes to the table). The names are compared only after a rename since the entry's last
 * comparison (its key's generation). The entry is kept in flight: its class is added when
 * the wakeup is placed.
 */
static __always_inline void pair_note(struct lb_hot *h, __u32 cpu, __u32 half,
				      struct task_struct *p)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	__u32 waker = (__u32)cur->pid, wakee = (__u32)p->pid;
	__u64 key = ((__u64)waker << 32 | wakee) & LB_PC_TIDS;
	__u64 tagged = key | (renames_seen ? LB_PC_GEN(glob.rename_gen) : 0);
	__u32 k = ((cpu * 2 + half) << LB_PC_BITS) |
		  (((waker ^ wakee * 0x85ebca6bu) * 0x9e3779b1u) >> (32 - LB_PC_BITS));
	struct lb_pcache *e = bpf_map_lookup_elem(&pcache, &k);

	h->fl_pair = 0;
	if (!e)
		return;
	if (!e->count || e->key != tagged || !renames_seen) {
		if (!e->count || (e->key & LB_PC_TIDS) != key ||
		    renamed(cur->comm, e->waker_comm) || renamed(p->comm, e->wakee_comm)) {
			if (e->count)
				pc_flush(half, e);
			e->count = 0;
			for (int c = 0; c < LB_CLASSES; c++)
				e->by_class[c] = 0;
			name_copy(e->waker_comm, cur->comm);
			name_copy(e->wakee_comm, p->comm);
		}
		e->key = tagged;
	}
	e->count++;
	h->fl_pair = k + 1;
}

/* A task's totals (p's, tid) to `done`, counted in half when it is full. */
static __always_inline void totals_done(__u32 half, struct lb_tstate *t, struct task_struct *p,
					int tid)
{
	struct lb_pcpu *c;

	BPF_CORE_READ_STR_INTO(&t->st.comm, p, comm);
	t->st.wakeups = t->wakeups;
	t->st.voluntary = t->voluntary;
	t->st.involuntary = t->involuntary;
	t->st.run_ns = t->run_ns;
	if (bpf_map_update_elem(&done, &tid, &t->st, BPF_ANY) < 0) {
		c = cold(half);
		if (c)
			c->n[LB_tasks_dropped]++;
	}
}

/* A task's last switch-out: its totals to `done`, its slot freed. */
static __always_inline void lb_retire(__u32 half, struct lb_tstate *t, struct task_struct *p)
{
	int tid = t->st.tid;

	if (!LOCUS_NO_TASKS)
		totals_done(half, t, p, tid);
	idle_watch_off(t);
	if (t->owner != tid)
		return; /* task storage: freed with the task */
	/* all but owner and overflow (another CPU may set it now), which come first */
	__builtin_memset(&t->tracked, 0, sizeof(*t) - __builtin_offsetof(struct lb_tstate, tracked));
	barrier();
	t->owner = 0;
}

#endif
