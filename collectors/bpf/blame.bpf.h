/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blame.bpf.h - part of sched.bpf.c (included there, on core.bpf.h): who delayed the
 * wakee (analyzers/blame.h's split), in the kernel, for the timed wakeups (1 in
 * timed_every). A timed wakeup watches the CPU it waits for (its waker adds one to the
 * CPU's `watch`, its switch-in takes it off, a move takes it along). A watched CPU keeps
 * its last LB_BL_RING run segments (switch-in time, task, name, the CPU's irq time so
 * far), written at its own switches; the first switch watched writes the task switched
 * out as a mark (it ran since before the watch began); an unwatched switch tests the
 * count only. The irq programs keep each CPU's hardirq and softirq time (a hardirq within
 * a softirq counts as hardirq). At a timed wakeup's switch-in the ring is walked back to
 * the wakeup (or to the migration that moved it there last): each segment's overlap with
 * the wait goes to the task that ran ("running" for the one on the CPU when the wait there
 * began, a mark's task among them; "ahead" for the others, "idle" for the idle task), less
 * the irq time within it (the segment's, in proportion to the overlap, where the wait
 * began inside it and the CPU's irq time was not read then); the time before the ring's
 * oldest segment, or all of a wait on a CPU not watched for it (a move not seen), is
 * unattributed. The time queued on a CPU it then moved away from is added at each such
 * migration. Every state is per CPU (the ring and the sums are the CPU's own, in a per-CPU
 * map; `watch` and the irq times, read and added to at a timed wakeup or a move, in its
 * first words) or the wakee's own (its blame line); the tasks to blame in a per-CPU hash.
 * lb_blame_on 0 (no --sections blame): the verifier drops all of it, and the irq programs
 * are not loaded.
 */
#ifndef LOCUS_BLAME_BPF_H
#define LOCUS_BLAME_BPF_H

#include "core.bpf.h"

/* Set by user space before load: --sections blame (0: the verifier drops all of it). */
const volatile unsigned int lb_blame_on = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_bl_cpu);
} lb_bl_cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);	/* LB_BL_CULPRITS with blame: set by user space */
	__type(key, int);
	__type(value, struct lb_bl_culprit);
} bl_culprits SEC(".maps");

static __always_inline struct lb_bl_cpu *bl_here(void)
{
	__u32 z = 0;

	return bpf_map_lookup_elem(&lb_bl_cpus, &z);
}

/* A CPU's blame state (another CPU's: a helper call; NULL: none). */
static __always_inline struct lb_bl_cpu *bl_cpu_of(int cpu)
{
	__u32 z = 0;

	return lb_valid(cpu) ? bpf_map_lookup_percpu_elem(&lb_bl_cpus, &z, (__u32)cpu) : 0;
}

/* t no longer waits for the CPU it watched (cpu's state here: that CPU's, if it is it). */
static __always_inline void bl_unmark(struct lb_tstate *t, struct lb_bl_cpu *here, int cpu)
{
	int m = t->bl.mark - 1;
	struct lb_bl_cpu *c;

	if (m < 0)
		return;
	t->bl.mark = 0;
	c = m == cpu && here ? here : bl_cpu_of(m);
	if (c)
		__sync_fetch_and_add(&c->watch, -1);
}

/*
 * t's wait goes on at cpu from at on: the CPU watched from here (its switches recorded),
 * and its irq time so far read (another CPU's line, at a timed wakeup or a move only), a
 * running handler's part included: the irq that woke it, often still running, is in the
 * wait from here.
 */
static __always_inline void bl_mark(struct lb_tstate *t, int cpu, __u64 at)
{
	struct lb_bl_cpu *c = bl_cpu_of(cpu);
	__u64 hard, soft;

	t->bl.cpu0 = -1;
	if (!c)
		return;
	__sync_fetch_and_add(&c->watch, 1); /* first: a switch from here on is recorded */
	t->bl.mark = cpu + 1;
	hard = c->hard_ns;
	if (c->hard_in && at > c->hard_in)
		hard += at - c->hard_in;
	soft = c->soft_ns;
	if (c->soft_in && at > c->soft_in && at - c->soft_in > hard - c->soft_hard0)
		soft += at - c->soft_in - (hard - c->soft_hard0);
	t->bl.hard0 = hard;
	t->bl.soft0 = soft;
	t->bl.cpu0 = cpu;
}

/* A timed wakeup of t (waking), its previous CPU cpu: its wait begins. */
static __always_inline void bl_waking(struct lb_tstate *t, int cpu)
{
	if (!lb_blame_on)
		return;
	bl_unmark(t, 0, -1); /* a watch whose switch-in was not seen (-C): lifted */
	t->bl.from_ns = t->wake_ns;
	t->bl.else_ns = 0;
	bl_mark(t, cpu, t->wake_ns);
}

/*
 * t, woken and not yet run, moves to dest (sched_migrate_task); ttwu: the wakeup's own
 * placement (its wait there from the wakeup), else the wait so far was elsewhere.
 */
static __always_inline void bl_migrate(struct lb_tstate *t, int ttwu, int dest)
{
	__u64 now;

	if (!lb_blame_on || t->timed != LB_TIMED_WAIT || !t->bl.from_ns)
		return;
	now = t->wake_ns;
	if (!ttwu) {
		now = bpf_ktime_get_ns();
		if (now > t->bl.from_ns)
			t->bl.else_ns += now - t->bl.from_ns;
		t->bl.from_ns = now;
	}
	bl_unmark(t, 0, -1);
	bl_mark(t, dest, now);
}

/* A timed wakeup of t ran with no switch-in seen: its wait not walked, its watch lifted. */
static __always_inline void bl_unseen(struct lb_tstate *t)
{
	if (!lb_blame_on)
		return;
	t->bl.from_ns = 0;
	bl_unmark(t, 0, -1);
}

/* The walk's state (bpf_loop's callback: verified once). */
struct bl_walk {
	struct lb_bl_cpu *c;
	__u64 from, end, e_hard, e_soft;	/* the newer segment's start and irq times */
	__u64 hard0, soft0;			/* at from, when known (exact) */
	int exact;
	__u64 ns[LB_BL_CAUSES];
	int seen[LB_BL_SEEN];
	int nseen, covered;
};

/* The task that ran a segment: its time in the wait (a wakeup counted once per task). */
static __always_inline void bl_blame(struct bl_walk *w, struct lb_bl_seg *s, int cause, __u64 ns)
{
	struct lb_bl_culprit *k, nk = {};
	int tid = s->tid, again = 0;

	for (int i = 0; i < LB_BL_SEEN; i++)
		if (i < w->nseen && w->seen[i] == tid)
			again = 1;
	k = bpf_map_lookup_elem(&bl_culprits, &tid);
	if (!k) {
		bpf_map_update_elem(&bl_culprits, &tid, &nk, BPF_NOEXIST);
		k = bpf_map_lookup_elem(&bl_culprits, &tid);
		if (!k) {
			w->c->culprits_dropped_ns += ns;
			return;
		}
	}
	if (cause == LB_BL_RUNNING)
		k->running_ns += ns;
	else
		k->ahead_ns += ns;
	__builtin_memcpy(k->comm, s->comm, LB_COMM);
	if (!again) {
		k->wakeups++;
		if (w->nseen < LB_BL_SEEN)
			w->seen[w->nseen & (LB_BL_SEEN - 1)] = tid;
		w->nseen++;
	}
}

/* Segment i back from the newest: its overlap with the wait. 1 ends the walk. */
static int bl_segment(__u32 i, void *data)
{
	struct bl_walk *w = data;
	struct lb_bl_cpu *c = w->c;
	struct lb_bl_seg *s;
	__u64 start, len, ov, hard, soft, task;
	int cause;

	if (i >= c->head || i >= LB_BL_RING)
		return 1;
	s = &c->ring[(c->head - 1 - i) & (LB_BL_RING - 1)];
	start = s->start_ns;
	if (start > w->end)
		return 1; /* clocks out of step: the rest unattributed */
	len = w->end - start;
	ov = start > w->from ? len : w->end - w->from;
	hard = w->e_hard - s->hard_ns;
	soft = w->e_soft - s->soft_ns;
	if (ov < len && w->exact && w->hard0 >= s->hard_ns && w->hard0 <= w->e_hard &&
	    w->soft0 >= s->soft_ns && w->soft0 <= w->e_soft) {
		hard = w->e_hard - w->hard0; /* the wait began inside it: as read then */
		soft = w->e_soft - w->soft0;
	} else if (ov < len) { /* else its irq time in proportion */
		hard = hard * ov / len;
		soft = soft * ov / len;
	}
	if (hard > ov)
		hard = ov;
	if (soft > ov - hard)
		soft = ov - hard;
	task = ov - hard - soft;
	cause = !s->tid ? LB_BL_IDLE : start <= w->from ? LB_BL_RUNNING : LB_BL_AHEAD;
	w->ns[LB_BL_HARDIRQ] += hard;
	w->ns[LB_BL_SOFTIRQ] += soft;
	if (cause == LB_BL_IDLE)
		w->ns[LB_BL_IDLE] += task;
	else if (cause == LB_BL_RUNNING)
		w->ns[LB_BL_RUNNING] += task;
	else
		w->ns[LB_BL_AHEAD] += task;
	if (s->tid && task)
		bl_blame(w, s, cause, task);
	if (start <= w->from) {
		w->covered = 1;
		return 1;
	}
	w->end = start;
	w->e_hard = s->hard_ns;
	w->e_soft = s->soft_ns;
	return 0;
}

static __always_inline void bl_add(struct lb_bl_split *sp, const __u64 *ns, __u64 wait)
{
	sp->wakeups++;
	sp->wait_ns += wait;
	for (int k = 0; k < LB_BL_CAUSES; k++)
		sp->ns[k] += ns[k];
}

/* Timed wakeup t runs now on cpu: its wait there walked, split, added where it ran. */
static __always_inline void bl_attribute(struct lb_bl_cpu *c, struct lb_tstate *t, int cpu,
					 __u64 now)
{
	struct bl_walk w = {};
	__u64 wait, ww;
	int cls;

	w.c = c;
	w.from = t->bl.from_ns;
	w.end = now;
	w.e_hard = c->hard_ns;
	w.e_soft = c->soft_ns;
	w.exact = t->bl.cpu0 == cpu;
	w.hard0 = t->bl.hard0;
	w.soft0 = t->bl.soft0;
	if (now < w.from || now < t->wake_ns)
		return; /* counted apart by finish() (delays_negative) */
	if (w.exact) /* else a CPU not watched for it (a move not seen): unattributed */
		bpf_loop(LB_BL_RING, bl_segment, &w, 0);
	if (!w.covered) {
		w.ns[LB_BL_UNKNOWN] += w.end > w.from ? w.end - w.from : 0;
		c->beyond++;
	}
	w.ns[LB_BL_ELSEWHERE] = t->bl.else_ns;
	wait = now - t->wake_ns;
	bl_add(&c->all, w.ns, wait);
	cls = lb_valid(t->waker_cpu) ? classify(t->waker_cpu, cpu) : -1;
	if (cls >= 0 && cls < LB_CLASSES)
		bl_add(&c->cls[cls], w.ns, wait);
	ww = wait >> 10;
	c->ww += ww * ww;
	for (int k = 0; k < LB_BL_CAUSES; k++) {
		__u64 x = w.ns[k] >> 10;

		c->sq[k] += x * x;
		c->xw[k] += x * ww;
	}
}

/* A switch as blame sees it: the two tasks' tids and names, the CPU, the clock if read. */
struct bl_sw {
	__u64 now;				/* 0: not read yet */
	int prev_tid, next_tid, cpu, pad;
	char prev_comm[LB_COMM], next_comm[LB_COMM];
};

/*
 * A segment of tid (comm) from start on; start 1, irq times 0: a mark (the task switched
 * in before the CPU was watched: before any wakeup that watches it, its irq time then
 * read there).
 */
static __always_inline void bl_push(struct lb_bl_cpu *c, int tid, const char *comm, __u64 start)
{
	struct lb_bl_seg *s = &c->ring[c->head & (LB_BL_RING - 1)];

	s->start_ns = start;
	s->hard_ns = start > 1 ? c->hard_ns : 0;
	s->soft_ns = start > 1 ? c->soft_ns : 0;
	s->tid = tid;
	__builtin_memcpy(s->comm, comm, LB_COMM);
	c->head++;
}

/*
 * A switch on sw->cpu (t: next's state if tracked, else NULL): a timed wakeup of next is
 * attributed, then next's segment begins, recorded while the CPU is watched. A CPU no
 * wakeup waits for records nothing and reads no clock: its first switch watched records
 * prev as a mark (it ran since before the wakeup: the walk clips it there). A function of
 * its own (verified once, apart from the switch's other work: together they were more
 * than the verifier takes).
 */
__noinline int bl_switch_at(struct lb_tstate *t, struct bl_sw *sw)
{
	struct lb_bl_cpu *c;
	int walk;

	if (!sw)
		return 0;
	c = bl_here();
	if (!c)
		return 0;
	walk = t && t->timed == LB_TIMED_WAIT && t->bl.from_ns;
	if (!walk && !*(volatile __u32 *)&c->watch) {
		if (!c->gap)
			c->gap = 1;
		return 0;
	}
	if (!sw->now)
		sw->now = bpf_ktime_get_ns();
	if (c->gap || !c->head) {
		bl_push(c, sw->prev_tid, sw->prev_comm, 1);
		c->gap = 0;
	}
	if (walk) {
		bl_attribute(c, t, sw->cpu, sw->now);
		t->bl.from_ns = 0;
		bl_unmark(t, c, sw->cpu);
	}
	if (!*(volatile __u32 *)&c->watch) {
		c->gap = 1; /* no other wakeup waits here */
		return 0;
	}
	bl_push(c, sw->next_tid, sw->next_comm, sw->now);
	return 0;
}

/* A switch from prev to next on cpu, for blame (bl_switch_at); *now: read once. */
static __always_inline void bl_switch(struct lb_tstate *t, struct task_struct *prev,
				      struct task_struct *next, int cpu, __u64 *now)
{
	struct bl_sw sw;

	if (!lb_blame_on)
		return;
	sw.now = *now;
	sw.prev_tid = prev->pid;
	sw.next_tid = next->pid;
	sw.cpu = cpu;
	sw.pad = 0;
	__builtin_memcpy(sw.prev_comm, prev->comm, LB_COMM);
	__builtin_memcpy(sw.next_comm, next->comm, LB_COMM);
	bl_switch_at(t, &sw);
	*now = sw.now;
}

/* The irq programs: attached with blame only (user space's autoload). */
SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_irq_entry, int irq, struct irqaction *action)
{
	struct lb_bl_cpu *c = lb_blame_on ? bl_here() : 0;

	if (c)
		c->hard_in = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(on_irq_exit, int irq, struct irqaction *action, int ret)
{
	struct lb_bl_cpu *c = lb_blame_on ? bl_here() : 0;
	__u64 now;

	if (!c || !c->hard_in)
		return 0;
	now = bpf_ktime_get_ns();
	if (now > c->hard_in)
		c->hard_ns += now - c->hard_in;
	c->hard_in = 0;
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_softirq_entry, unsigned int vec)
{
	struct lb_bl_cpu *c = lb_blame_on ? bl_here() : 0;

	if (!c)
		return 0;
	c->soft_in = bpf_ktime_get_ns();
	c->soft_hard0 = c->hard_ns;
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_softirq_exit, unsigned int vec)
{
	struct lb_bl_cpu *c = lb_blame_on ? bl_here() : 0;
	__u64 now, d, nested;

	if (!c || !c->soft_in)
		return 0;
	now = bpf_ktime_get_ns();
	d = now > c->soft_in ? now - c->soft_in : 0;
	nested = c->hard_ns - c->soft_hard0; /* hardirqs within it: theirs */
	c->soft_ns += d > nested ? d - nested : 0;
	c->soft_in = 0;
	return 0;
}

#endif
