/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tasks.bpf.h - part of sched.bpf.c (included there, after its helpers): each task's
 * state (a tid-indexed slot, else task storage), its first sight and its retirement to
 * `done` at its last switch-out, and the waker -> wakee pairs batched in the wakee's
 * state and flushed to the pair table (pend_*, flush_pair).
 */
#ifndef LOCUS_TASKS_BPF_H
#define LOCUS_TASKS_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lb_tstate);
} tasks SEC(".maps");

/* mmapable: page-aligned, so that each slot's wake line is one cache line */
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
	t->waker_cpu = t->prev_cpu = t->target_cpu = -1;
	t->pend_waker = -1;
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

static __always_inline struct lb_tstate *tracked(struct task_struct *p)
{
	struct lb_tstate *t = state(p, system_wide, 0);

	return t && t->tracked ? t : 0;
}

/*
 * Add the wakee's batched wakeups by its current waker to the pair table
 * (the table is touched once per LB_PAIR_BATCH wakeups of a steady pair).
 */
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

/* Whether the task's comm differs from the name its batch was given (two 8-byte loads). */
static __always_inline int renamed(struct task_struct *cur, const char *name)
{
	const __u64 *a = (const __u64 *)cur->comm, *b = (const __u64 *)name;

	return a[0] != b[0] || a[1] != b[1];
}

static __always_inline void flush_pair(__u32 half, struct lb_tstate *t, struct task_struct *wakee)
{
	__u64 key;
	struct lb_pair *pr;
	struct lb_pcpu *c;

	if (!t->pend_count)
		return;
	key = (__u64)(__u32)t->pend_waker << 32 | (__u32)t->st.tid;
	pr = half ? pair_entry(&pairs1, key) : pair_entry(&pairs0, key);
	if (!pr) {
		c = cold(half);
		if (c)
			c->n[LB_pairs_dropped] += t->pend_count; /* the table is full */
		goto out;
	}
	/* the names as at this batch, as perf script names each wakeup: an exec renames
	 * (the entry may be years old); the waker's read at its batch's first wakeup (a
	 * rename starts a new batch) */
	__builtin_memcpy(pr->waker_comm, t->pend_comm, LB_COMM);
	if (wakee)
		BPF_CORE_READ_STR_INTO(&pr->wakee_comm, wakee, comm);
	__sync_fetch_and_add(&pr->count, t->pend_count);
	for (int k = 0; k < LB_CLASSES; k++)
		if (t->pend_class[k])
			__sync_fetch_and_add(&pr->by_class[k], t->pend_class[k]);
out:
	t->pend_count = 0;
	for (int k = 0; k < LB_CLASSES; k++)
		t->pend_class[k] = 0;
}

/* A task's last switch-out: its totals to `done`, its slot freed. */
static __always_inline void retire(__u32 half, struct lb_tstate *t, struct task_struct *p)
{
	int tid = t->st.tid;

#ifndef LOCUS_NO_PAIRS
	flush_pair(half, t, p);
#endif
#ifndef LOCUS_NO_TASKS
	BPF_CORE_READ_STR_INTO(&t->st.comm, p, comm);
	t->st.wakeups = t->wakeups;
	t->st.voluntary = t->voluntary;
	t->st.involuntary = t->involuntary;
	t->st.run_ns = t->run_ns;
	if (bpf_map_update_elem(&done, &tid, &t->st, BPF_ANY) < 0) {
		struct lb_pcpu *c = cold(half);

		if (c)
			c->n[LB_tasks_dropped]++;
	}
#endif
	idle_watch_off(t);
	if (t->owner != tid)
		return; /* task storage: freed with the task */
	/* all but owner and overflow (another CPU may set it now) */
	__builtin_memset(&t->tracked, 0, __builtin_offsetof(struct lb_tstate, overflow) -
					 __builtin_offsetof(struct lb_tstate, tracked));
	__builtin_memset(&t->pend_class, 0, sizeof(*t) -
					 __builtin_offsetof(struct lb_tstate, pend_class));
	barrier();
	t->owner = 0;
}

#endif
