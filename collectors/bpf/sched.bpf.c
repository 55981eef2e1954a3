// SPDX-License-Identifier: GPL-2.0
/*
 * sched.bpf.c - locus's in-kernel scheduler aggregator: wakeup placement by
 * class, waker x target and previous x target matrices, wake-to-run delay
 * histograms, migrations, switches and CPU time, task pairs; no event leaves
 * the kernel. Attached to the sched tracepoints through BTF (tp_btf). The CPU
 * chosen for a wakeup is where set_task_cpu moved the task (sched_migrate_task
 * during the wakeup, on the waker's CPU) or, when it did not move, the CPU it
 * was on: the waker's CPU places it at its next event, once try_to_wake_up is
 * over (no program on sched_wakeup is needed). Each CPU writes its own lines:
 * the waker counts a wakeup, its placement and its pair where it runs, reading
 * of the wakee only what the kernel's own wakeup path reads next (on_rq,
 * on_cpu) and the wakee's identity line; the wakee counts its own wakeups,
 * switches and time where it runs. Only a timed wakeup (1 in timed_every)
 * writes the wakee's state from the waker's CPU. A task's state lives in a
 * tid-indexed array (task storage only for tasks whose index is taken).
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
 * What every event touches: two aligned lines per CPU (key cpu), written by that CPU
 * only and never reset; sized by user space (possible CPUs), which maps it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_hot);
} hot SEC(".maps");

/* Each CPU's core, LLC and node: a global array, read without a helper call. */
struct lb_cpu topo[LB_MAX_CPUS];
/* The CPUs asked for (-C): events emitted elsewhere are not seen, as perf -C sees them. */
unsigned char cpu_on[LB_MAX_CPUS];

/*
 * ncpus x mat_stride each, in rows that one CPU writes: wake_matrix's row a holds the
 * wakeups CPU a made, by the CPU they went to (counted by a's placement of them);
 * prev_matrix and mig_matrix are transposed, row b the counts into CPU b (counted where
 * b's task runs, as a rule on b). Sized by user space, which maps them to read them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} wake_matrix SEC(".maps"), prev_matrix SEC(".maps"), mig_matrix SEC(".maps");

/* This CPU's hot lines, or NULL when its events are not counted (-C). */
static __always_inline struct lb_hot *hot_line(__u32 cpu)
{
	if (cpu_filter) { /* the verifier drops this without -C */
		__u32 i = cpu;

		barrier_var(i);
		if (i >= LB_MAX_CPUS || !cpu_on[i])
			return 0;
	}
	return bpf_map_lookup_elem(&hot, &cpu);
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

/* Cell (row, col) of a matrix, where only this CPU writes row: no atomic. */
static __always_inline void matrix_own(void *map, int row, int col)
{
	__u32 k = (__u32)row * mat_stride + (__u32)col;
	__u64 *v = bpf_map_lookup_elem(map, &k);

	if (v)
		*v += 1;
}

/* Cell (row, col), where other CPUs may write row too. */
static __always_inline void matrix_shared(void *map, int row, int col)
{
	__u32 k = (__u32)row * mat_stride + (__u32)col;
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

/*
 * The log-linear bucket of a delay (model/hist.c's hist_index, capped). 64 bits wide: 6.1's
 * verifier loses the bound of a 32-bit copy (w4 = w3) made before the caller's range check,
 * and refused the index into delay[] ("math between map_value pointer and register with
 * unbounded min value"); a 64-bit copy keeps the bound it learns.
 */
static __always_inline __u64 delay_bucket(__u64 v)
{
	int p;

	if (v < (1 << LB_SUB_BITS))
		return v;
	p = log2_bucket(v);
	if (p >= LB_TOP_BIT)
		return LB_BUCKETS - 1;
	return ((__u64)(p - LB_SUB_BITS + 1) << LB_SUB_BITS) +
	       ((v >> (p - LB_SUB_BITS)) & ((1 << LB_SUB_BITS) - 1));
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
 * The wakeup this CPU made last is placed: its try_to_wake_up is over (this CPU has an
 * event again). Counted here, in this CPU's own lines: the
 * waker -> target cell (the by-class tallies and the wakeups placed are the reader's, from
 * the matrix), pulled, the pair's class. The previous -> target matrix is the wakee's, at
 * its switch-in.
 */
static __always_inline void close_flight(struct lb_hot *h, __u32 cpu)
{
	int target = h->fl_target, prev = h->fl_prev, cls;
	__u32 pair = h->fl_pair & ~LB_FL_IPI;
	struct lb_pcache *e;

	if (!h->fl_tid)
		return;
	h->fl_tid = 0;
#ifndef LOCUS_NO_PLACE
	if (!valid(target) || !valid((int)cpu))
		return;
	cls = classify((int)cpu, target);
	matrix_own(&wake_matrix, (int)cpu, target);
	if (target != prev && cls <= LB_LLC)
		h->pulled++;
	if (!pair || cls >= LB_CLASSES)
		return;
	pair--;
	e = bpf_map_lookup_elem(&pcache, &pair);
	if (e && e->count) /* (a reader may have emptied it after a flip: lost) */
		e->by_class[cls]++;
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
 * CPU's first wakeup) starts a gap without timing. The untimed path reads no
 * clock and calls no helper.
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

/*
 * Whether p, woken now, still runs (not yet switched out, as the switches seen say:
 * p->on_cpu stays set past the switch-out until the next task runs, and a wakeup then is
 * one of a task that blocked, with a switch-in to come; a task with no switch seen goes
 * by on_cpu). Asked only where the kernel's own fields leave it open (its own line read).
 * Either way the wakee's lines say what its next switch-in is: still running, a sleep it
 * may be on its way to (dequeued under the runqueue lock the wakeup then waits for) is
 * this wakeup's, no other's (woke_in); asleep, its next switch-in ends this wakeup.
 */
static __always_inline int still_runs(struct lb_tstate *t, struct task_struct *p)
{
	if (t->on == LB_ON_IN || (!t->on && p->on_cpu)) {
		if (!t->woke_in)
			t->woke_in = 1;
		return 1;
	}
	if (!t->wake_run) /* preempted while it went to sleep, or never seen switching */
		t->wake_run = 1;
	return 0;
}

/* p's dequeue at its sleep delayed (EEVDF, 6.12 and later): still queued, yet asleep */
static __always_inline int sched_delayed(struct task_struct *p)
{
	if (bpf_core_field_exists(p->se.sched_delayed))
		return p->se.sched_delayed;
	return 0;
}

/* A timed wakeup of t (p, on prev, woken from cpu): its line written, its wait begins. */
static __always_inline void time_wakeup(struct lb_tstate *t, struct task_struct *p, int cpu,
					int prev)
{
	t->timed = LB_TIMED_WAIT;
	t->waker_cpu = cpu;
	t->prev_cpu = t->target_cpu = prev;
	idle_watch_on(t); /* before the time: an idle end after it is timed */
	t->wake_ns = bpf_ktime_get_ns();
	idle_keep(t);
	bl_waking(t, prev);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct lb_hot *h = hot_line(cpu);
	struct lb_tstate *t;
	struct lb_pcpu *c;
	int prev;

	if (!h)
		return 0;
	h->waking++;
	close_flight(h, cpu); /* the last one's try_to_wake_up is over */
	t = tracked(p);
	if (!t)
		return 0;
	/* off CPU and dequeued (or its dequeue delayed): it switched out to sleep, and its
	 * line says so; the kernel reads these fields next (a line this one brings in) */
	if (!t->sw_seen || p->on_cpu || (p->on_rq && !sched_delayed(p))) {
		if (still_runs(t, p)) {
			c = cold(epoch & 1); /* the wakeup only sets it running again */
			if (c)
				c->n[LB_wakeups_running]++;
			return 0;
		}
	} else if (t->woke_in) { /* asleep after a wakeup that found it running */
		t->wake_run = 1;
	}
	if (t->woke_in)
		t->woke_in = 0;
	h->wakeups++;
	prev = task_cpu(p);
	h->fl_tid = (__u32)p->pid;
	h->fl_prev = h->fl_target = prev;
	h->fl_pair = 0; /* no pair, no IPI yet */
#ifndef LOCUS_NO_PAIRS
	pair_note(h, cpu, epoch & 1, p);
#endif
	if (timed(h)) { /* the untimed are counted as wakeups - timed */
		h->timed++;
		time_wakeup(t, p, (int)cpu, prev);
	}
	stk_waking(ctx, t, (int)cpu);
	return 0;
}

/*
 * An IPI sent to dest (or a polling idle dest woken without one) by this CPU. It is a
 * wakeup's when it is the first after a traced wakeup made here and goes to the
 * wakee's CPU (remote): try_to_wake_up sends it before it returns, after
 * sched_migrate_task if it moved the task. Not one of
 * those, an IPI sent while a traced task ran here is counted apart by kind (polling: 0
 * for a polling wakeup).
 */
static __always_inline void ipi_seen(int dest, int polling, int call)
{
#ifndef LOCUS_NO_IPI
	__u32 self = bpf_get_smp_processor_id();
	struct lb_hot *h = hot_line(self);
	struct lb_pcpu *c;
	int cls, mine;

	if (!h)
		return;
	/* the first after the wakeup is its, or none is; the wakeup stays in flight, placed
	 * at this CPU's next event (the waker's switch-out as a rule: off the wakee's path) */
	mine = h->fl_tid && !(h->fl_pair & LB_FL_IPI) && dest == h->fl_target &&
	       dest != (int)self && valid(dest);
	if (h->fl_tid)
		h->fl_pair |= LB_FL_IPI;
	if (mine) {
		/* n[LB_wakeups_ipi] and n[LB_wakeups_no_ipi]: the sums of the classes' */
		cls = classify(self, dest);
		if (cls < 0 || cls >= LB_CLASSES)
			return;
		if (!polling) {
			h->ipi_class[cls]++;
			return;
		}
		c = cold(epoch & 1);
		if (c)
			c->no_ipi_class[cls]++;
		return;
	}
	if (polling || !tracked(bpf_get_current_task_btf()))
		return;
	c = cold(epoch & 1);
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

/*
 * p moves to dest. During a wakeup this CPU made (its try_to_wake_up: set_task_cpu on the
 * waker's CPU, before its next event), the wakeup's placement; later, a woken task moved
 * before it ran (load balance), as its switch-in will see.
 */
SEC("tp_btf/sched_migrate_task")
int BPF_PROG(on_migrate, struct task_struct *p, int dest)
{
	struct lb_hot *h = hot_line(bpf_get_smp_processor_id());
	struct lb_pcpu *c = cold(epoch & 1);
	struct lb_tstate *t;
	int orig, ttwu;

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
		matrix_shared(&mig_matrix, dest, orig);
#endif
	ttwu = h->fl_tid == (__u32)p->pid;
	if (ttwu) {
		h->fl_target = dest; /* its IPI, if any, goes there */
		if (t->timed == LB_TIMED_WAIT)
			t->target_cpu = dest;
	} else if (t->wake_run && !t->moved && p->on_rq) {
		t->moved = 1;
		t->moved_from = orig;
	}
	bl_migrate(t, ttwu, dest);
	return 0;
}

/* A timed wakeup's first run ends: its delay, by the class of its waker -> target. */
static __always_inline void finish_timed(__u32 half, struct lb_tstate *t)
{
	struct lb_pcpu *c = cold(half);
	__u64 d, k;
	int cls;

	t->timed = 0;
	if (!c)
		return;
	cls = valid(t->waker_cpu) && valid(t->target_cpu) ?
		      classify(t->waker_cpu, t->target_cpu) : -1;
	if (cls >= 0)
		stk_wakee_ran(t, cls);
	if (t->in_ns < t->wake_ns) {
		/* switched in before the wakeup's time: two clocks disagreed. Not a delay:
		 * counted apart */
		c->n[LB_delays_negative]++;
		return;
	}
	d = t->in_ns - t->wake_ns;
	k = delay_bucket(d);
	if (k < LB_BUCKETS) {
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
 * Tracked t's wakeup ran on cpu: its own count, where the wakeup had placed it (here,
 * unless a move after the wakeup took it from there), the previous -> target cell.
 */
__noinline int wakeup_counted(struct lb_tstate *t, int cpu)
{
	int target = cpu;
	struct lb_pcpu *c;

	if (!t)
		return 0;
	t->wake_run = 0;
#ifndef LOCUS_NO_TASKS
	t->wakeups++;
#endif
	if (t->moved) {
		t->moved = 0;
		target = t->moved_from;
		if (target != cpu) {
			c = cold(epoch & 1);
			if (c)
				c->n[LB_moved_before_run]++;
		}
	}
#ifndef LOCUS_NO_PLACE
	if (valid(t->last_cpu) && valid(target)) {
		if (target == cpu)
			matrix_own(&prev_matrix, target, t->last_cpu);
		else
			matrix_shared(&prev_matrix, target, t->last_cpu);
	}
#endif
	return 0;
}

/*
 * Tracked t (p) switches in on cpu after a wakeup: a timed one's time first (the rest is
 * not in the delay), the wakeup counted, a timed one's idle check.
 */
static __always_inline void wakeup_ran(struct lb_tstate *t, struct task_struct *p, int cpu,
				       __u64 *now)
{
	struct lb_pcpu *c;

	if (t->timed != LB_TIMED_WAIT) {
		wakeup_counted(t, cpu);
		return;
	}
	*now = t->in_ns = bpf_ktime_get_ns();
	wakeup_counted(t, cpu);
	c = cold(epoch & 1);
	if (c)
		idle_check(c, t, p, t->target_cpu, *now);
	idle_watch_off(t);
}

/*
 * Tracked t switches out with no switch-in seen since its wakeup (this kernel does not
 * always fire sched_switch for a switch-in: tens in 100,000 here): its wakeup ran, placed
 * where it ran; a timed one's delay is not known (in_ns 0: counted apart, delays_negative).
 */
static __always_inline void wakeup_ran_unseen(struct lb_tstate *t, int cpu)
{
	wakeup_counted(t, cpu);
	if (t->timed != LB_TIMED_WAIT)
		return;
	t->in_ns = 0;
	idle_watch_off(t);
	bl_unseen(t);
	t->timed = LB_TIMED_RAN;
}

/* Tracked t (prev) switches out on cpu: its switch counted, its run time, what comes next. */
static __always_inline void switched_out(void *ctx, struct lb_hot *h, struct lb_tstate *t,
					 struct task_struct *prev, int cpu, int preempt,
					 unsigned int prev_state)
{
	/* read before its line says it is out: a waker that sees it out (and so counts a
	 * wakeup) changes the state after that, and one that saw it in has changed it, or
	 * said so (woke_in), by now */
	unsigned int state_now = *(volatile unsigned int *)&prev->__state;
	__u64 sum = prev->se.sum_exec_runtime;
	/* the kernel's own rule (__schedule: nvcsw when !preempt && prev_state), on the state
	 * it read before the switch: prev->__state, read here, may already be TASK_WAKING or
	 * TASK_RUNNING again when a wakeup raced the switch */
	int vol = !preempt && prev_state != TASK_RUNNING;

	if (t->on != LB_ON_IN && (t->wake_run || t->timed == LB_TIMED_WAIT))
		wakeup_ran_unseen(t, cpu);
	if (vol) {
		h->voluntary++;
#ifndef LOCUS_NO_TASKS
		t->voluntary++;
#endif
	} else {
		h->involuntary++;
#ifndef LOCUS_NO_TASKS
		t->involuntary++;
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
	barrier();
	t->on = LB_ON_OUT;
	t->last_cpu = cpu;
	/* asleep: its next switch-in ends a wakeup, unless one came while it still ran (a
	 * waker said so, or the state the scheduler read is no longer its state) */
	t->wake_run = vol && !(prev_state & TASK_DEAD) && !t->woke_in && state_now == prev_state;
	if (!t->sw_seen)
		t->sw_seen = 1;
	if (t->timed == LB_TIMED_RAN)
		finish_timed(epoch & 1, t);
	stk_switch_out(ctx, h, t, vol && !(prev_state & TASK_DEAD));
	if (prev_state & TASK_DEAD)
		retire(epoch & 1, t, prev);
}

/*
 * The switch-in is on the woken task's path to running: only the time is taken
 * there before anything else (the runqueue clock is not it: the scheduler skips its
 * update after a wakeup that preempts); a timed wakeup's delay is accounted at the
 * task's switch-out, which no one waits for.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct lb_hot *h = hot_line(cpu);
	int prev_pid = prev->pid, next_pid = next->pid;
	struct lb_tstate *t;
	__u64 now = 0;

	if (!h)
		return 0;
	h->switches++;
	close_flight(h, cpu);
	t = prev_pid ? tracked(prev) : 0;
	if (t)
		switched_out(ctx, h, t, prev, (int)cpu, preempt, prev_state);
	t = next_pid ? tracked(next) : 0;
	if (t && (t->wake_run || t->timed == LB_TIMED_WAIT))
		wakeup_ran(t, next, (int)cpu, &now);
	bl_switch(t, prev, next, (int)cpu, &now); /* a timed wakeup's wait walked */
	if (t) {
		if (t->timed == LB_TIMED_WAIT)
			t->timed = LB_TIMED_RAN; /* counted at its switch-out */
		t->on = LB_ON_IN;
		if (!t->sw_seen)
			t->sw_seen = 1;
		if (t->woke_in) /* a sleep the wakeup that found it running ended: over */
			t->woke_in = 0;
		stk_switch_in(t, (int)cpu, &now);
	}
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

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	struct lb_pcpu *c = me();

	if (c)
		c->n[LB_EV_EXIT]++; /* its totals leave at its last switch-out */
	return 0;
}
