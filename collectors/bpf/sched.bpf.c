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
#include "core.bpf.h" /* the settings, lines, maps and helpers of every program */
#include "idle.bpf.h" /* idle CPUs passed over: its maps and programs' helpers */
#include "tasks.bpf.h" /* each task's state, its retirement, the pairs */

char LICENSE[] SEC("license") = "GPL";

/*
 * The waker -> target cell of this CPU's own row counted, and the class of the two CPUs
 * returned: user space wrote it in the cell's top bits (the line counted in is the only
 * one read). -1 when the cell is not there.
 */
static __always_inline int place_cell(int row, int col)
{
	__u32 k = (__u32)row * mat_stride + (__u32)col;
	__u64 *v = bpf_map_lookup_elem(&wake_matrix, &k);

	if (!v)
		return -1;
	*v += 1;
	return (int)(*v >> LB_MAT_CLS_SHIFT);
}

/*
 * The wakeup this CPU made last is placed: its try_to_wake_up is over (this CPU has an
 * event again). Counted here, in this CPU's own lines: the
 * waker -> target cell (the by-class tallies and the wakeups placed are the reader's, from
 * the matrix), pulled, the pair's class, and the class of the IPI that on_ipi marked as
 * the wakeup's. The previous -> target matrix is the wakee's, at its switch-in.
 */
static __always_inline void close_flight(struct lb_hot *h, __u32 cpu)
{
	int target = h->fl_target, prev = h->fl_prev, cls = -1;
	__u32 fl = h->fl_pair, pair = fl & LB_FL_PAIR;
	struct lb_pcache *e;
	struct lb_pcpu *c;

	if (!h->fl_tid)
		return;
	h->fl_tid = 0;
	if (!lb_valid(target) || !lb_valid((int)cpu))
		return;
	if (!LOCUS_NO_PLACE)
		cls = place_cell((int)cpu, target);
	else if (fl & (LB_FL_SENT | LB_FL_POLL))
		cls = classify((int)cpu, target);
	if (cls < 0 || cls >= LB_CLASSES)
		return;
	if (fl & LB_FL_SENT) { /* n[LB_wakeups_ipi]: the reader's sum of the classes */
		h->ipi_class[cls]++;
	} else if (fl & LB_FL_POLL) {
		c = cold(glob.epoch & 1);
		if (c)
			c->no_ipi_class[cls]++;
	}
	if (LOCUS_NO_PLACE)
		return;
	if (target != prev && cls <= LB_LLC)
		h->pulled++;
	if (!pair)
		return;
	pair--;
	e = bpf_map_lookup_elem(&pcache, &pair);
	if (e && e->count) /* (a reader may have emptied it after a flip: lost) */
		e->by_class[cls]++;
}

#include "stacks.bpf.h" /* -g: stacks sampled, counted here */
#include "blame.bpf.h" /* --sections blame: who delayed the wakee */

/* Set by user space before load: time 1 wakeup in this many, on average; <= 1: all. */
const volatile unsigned int timed_every = 0;

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

	if (LOCUS_NO_TIMING)
		return 0;
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
	t = lb_tracked(p);
	if (!t)
		return 0;
	/* off CPU and dequeued (or its dequeue delayed): it switched out to sleep, and its
	 * line says so; the kernel reads these fields next (a line this one brings in) */
	if (!t->sw_seen || p->on_cpu || (p->on_rq && !sched_delayed(p))) {
		if (still_runs(t, p)) {
			c = cold(glob.epoch & 1); /* the wakeup only sets it running again */
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
	if (!LOCUS_NO_PAIRS)
		pair_note(h, cpu, glob.epoch & 1, p);
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
	__u32 self = bpf_get_smp_processor_id();
	struct lb_hot *h = hot_line(self);
	struct lb_pcpu *c;
	__u32 fl;

	if (LOCUS_NO_IPI || !h)
		return;
	/* the first after the wakeup is its, or none is; the wakeup stays in flight, placed
	 * (and this IPI counted by its class) at this CPU's next event (the waker's
	 * switch-out as a rule: off the wakee's path) */
	fl = h->fl_pair;
	if (h->fl_tid && !(fl & LB_FL_IPI)) {
		fl |= LB_FL_IPI;
		if (dest == h->fl_target && dest != (int)self && lb_valid(dest)) {
			h->fl_pair = fl | (polling ? LB_FL_POLL : LB_FL_SENT);
			return;
		}
		h->fl_pair = fl;
	}
	if (polling || !lb_tracked(bpf_get_current_task_btf()))
		return;
	c = cold(glob.epoch & 1);
	if (!c)
		return;
	if (call)
		c->n[LB_ipis_call_other]++;
	else
		c->n[LB_ipis_resched_other]++;
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
	if (lb_tracked(p))
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
	struct lb_pcpu *c = cold(glob.epoch & 1);
	struct lb_tstate *t;
	int orig, ttwu;

	if (!h || !c)
		return 0;
	c->n[LB_EV_MIGRATE]++;
	t = lb_tracked(p);
	if (!t)
		return 0;
	orig = task_cpu(p);
	if (!LOCUS_NO_MIGRATE) {
		c->n[LB_migrations]++;
		if (!LOCUS_NO_TASKS)
			t->st.migrations++;
		if (lb_valid(orig) && lb_valid(dest)) /* mig_by_class: the reader's, from the matrix */
			matrix_shared(&mig_matrix, dest, orig);
	}
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

/* A timed wakeup that ran, taken off its task's line (struct lb_tstate) at its switch-out. */
struct lb_ran {
	__u64 wake_ns, in_ns;
	int waker_cpu, target_cpu;
};

/*
 * Its first run ends: what its delay needs copied, the line free for the next wakeup
 * before the switch-out says the task is out (a waker that sees it out may time its next
 * one in the same fields at once). The wakers' stack, kept on the line, is counted here.
 */
static __always_inline void take_timed(struct lb_tstate *t, struct lb_ran *r)
{
	r->wake_ns = t->wake_ns;
	r->in_ns = t->in_ns;
	r->waker_cpu = t->waker_cpu;
	r->target_cpu = t->target_cpu;
	if (stack_every && (t->stk_flags & LB_STK_F_WAKER) && lb_valid(r->waker_cpu) &&
	    lb_valid(r->target_cpu))
		stk_wakee_ran(t, classify(r->waker_cpu, r->target_cpu));
	t->timed = 0;
}

/* Its delay, by the class of its waker -> target: after the switch-out said it is out. */
static __always_inline void count_timed(__u32 half, struct lb_tstate *t, const struct lb_ran *r)
{
	struct lb_pcpu *c = cold(half);
	__u64 d, k;
	int cls;

	if (!c)
		return;
	if (r->in_ns < r->wake_ns) {
		/* switched in before the wakeup's time: two clocks disagreed. Not a delay:
		 * counted apart */
		c->n[LB_delays_negative]++;
		return;
	}
	cls = lb_valid(r->waker_cpu) && lb_valid(r->target_cpu) ?
		      classify(r->waker_cpu, r->target_cpu) : -1;
	d = r->in_ns - r->wake_ns;
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
	if (!LOCUS_NO_TASKS) {
		t->st.delays++;
		t->st.delay_sum_ns += d;
	}
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
	if (!LOCUS_NO_TASKS)
		t->wakeups++;
	if (t->moved) {
		t->moved = 0;
		target = t->moved_from;
		if (target != cpu) {
			c = cold(glob.epoch & 1);
			if (c)
				c->n[LB_moved_before_run]++;
		}
	}
	if (!LOCUS_NO_PLACE && lb_valid(t->last_cpu) && lb_valid(target)) {
		if (target == cpu)
			matrix_own(&prev_matrix, target, t->last_cpu);
		else
			matrix_shared(&prev_matrix, target, t->last_cpu);
	}
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
	c = cold(glob.epoch & 1);
	if (c)
		lb_idle_check(c, t, p, t->target_cpu, *now);
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

/*
 * Tracked t (prev) switches out on cpu: its switch counted, its run time, what comes next.
 * The line says it is out as early as it can: a wakeup before that is counted as one of a
 * task still running, and the kernel (and perf's file, by its switch's time) sees a task
 * on its way to sleep, dequeued (a clean clone's bpf.sh: 210 such vs the file's 142 of
 * 39,979 when the delay's accounting came first).
 */
static __always_inline void switched_out(void *ctx, struct lb_hot *h, struct lb_tstate *t,
					 struct task_struct *prev, int cpu, int preempt,
					 unsigned int prev_state)
{
	/* read before its line says it is out: a waker that sees it out (and so counts a
	 * wakeup) changes the state after that, and one that saw it in has changed it, or
	 * said so (woke_in), by now */
	unsigned int state_now = *(volatile unsigned int *)&prev->__state;
	/* the kernel's own rule (__schedule: nvcsw when !preempt && prev_state), on the state
	 * it read before the switch: prev->__state, read here, may already be TASK_WAKING or
	 * TASK_RUNNING again when a wakeup raced the switch */
	int vol = !preempt && prev_state != TASK_RUNNING;
	struct lb_ran ran = {};
	int done;
	__u64 sum;

	if (t->on != LB_ON_IN && (t->wake_run || t->timed == LB_TIMED_WAIT))
		wakeup_ran_unseen(t, cpu);
	/* the timed wakeup that ran is taken off the line before the line says it is out: a
	 * waker that then sees it out may time its next wakeup in the same fields (a
	 * ping-pong's partner does, microseconds later: up to 7 in 40,000 were lost when this
	 * came after). barrier() orders the compiler only: x86 keeps stores in program order;
	 * a weakly ordered CPU (arm64) would need a release store here. */
	done = t->timed == LB_TIMED_RAN;
	if (done)
		take_timed(t, &ran);
	barrier();
	t->on = LB_ON_OUT;
	t->last_cpu = cpu;
	/* asleep: its next switch-in ends a wakeup, unless one came while it still ran (a
	 * waker said so, or the state the scheduler read is no longer its state) */
	t->wake_run = vol && !(prev_state & TASK_DEAD) && !t->woke_in && state_now == prev_state;
	if (!t->sw_seen)
		t->sw_seen = 1;
	if (vol) {
		h->voluntary++;
		if (!LOCUS_NO_TASKS)
			t->voluntary++;
	} else {
		h->involuntary++;
		if (!LOCUS_NO_TASKS)
			t->involuntary++;
	}
	/* the scheduler's own account of the time it just ran: no clock read (no switch-in
	 * of it comes before this program ends: the kernel waits for it to be off the CPU) */
	sum = prev->se.sum_exec_runtime;
	if (sum > t->last_sum) {
		if (!LOCUS_NO_TASKS)
			t->run_ns += sum - t->last_sum;
		h->tracked_ns += sum - t->last_sum;
	}
	t->last_sum = sum;
	if (done)
		count_timed(glob.epoch & 1, t, &ran);
	stk_switch_out(ctx, h, t, vol && !(prev_state & TASK_DEAD));
	if (prev_state & TASK_DEAD)
		lb_retire(glob.epoch & 1, t, prev);
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
	t = prev_pid ? lb_tracked(prev) : 0;
	if (t) /* first: its line says out as soon as it can (switched_out) */
		switched_out(ctx, h, t, prev, (int)cpu, preempt, prev_state);
	close_flight(h, cpu);
	t = next_pid ? lb_tracked(next) : 0;
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
	idle_note(h, cpu, next_pid == 0, &now);
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
	if (pt && pt->tracked && !state(child, 1, 1))
		c->n[LB_tasks_unfollowed]++; /* task storage busy on this CPU, or no memory */
	return 0;
}

/*
 * A task's name changes (exec, PR_SET_NAME, /proc/PID/comm; the name is copied just after
 * this): the pair caches compare their entries' names again at their next wakeup. A
 * wakeup of that task on another CPU in the few ns before the copy keeps its entry's old
 * name until the next rename or the entry's read (one reader interval at most).
 */
SEC("tp_btf/task_rename")
int BPF_PROG(on_rename, struct task_struct *task, const char *comm)
{
	__sync_fetch_and_add(&glob.rename_gen, 1);
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
