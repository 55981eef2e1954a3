// SPDX-License-Identifier: GPL-2.0
/*
 * sched.bpf.c - locus's in-kernel scheduler aggregator: wakeup placement by
 * class, waker x target and previous x target matrices, wake-to-run delay
 * histograms, migrations, switches and CPU time, task pairs; no event leaves
 * the kernel. Attached to the sched tracepoints through BTF (tp_btf). The CPU
 * chosen for a wakeup is where set_task_cpu moved the task (sched_migrate_task
 * during the wakeup) or, when it did not move, the CPU it then runs on: no
 * program on sched_wakeup is needed. A task's state lives in a tid-indexed array
 * (task storage only for tasks whose index is taken); the switch-in, which the
 * woken task waits for, only reads the clock.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "sched_bpf.h"

/*
 * Bench-only builds (make bench-variants, docs/cost.md) compile one feature out to
 * measure what it costs: LOCUS_NO_PLACE (the class matrices and placement counts),
 * LOCUS_NO_TIMING (the sampled delay timing), LOCUS_NO_IDLE (idle CPUs passed over),
 * LOCUS_NO_IPI (IPI attribution), LOCUS_NO_MIGRATE (migration counts), LOCUS_NO_TASKS
 * (per-task counters and totals), LOCUS_NO_PAIRS (waker-wakee pairs). The default build
 * defines none of them; their results are not whole and locus never ships them.
 */

char LICENSE[] SEC("license") = "GPL";

/* Task states as sched_switch's prev_state argument holds them (include/linux/sched.h: the
 * raw __state, not the tracepoint format's report encoding); vmlinux.h has no macros. */
#define TASK_RUNNING 0x00000000
#define TASK_DEAD 0x00000080

/* Set by user space before load. */
const volatile int ncpus = 1;
const volatile int system_wide = 0;
const volatile int exclude_tgid = 0;	/* locus itself */
const volatile int cpu_filter = 0;	/* count only events emitted on a CPU of cpu_on (-C) */
const volatile unsigned int timed_every = 0; /* time 1 wakeup in this many, on average; <= 1: all */
const volatile unsigned int idle_words = 0; /* words of an idle-CPU mask; 0: idle CPUs not kept */
const volatile unsigned int mat_stride = 1; /* a matrix row's length: ncpus rounded up to 8 */

/*
 * Read and reset without stopping: the programs add to half `epoch & 1` of the
 * per-CPU aggregate and of the pair table; user space flips the epoch, waits an
 * RCU grace period (the programs run inside rcu_read_lock, so none still adds
 * to the old half after it), then reads the old half and clears it.
 */
volatile __u32 epoch __attribute__((aligned(64)));

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct lb_pcpu);
} pcpu SEC(".maps");

/*
 * What every event touches: one aligned line per CPU and half (key cpu * 2 + half),
 * written by that CPU only; sized by user space (possible CPUs x 2), which maps it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct lb_hot);
} hot SEC(".maps");

/* Each CPU's core, LLC and node: a global array, read without a helper call. */
struct lb_cpu topo[LB_MAX_CPUS];
/* The CPUs asked for (-C): events emitted elsewhere are not seen, as perf -C sees them. */
unsigned char cpu_on[LB_MAX_CPUS];

/*
 * ncpus x mat_stride each, transposed: row b holds the counts into CPU b, counted where
 * b's task runs (as a rule on b: its row's lines are b's); sized by user space, which
 * maps them to read them (and transposes them).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} wake_matrix SEC(".maps"), prev_matrix SEC(".maps"), mig_matrix SEC(".maps");

/*
 * This CPU's hot line for the current half, or NULL when its events are not counted (-C).
 * The half is read once per program run: every count of one event goes to one half.
 */
static __always_inline struct lb_hot *hot_line(__u32 cpu, __u32 half)
{
	__u32 k = cpu * 2 + half;

	if (cpu_filter) { /* the verifier drops this without -C */
		__u32 i = cpu;

		barrier_var(i);
		if (i >= LB_MAX_CPUS || !cpu_on[i])
			return 0;
	}
	return bpf_map_lookup_elem(&hot, &k);
}

/* This CPU's aggregate of half: the cold counts, looked up only where one is counted. */
static __always_inline struct lb_pcpu *cold(__u32 half)
{
	return bpf_map_lookup_elem(&pcpu, &half);
}

/* The aggregate outside a program that holds the half (rare paths): NULL under -C. */
static __always_inline struct lb_pcpu *me(void)
{
	__u32 half = epoch & 1;

	if (cpu_filter) {
		__u32 cpu = bpf_get_smp_processor_id();

		barrier_var(cpu);
		if (cpu >= LB_MAX_CPUS || !cpu_on[cpu])
			return 0;
	}
	return cold(half);
}

static __always_inline int task_cpu(struct task_struct *p)
{
	return p->thread_info.cpu; /* tp_btf: a trusted pointer, read directly */
}

static __always_inline int valid(int cpu)
{
	return cpu >= 0 && cpu < ncpus && cpu < LB_MAX_CPUS;
}

/* A CPU's entry; each index checked on its own, where the verifier sees it. */
static __always_inline struct lb_cpu *cpu_at(int cpu)
{
	__u32 i = (__u32)cpu;

	barrier_var(i);
	if (i >= LB_MAX_CPUS)
		return 0;
	return &topo[i];
}

static __always_inline int classify(int a, int b)
{
	struct lb_cpu *x, *y;

	if (a == b)
		return LB_SAME_CPU;
	x = cpu_at(a);
	y = cpu_at(b);
	if (!x || !y)
		return LB_REMOTE;
	if (x->core == y->core)
		return LB_SMT;
	if (x->llc >= 0 && x->llc == y->llc)
		return LB_LLC;
	if (x->node == y->node)
		return LB_NODE;
	return LB_REMOTE;
}

static __always_inline void matrix_add(void *map, int a, int b)
{
	__u32 k = (__u32)b * mat_stride + (__u32)a; /* transposed: b's row */
	__u64 *v = bpf_map_lookup_elem(map, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static __always_inline int log2_bucket(__u64 v)
{
	int k = 0;

	if (v >> 32) { v >>= 32; k += 32; }
	if (v >> 16) { v >>= 16; k += 16; }
	if (v >> 8) { v >>= 8; k += 8; }
	if (v >> 4) { v >>= 4; k += 4; }
	if (v >> 2) { v >>= 2; k += 2; }
	if (v >> 1) { k += 1; }
	return k;
}

/* The log-linear bucket of a delay (model/hist.c's hist_index, capped). */
static __always_inline int delay_bucket(__u64 v)
{
	int p, k;

	if (v < (1 << LB_SUB_BITS))
		return (int)v;
	p = log2_bucket(v);
	if (p >= LB_TOP_BIT)
		return LB_BUCKETS - 1;
	k = ((p - LB_SUB_BITS + 1) << LB_SUB_BITS) +
	    (int)((v >> (p - LB_SUB_BITS)) & ((1 << LB_SUB_BITS) - 1));
	return k;
}

static __always_inline void min_max(unsigned long long *min1, unsigned long long *max, __u64 d)
{
	if (*min1 == 0 || d + 1 < *min1)
		*min1 = d + 1;
	if (d > *max)
		*max = d;
}

#include "idle.bpf.h" /* idle CPUs passed over: its maps and programs' helpers */
#include "tasks.bpf.h" /* each task's state, its retirement, the pairs */

/*
 * The wakee's CPU is known: count the placement once. The by-class tallies (waker's
 * and previous CPU to target) and the placements stayed and elsewhere are the reader's,
 * from the matrices (by_class[classify(a, b)] sums wake_matrix's cells a -> b, stayed is
 * prev_matrix's diagonal: counted under the same conditions); counted here: the wakeup
 * placed, pulled, the pair's class.
 */
static __always_inline void place(struct lb_hot *h, struct lb_tstate *t, int target)
{
	int cls __attribute__((unused));

	if (t->placed || !valid(target))
		return;
	t->placed = 1;
	t->target_cpu = target;
	h->placed++;
#ifndef LOCUS_NO_PLACE
	cls = valid(t->waker_cpu) ? classify(t->waker_cpu, target) : -1;
	if (cls >= 0) {
		matrix_add(&wake_matrix, t->waker_cpu, target);
#ifndef LOCUS_NO_PAIRS
		if (cls < LB_CLASSES)
			t->pend_class[cls]++;
#endif
	}
	if (valid(t->prev_cpu)) {
		matrix_add(&prev_matrix, t->prev_cpu, target);
		if (target != t->prev_cpu && cls >= 0 && cls <= 2)
			h->pulled++;
	}
#endif
}

#include "stacks.bpf.h" /* -g: stacks sampled, counted here */
#include "blame.bpf.h" /* --sections blame: who delayed the wakee */

/*
 * Whether this wakeup is timed (two clock reads, one on the waker's path, one
 * on the wakee's). Every one is when timed_every <= 1; else 1 in timed_every on
 * average, the same chance for every wakeup from the first to the last: a
 * countdown per CPU, restarted at a random gap of 1 to 2 * timed_every - 1
 * wakeups (no period of the workload lines up with it). A countdown at 0 (this
 * CPU's first wakeup, or a half just emptied by the reader) starts a gap
 * without timing. The untimed path reads no clock and calls no helper.
 */
static __always_inline int timed(struct lb_hot *c)
{
	int fresh;

#ifdef LOCUS_NO_TIMING
	return 0;
#endif
	if (timed_every <= 1)
		return 1;
	if (c->pace > 1) {
		c->pace--;
		return 0;
	}
	fresh = !c->pace;
	c->pace = 1 + bpf_get_prandom_u32() % (2 * timed_every - 1);
	return !fresh;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	__u32 half = epoch & 1, cpu = bpf_get_smp_processor_id();
	struct lb_hot *h = hot_line(cpu, half);
	struct lb_tstate *t;
	struct lb_pcpu *c;
	struct task_struct *cur __attribute__((unused));
	int waker __attribute__((unused));

	if (!h)
		return 0;
	h->waking++;
#ifndef LOCUS_NO_IPI
	h->ipi_wakee = 0; /* another wakeup: an IPI after it is not the last one's */
#endif
	t = tracked(p);
	if (!t)
		return 0;
	/* not yet switched out (as the switches seen say: p->on_cpu stays set past the
	 * switch-out until the next task runs, and a wakeup then is one of a task that
	 * blocked, with a switch-in to come; only a task with no switch seen goes by it):
	 * the wakeup only sets it running again */
	if (t->on == LB_ON_IN || (!t->on && p->on_cpu)) {
		c = cold(half);
		if (c)
			c->n[LB_wakeups_running]++;
		return 0;
	}
	h->wakeups++;
#ifndef LOCUS_NO_TASKS
	t->wakeups++;
#endif
	t->pending = 1;
	t->placed = 0;
#ifndef LOCUS_NO_TIMING
	t->timed = timed(h);
	if (t->timed) { /* the untimed are counted as wakeups - timed */
		h->timed++;
		idle_watch_on(t); /* before the time: an idle end after it is timed */
		t->wake_ns = bpf_ktime_get_ns();
		idle_keep(t);
		bl_waking(t, task_cpu(p));
	}
#endif
	stk_waking(ctx, t);
	t->waker_cpu = cpu;
	t->prev_cpu = task_cpu(p);
	t->target_cpu = -1;
#ifndef LOCUS_NO_IPI
	/* the next IPI from here, before a switch or wakeup, may be this one's */
	h->ipi_wakee = (__u32)t->st.tid;
	h->ipi_target = (__u32)t->prev_cpu;
#endif
#ifndef LOCUS_NO_PAIRS
	cur = bpf_get_current_task_btf();
	waker = cur->pid;
	/* a new batch for another waker, a full one, or the waker renamed (an exec, a
	 * PR_SET_NAME): each batch named as its wakeups are */
	if (waker != t->pend_waker || t->pend_count >= LB_PAIR_BATCH ||
	    renamed(cur, t->pend_comm)) {
		flush_pair(half, t, p);
		t->pend_waker = waker;
		bpf_get_current_comm(t->pend_comm, sizeof(t->pend_comm));
	}
	t->pend_count++;
#endif
	return 0;
}

/*
 * An IPI sent to dest (or a polling idle dest woken without one) by this CPU. It is a
 * wakeup's when it is the first after a traced wakeup made here and goes to the
 * wakee's CPU (remote): try_to_wake_up sends it before it returns, after
 * sched_migrate_task if it moved the task. Not one of those, an IPI sent while a
 * traced task ran here is counted apart by kind (polling: 0 for a polling wakeup).
 * The wakee is placed where the IPI went, at the latest when it runs there or a later
 * migration moves it (on_migrate): each IPI counted is a remote wakeup's.
 */
static __always_inline void ipi_seen(int dest, int polling, int call)
{
#ifndef LOCUS_NO_IPI
	__u32 half = epoch & 1, self = bpf_get_smp_processor_id(), wakee;
	struct lb_hot *h = hot_line(self, half);
	struct lb_pcpu *c;
	int cls;

	if (!h)
		return;
	wakee = h->ipi_wakee;
	if (wakee)
		h->ipi_wakee = 0; /* the first after the wakeup is its, or none is */
	if (wakee && (__u32)dest == h->ipi_target && dest != (int)self && valid(dest)) {
		/* n[LB_wakeups_ipi] and n[LB_wakeups_no_ipi]: the sums of the classes' */
		cls = classify(self, dest);
		if (cls < 0 || cls >= LB_CLASSES)
			return;
		if (!polling) {
			h->ipi_class[cls]++;
			return;
		}
		c = cold(half);
		if (c)
			c->no_ipi_class[cls]++;
		return;
	}
	if (polling || !tracked(bpf_get_current_task_btf()))
		return;
	c = cold(half);
	if (!c)
		return;
	if (call)
		c->n[LB_ipis_call_other]++;
	else
		c->n[LB_ipis_resched_other]++;
#endif
}

/* Kernels 6.5 and later; user space leaves these out where the kernel lacks them. */
SEC("tp_btf/ipi_send_cpu")
int BPF_PROG(on_ipi, unsigned int cpu, unsigned long callsite, void *callback)
{
	ipi_seen((int)cpu, 0, callback != 0);
	return 0;
}

SEC("tp_btf/sched_wake_idle_without_ipi")
int BPF_PROG(on_wake_idle, int cpu)
{
	ipi_seen(cpu, 1, 0);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(on_wakeup_new, struct task_struct *p)
{
	struct lb_pcpu *c = me();

	if (!c)
		return 0;
	c->n[LB_EV_WAKEUP_NEW]++;
	if (tracked(p))
		c->n[LB_wakeups_new]++;
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(on_migrate, struct task_struct *p, int dest)
{
	__u32 half = epoch & 1;
	struct lb_hot *h = hot_line(bpf_get_smp_processor_id(), half);
	struct lb_pcpu *c = cold(half);
	struct lb_tstate *t;
	int orig, cls __attribute__((unused));

	if (!h || !c)
		return 0;
	c->n[LB_EV_MIGRATE]++;
	t = tracked(p);
	if (!t)
		return 0;
	orig = task_cpu(p);
#ifndef LOCUS_NO_MIGRATE
	c->n[LB_migrations]++;
#ifndef LOCUS_NO_TASKS
	t->st.migrations++;
#endif
	if (valid(orig) && valid(dest)) /* mig_by_class: the reader's, from the matrix */
		matrix_add(&mig_matrix, orig, dest);
#endif
	if (h->ipi_wakee == (__u32)t->st.tid)
		h->ipi_target = (__u32)dest; /* its IPI, if any, goes there */
	bl_migrate(t, !t->placed && h->ipi_wakee == (__u32)t->st.tid, dest);
	if (t->pending && !t->placed) /* set_task_cpu during the wakeup, on the waker's CPU;
				       * later (load balance before it ran): it was left
				       * where it last ran */
		place(h, t, h->ipi_wakee == (__u32)t->st.tid ? dest : t->prev_cpu);
	return 0;
}

/* A woken task's first run ends: its placement, delay and the CPU it ran on. */
static __always_inline void finish(struct lb_hot *h, __u32 half, struct lb_tstate *t, int cpu)
{
	struct lb_pcpu *c;
	__u64 d;
	int k;

	if (!t->placed)
		place(h, t, cpu);
	if (t->target_cpu == cpu && !t->timed) {
		t->pending = 0; /* the common case: nothing more to count */
		return;
	}
	c = cold(half);
	if (!c)
		return;
	if (t->target_cpu != cpu)
		c->n[LB_moved_before_run]++;
	t->pending = 0;
	if (!t->timed)
		return;
	if (valid(t->waker_cpu))
		stk_wakee_ran(t, classify(t->waker_cpu, t->target_cpu));
	if (t->in_ns < t->wake_ns) {
		/* switched in before the wakeup's time: the wakeup raced with a switch (in_ns is
		 * of an earlier run), or two clocks disagreed. Not a delay: counted apart */
		c->n[LB_delays_negative]++;
		return;
	}
	d = t->in_ns - t->wake_ns;
	k = delay_bucket(d);
	if (k >= 0 && k < LB_BUCKETS) {
		int cls = valid(t->waker_cpu) ? classify(t->waker_cpu, t->target_cpu) : -1;

		c->delay[k]++;
		if (cls >= 0 && cls < LB_CLASSES) {
			c->delay_class[cls][k]++;
			min_max(&c->class_min1[cls], &c->class_max[cls], d);
			c->class_sum_ns[cls] += d;
		}
	}
	min_max(&c->delay_min1, &c->delay_max, d);
	c->delay_sum_ns += d;
#ifndef LOCUS_NO_TASKS
	t->st.delays++;
	t->st.delay_sum_ns += d;
#endif
}

/*
 * The switch-in is on the woken task's path to running: only the time is taken
 * there (the runqueue clock is not it: the scheduler skips its update after a
 * wakeup that preempts); the wakeup is accounted at the task's switch-out,
 * which no one waits for.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u32 half = epoch & 1, cpu = bpf_get_smp_processor_id();
	struct lb_hot *h = hot_line(cpu, half);
	int prev_pid = prev->pid, next_pid = next->pid;
	struct lb_tstate *t;
	struct lb_pcpu *c;
	__u64 now = 0;

	if (!h)
		return 0;
	h->switches++;
#ifndef LOCUS_NO_IPI
	h->ipi_wakee = 0;
#endif
	t = prev_pid ? tracked(prev) : 0;
	if (t) {
		__u64 sum = prev->se.sum_exec_runtime;

		/* the kernel's own rule (__schedule: nvcsw when !preempt && prev_state), on
		 * the state it read before the switch: prev->__state, read here, may already
		 * be TASK_WAKING or TASK_RUNNING again when a wakeup raced the switch */
		if (preempt || prev_state == TASK_RUNNING) {
			h->involuntary++;
#ifndef LOCUS_NO_TASKS
			t->involuntary++;
#endif
		} else {
			h->voluntary++;
#ifndef LOCUS_NO_TASKS
			t->voluntary++;
#endif
		}
		/* the scheduler's own account of the time it just ran: no clock read */
		if (sum > t->last_sum) {
#ifndef LOCUS_NO_TASKS
			t->run_ns += sum - t->last_sum;
#endif
			h->tracked_ns += sum - t->last_sum;
		}
		t->last_sum = sum;
		t->on = LB_ON_OUT;
		if (t->pending)
			finish(h, half, t, (int)cpu);
		stk_switch_out(ctx, h, t, !preempt && prev_state != TASK_RUNNING &&
					       !(prev_state & TASK_DEAD));
		if (prev_state & TASK_DEAD)
			retire(half, t, prev);
	}
	t = next_pid ? tracked(next) : 0;
	if (t && t->on != LB_ON_IN)
		t->on = LB_ON_IN;
	if (t && t->pending) {
		if (t->timed)
			now = t->in_ns = bpf_ktime_get_ns(); /* first: the rest is not in the delay */
		/* placed where it runs, now, not at its next switch-out: the per-CPU figures
		 * of a snapshot then match its wakeup count */
		place(h, t, (int)cpu);
		if (t->timed) {
			c = cold(half);
			if (c)
				idle_check(c, t, next, t->target_cpu, now);
			idle_watch_off(t);
		}
	}
	if (t)
		stk_switch_in(t, (int)cpu, &now);
	bl_switch(t, prev, next, (int)cpu, &now);
	idle_note(cpu, next_pid == 0, &now);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	struct lb_pcpu *c = me();
	struct lb_tstate *pt;

	if (!c)
		return 0;
	c->n[LB_EV_FORK]++;
	if (system_wide)
		return 0;
	pt = state(parent, 0, 0);
	if (pt && pt->tracked)
		state(child, 1, 1);
	return 0;
}

/*
 * A task renamed by itself (an exec, PR_SET_NAME): its batch of wakeups goes to the pair
 * table under its old name first (the tracepoint fires before the copy), so each batch is
 * named as perf script names its wakeups. The task is running, so no waking touches its
 * batch meanwhile (on_waking leaves a running task's alone); a rename by another task
 * (/proc/PID/comm) is left to the next flush, named as then.
 */
SEC("tp_btf/task_rename")
int BPF_PROG(on_rename, struct task_struct *task, const char *comm)
{
#ifndef LOCUS_NO_PAIRS
	struct lb_tstate *t;

	if (task->pid != (int)(__u32)bpf_get_current_pid_tgid())
		return 0;
	t = tracked(task);
	if (t && t->pend_count)
		flush_pair(epoch & 1, t, task);
#endif
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	struct lb_pcpu *c = me();

	if (c)
		c->n[LB_EV_EXIT]++; /* its totals leave at its last switch-out */
	return 0;
}
