/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks.bpf.h - -g in the BPF collector: kernel and user stacks sampled into a stack
 * table (by content) and counted in the kernel per (stacks, kind, locality class). The waker's stack at
 * each timed wakeup (1 in timed_every), counted with its class when the wakee ran; the
 * blocked task's at 1 in stack_every voluntary switch-outs (a countdown per CPU at a
 * random gap, as timed()), with the waker's stack at the wakeup that ended that sleep,
 * counted with the time off CPU at the task's next switch-out. stack_every 0 (no -g):
 * the verifier drops all of it. Part of sched.bpf.c (included there, on core.bpf.h).
 */
#ifndef LOCUS_STACKS_BPF_H
#define LOCUS_STACKS_BPF_H

#include "core.bpf.h"

/* Set by user space before load: 1 in this many voluntary switch-outs (0: no -g). */
const volatile unsigned int stack_every = 0;

/*
 * The stacks, by content: a stack walked into this CPU's buffer, hashed (64 bits over its
 * frames) and looked up; a new one copied into the table under the next id. The kernel's
 * stack map keys a stack by its bucket only and refuses one whose bucket another stack
 * took first (-EEXIST) for the whole run: one code path's samples all dropped, the sample
 * biased (a CI run: a wakeup path of 8% of perf's stacks at 1.2% of the sample).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_stk_ips);
} stk_buf SEC(".maps");

/* preallocated (as the stack map was: the same memory): a table that allocates as it goes
 * fails inserts from a tracepoint while its per-CPU cache refills (14 of 1,087 waker
 * samples of a hackbench run) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);	/* LB_STACK_ENTRIES with -g: set by user space */
	__type(key, __u64);
	__type(value, struct lb_stk_ips);
} stk_ids SEC(".maps");

/* the ids handed out, on a line of its own (a new stack is rare, the epoch's line hot) */
volatile struct lb_stk_next stk_next;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);	/* 16384 with -g */
	__type(key, struct lb_stk_key);
	__type(value, struct lb_stk_val);
} stk_counts SEC(".maps");

struct lb_stk_stats {
	unsigned long long n[LB_STK_NR];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_stk_stats);
} stk_stat SEC(".maps");

static __always_inline void stk_note(int what)
{
	__u32 z = 0;
	struct lb_stk_stats *s = bpf_map_lookup_elem(&stk_stat, &z);

	if (s && what >= 0 && what < LB_STK_NR)
		s->n[what]++;
}

/*
 * The current task's kernel (flags 0) or user (BPF_F_USER_STACK) stack's id: one per
 * distinct stack (its frames), or -EFAULT for no user stack, else the sample is dropped
 * (counted by why: the table full, or a walk's error).
 */
static __always_inline long stk_id(void *ctx, __u64 flags)
{
	__u32 z = 0;
	struct lb_stk_ips *b = bpf_map_lookup_elem(&stk_buf, &z), *e;
	__u64 h = 0xcbf29ce484222325ull; /* FNV-1a's, a word at a time, then mixed */
	long n;

	if (!b)
		return -22;
	n = bpf_get_stack(ctx, b->ip, sizeof(b->ip), flags);
	if (n <= 0)
		return n ? n : -14;
	b->n = (__u32)(n / 8);
	for (__u32 i = 0; i < LB_STACK_DEPTH && i < b->n; i++)
		h = (h ^ b->ip[i]) * 0x100000001b3ull;
	h ^= h >> 32;
	e = bpf_map_lookup_elem(&stk_ids, &h);
	if (e)
		return e->id;
	b->id = __sync_fetch_and_add(&stk_next.next, 1);
	if (bpf_map_update_elem(&stk_ids, &h, b, BPF_NOEXIST) < 0) {
		e = bpf_map_lookup_elem(&stk_ids, &h); /* another CPU's came first */
		return e ? (long)e->id : -12;
	}
	return b->id;
}

/* A failed stack id counted by why; 0 when id is one. */
static __always_inline int stk_failed(long id)
{
	if (id >= 0)
		return 0;
	stk_note(id == -12 ? LB_STK_ENOMEM : LB_STK_EOTHER);
	return 1;
}

/*
 * The current task's stacks into *k, *u (user: -1 where it has none, a kernel thread's),
 * its tgid into *tgid. 0, or -1 when the sample is dropped (counted by why).
 */
/* The walk starts in this program: user space drops the frames above the tracepoint's
 * caller (bpf_stacks.c), as they vary with the kernel's inlining. */
static __always_inline int stk_take(void *ctx, int *k, int *u, int *tgid)
{
	long kid = stk_id(ctx, 0), uid;

	if (stk_failed(kid))
		return -1;
	uid = stk_id(ctx, BPF_F_USER_STACK);
	if (uid == -14) /* -EFAULT: no user stack */
		uid = -1;
	else if (stk_failed(uid))
		return -1;
	*k = (int)kid;
	*u = (int)uid;
	*tgid = (int)(bpf_get_current_pid_tgid() >> 32);
	return 0;
}

static __always_inline void stk_count(struct lb_stk_key *key, __u64 time_ns)
{
	struct lb_stk_val *v = bpf_map_lookup_elem(&stk_counts, key), nv = {};

	if (!v) {
		bpf_map_update_elem(&stk_counts, key, &nv, BPF_NOEXIST); /* or another CPU's */
		v = bpf_map_lookup_elem(&stk_counts, key);
		if (!v) {
			stk_note(LB_STK_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->time_ns, time_ns);
}

/* sched_waking of tracked t (not on CPU): the waker's stack at 1 in LB_STACK_OF_TIMED
 * timed wakeups, and where t's sampled sleep waits for the wakeup that ends it. */
static __always_inline void stk_waking(void *ctx, struct lb_tstate *t, int cpu)
{
	struct lb_stk_state *s = &t->stk;
	int want_ow = 0, want_wk;

	if (!stack_every)
		return;
	if ((t->stk_flags & LB_STK_F_BLOCKED) && !s->blk_in) { /* the sampled sleep ends */
		s->ow_cpu = cpu;
		s->woken = 1;
	}
	if (t->stk_flags & LB_STK_F_WAKER) { /* woken again before it ran (rare) */
		s->wk_on = 0;
		t->stk_flags &= ~LB_STK_F_WAKER;
	}
	if (t->stk_flags & LB_STK_F_BLOCKED) /* stk's line only for a sampled sleep */
		want_ow = !s->blk_in && !s->ow_on;
	want_wk = t->timed == LB_TIMED_WAIT && bpf_get_prandom_u32() % LB_STACK_OF_TIMED == 0;
	if (!want_wk && !want_ow)
		return;
	if (stk_take(ctx, &s->wk_k, &s->wk_u, &s->wk_tgid) < 0)
		return;
	if (want_wk) {
		s->wk_on = 1;
		t->stk_flags |= LB_STK_F_WAKER;
		stk_note(LB_STK_TAKEN_WAKER);
	}
	if (want_ow) {
		s->ow_k = s->wk_k;
		s->ow_u = s->wk_u;
		s->ow_tgid = s->wk_tgid;
		s->ow_on = 1;
		stk_note(LB_STK_TAKEN_OFFWAKE);
	}
}

/* The timed wakeup's wakee ran (finish): its waker's stack counted with the class. */
static __always_inline void stk_wakee_ran(struct lb_tstate *t, int cls)
{
	struct lb_stk_key key = {};

	if (!stack_every || !(t->stk_flags & LB_STK_F_WAKER))
		return;
	t->stk_flags &= ~LB_STK_F_WAKER;
	t->stk.wk_on = 0;
	key.kstack = t->stk.wk_k;
	key.ustack = t->stk.wk_u;
	key.tgid = t->stk.wk_tgid;
	key.wk_kstack = key.wk_ustack = -1;
	key.kind = LB_STK_WAKERS;
	key.cls = (unsigned char)cls;
	stk_count(&key, 0);
}

/* Tracked t switches in on cpu (woken: its wakeup pending): a sampled sleep ends. */
static __always_inline void stk_switch_in(struct lb_tstate *t, int cpu, __u64 *now)
{
	struct lb_stk_state *s = &t->stk;

	if (!stack_every || !(t->stk_flags & LB_STK_F_BLOCKED) || s->blk_in)
		return;
	if (!*now)
		*now = bpf_ktime_get_ns();
	s->in_ns = *now;
	s->blk_in = 1;
	s->blk_cls = s->woken && lb_valid(s->ow_cpu) ? (unsigned char)classify(s->ow_cpu, cpu) :
						     LB_STK_NO_WAKEUP;
}

/* Tracked t switches out (current): a sampled sleep that ended is counted; at a
 * voluntary switch-out, 1 in stack_every takes the blocked stack. */
static __always_inline void stk_switch_out(void *ctx, struct lb_hot *h, struct lb_tstate *t,
					   int voluntary)
{
	struct lb_stk_state *s = &t->stk;
	struct lb_stk_key key = {};
	int fresh;

	if (!stack_every)
		return;
	if ((t->stk_flags & LB_STK_F_BLOCKED) && s->blk_in) {
		key.kstack = s->blk_k;
		key.ustack = s->blk_u;
		key.tgid = s->blk_tgid;
		key.wk_kstack = key.wk_ustack = -1;
		key.kind = LB_STK_BLOCKED;
		key.cls = s->blk_cls;
		stk_count(&key, s->in_ns - s->out_ns);
		if (s->ow_on) {
			key.wk_kstack = s->ow_k;
			key.wk_ustack = s->ow_u;
			key.wk_tgid = s->ow_tgid;
			key.kind = LB_STK_OFFWAKE;
			stk_count(&key, s->in_ns - s->out_ns);
		}
		s->blk_on = 0;
		t->stk_flags &= ~LB_STK_F_BLOCKED;
	}
	if (!voluntary)
		return;
	if (stack_every > 1) { /* as timed(): a random gap of 1 to 2 * stack_every - 1 */
		if (h->stk_pace > 1) {
			h->stk_pace--;
			return;
		}
		fresh = !h->stk_pace;
		h->stk_pace = 1 + bpf_get_prandom_u32() % (2 * stack_every - 1);
		if (fresh)
			return;
	}
	if (t->stk_flags & LB_STK_F_BLOCKED) /* sampled, not run since: switch-in unseen */
		stk_note(LB_STK_LOST);
	s->blk_on = 0;
	t->stk_flags &= ~LB_STK_F_BLOCKED;
	if (stk_take(ctx, &s->blk_k, &s->blk_u, &s->blk_tgid) < 0)
		return;
	s->out_ns = bpf_ktime_get_ns();
	s->blk_on = 1;
	t->stk_flags |= LB_STK_F_BLOCKED;
	s->blk_in = 0;
	s->ow_on = 0;
	s->woken = 0;
	stk_note(LB_STK_TAKEN_BLOCKED);
}

#endif
