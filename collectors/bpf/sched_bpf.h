/* sched_bpf.h - what the in-kernel scheduler aggregator and its user-space reader share. */
#ifndef LOCUS_SCHED_BPF_H
#define LOCUS_SCHED_BPF_H

#define LB_MAX_CPUS 4096	/* the topology table's size */
/*
 * Log-linear buckets of a delay in ns, as model/hist.h's: 16 steps per power of
 * two (a few percent wide); values below 16 ns have a bucket each, values from
 * 2^41 ns (36 minutes) on share the last.
 */
#define LB_SUB_BITS 4
#define LB_TOP_BIT 41
#define LB_BUCKETS ((LB_TOP_BIT - LB_SUB_BITS + 1) << LB_SUB_BITS)
#define LB_CLASSES 5		/* same CPU, SMT, LLC, node, remote (enum locality) */
/* the classes as classify() returns them: enum locality's values (bpf_read.c asserts it) */
#define LB_SAME_CPU 0
#define LB_SMT 1
#define LB_LLC 2
#define LB_NODE 3
#define LB_REMOTE 4
#define LB_COMM 16
/*
 * Idle CPUs are kept for CPUs 0 to LB_IDLE_CPUS - 1 (a mask per pending wakeup):
 * on a larger machine idle CPUs passed over are not measured in the kernel.
 */
#define LB_IDLE_WORDS 16
#define LB_IDLE_CPUS (LB_IDLE_WORDS * 64)

/*
 * Per CPU: its last idle period, written by that CPU's switches only while a timed wakeup
 * waits (idle.bpf.h), one cache line each (read by others at timed wakeups only); whether
 * it is idle now is in its hot line.
 */
struct lb_idle {
	unsigned long long from, to;
	unsigned char pad[48];
} __attribute__((aligned(64)));

/* Per CPU: where it sits; user space fills it before attaching. */
struct lb_cpu {
	int core, llc, node;	/* llc -1: unknown (then same node counts as node) */
	int present;
};

/*
 * Counters, one set per CPU (summed by user space): one per scheduler measure
 * (LB_<field>, declared in model/sched_measures.def; bpf_read.c sums each into its
 * field), then the events seen by type.
 */
enum lb_counter {
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) LB_##field,
#include "../../model/sched_measures.def"
#undef SCHED_MEASURE
	LB_EV_WAKING, LB_EV_WAKEUP, LB_EV_WAKEUP_NEW, LB_EV_SWITCH, LB_EV_MIGRATE, LB_EV_FORK,
	LB_EV_EXIT,
	LB_NR
};

/*
 * The per-CPU aggregate: counters, class tallies, delay histograms, this CPU's
 * time. A per-CPU map value must stay under 32 KiB.
 */
struct lb_pcpu {
	unsigned long long n[LB_NR];
	/* by class (waker, previous and migration CPU to target): the reader's, from the
	 * matrices */
	unsigned long long placement[3];	/* stayed, pulled (lb_hot's), elsewhere: stayed
						 * and elsewhere the reader's, from prev_matrix */
	unsigned long long delay[LB_BUCKETS];	/* wakeups that ran on this CPU */
	unsigned long long delay_class[LB_CLASSES][LB_BUCKETS];
	unsigned long long delay_sum_ns;
	unsigned long long delay_min1;		/* exact: the smallest delay + 1 (0: none yet) */
	unsigned long long delay_max;
	unsigned long long class_min1[LB_CLASSES];
	unsigned long long class_max[LB_CLASSES];
	unsigned long long class_sum_ns[LB_CLASSES];
	unsigned long long tracked_ns;		/* tracked tasks ran here: lb_hot's, added by
						 * the reader */
	/* traced wakeups from this CPU that sent an IPI, or woke a polling idle CPU without
	 * one, by this CPU -> the CPU it went to */
	unsigned long long ipi_class[LB_CLASSES];
	unsigned long long no_ipi_class[LB_CLASSES];
	/* timed wakeups that ran here and waited while an allowed CPU idled (analyzers/idle.h's
	 * rule), by waker -> target class, the wait that overlapped, and the closest idle CPU
	 * (a locality index) */
	unsigned long long idle_passed_class[LB_CLASSES];
	unsigned long long idle_wait_class[LB_CLASSES];
	unsigned long long idle_closest[LB_CLASSES];
};	/* only unsigned long long: user space sums two of them word by word, but the
	 * min1 and max members, which it folds by min and max */

/*
 * What every event touches, one cache line per CPU (the `hot` map, indexed by CPU), and
 * on a second line what every wakeup counts. Written by its CPU only, never reset: the
 * reader takes each count as a total since attach (n[LB_EV_WAKING], n[LB_EV_SWITCH],
 * n[LB_voluntary], n[LB_involuntary], tracked_ns; n[LB_wakeups], placement[PLACE_PULLED],
 * ipi_class and their sum n[LB_wakeups_ipi]; n[LB_delays_untimed] as wakeups - timed).
 * The by-class tallies, the wakeups placed and the other placements are not counted in
 * the programs: the reader sums them from the matrices, counted under the same
 * conditions.
 */
struct lb_hot {
	/* not counts: the traced wakeup this CPU made last, while its try_to_wake_up may still
	 * place it (until this CPU's next event, which places it: `in flight`): its wakee's
	 * tid (0: none), the CPU the wakee was on, the CPU it goes to (that one, or where
	 * sched_migrate_task moved it during the wakeup), its pair cache entry + 1 (0: none) */
	unsigned int fl_tid;
	short fl_prev, fl_target;		/* (CPUs below LB_MAX_CPUS) */
	unsigned int fl_pair;			/* LB_FL_* flags, the pair cache entry */
	unsigned int pace;			/* wakeups until the next timed one (timed()) */
	unsigned int stk_pace;			/* -g: voluntary switch-outs until the next
						 * blocked stack sampled (as pace) */
	unsigned char idle;			/* switched to the idle task last (idle.bpf.h:
						 * read by others at timed wakeups) */
	unsigned char idle_known;		/* a switch here was seen */
	unsigned char pad[2];
	unsigned long long waking, switches, voluntary, involuntary;
	unsigned long long tracked_ns;		/* tracked tasks ran here (their own runtime) */
	/* the second line: once a wakeup */
	unsigned long long wakeups, pulled, timed;
	unsigned long long ipi_class[LB_CLASSES];
} __attribute__((aligned(64)));

/* lb_hot.fl_pair's flags: an IPI came since the wakeup (the first after it is its); that
 * first one was the wakeup's, sent (its class counted in ipi_class when the wakeup is
 * placed), or a polling idle CPU woken without one (no_ipi_class); the rest: the pair
 * cache entry + 1 */
#define LB_FL_IPI 0x80000000u
#define LB_FL_SENT 0x40000000u
#define LB_FL_POLL 0x20000000u
#define LB_FL_PAIR 0x1fffffffu

/*
 * wake_matrix's cells hold their count in the low bits and, in the top LB_MAT_CLS_BITS,
 * the class of their (waker CPU, target CPU), written by user space before attach: the
 * waker's placement reads the class from the line it counts in (no topology lookup).
 */
#define LB_MAT_CLS_SHIFT 61
#define LB_MAT_COUNT ((1ull << LB_MAT_CLS_SHIFT) - 1)

/*
 * Waker -> wakee pairs, counted where the waker runs: each CPU's own small cache per half
 * (LB_PC_WAYS entries, a line each, direct-mapped by the pair), its entries added to the
 * half's pair table when another pair or a new name takes their place, and read by user
 * space with the half. A wakeup after a rename anywhere compares the two names with its
 * entry's, so a pair is named as at its wakeups (an exec, PR_SET_NAME: a new entry).
 */
#define LB_PC_BITS 3
#define LB_PC_WAYS (1 << LB_PC_BITS)

/*
 * A pair cache entry's key: waker tid << 32 | wakee tid (tids are below 2^22, the kernel's
 * PID_MAX_LIMIT), and in the 10 bits above each tid the low 20 bits of the rename
 * generation its names were last compared in: a wakeup whose key and generation match
 * its entry's reads no name (a rename anywhere, task_rename, bumps the generation).
 */
#define LB_PC_TIDS 0x003fffff003fffffull
#define LB_PC_GEN(g) ((((unsigned long long)(g) & 0x3ff) << 22) | \
		      ((((unsigned long long)(g) >> 10) & 0x3ff) << 54))
/* A key's generation back (20 bits), and whether generation a is b's or later (wrapping). */
#define LB_PC_GEN_OF(k) ((unsigned int)((((k) >> 22) & 0x3ff) | ((((k) >> 54) & 0x3ff) << 10)))
#define LB_GEN_GE(a, b) ((((a) - (b)) & 0xfffff) < 0x80000)

/*
 * Read by every waking and every idle transition, written rarely, a line of their own:
 * the half the programs add to (epoch & 1: user space flips it at each read), the rename
 * generation (task_rename), the timed wakeups waiting to run (idle.bpf.h: atomic, twice a
 * timed wakeup, by its waker and its wakee).
 */
struct lb_glob {
	unsigned int epoch;
	unsigned int rename_gen;
	unsigned int idle_watch;
} __attribute__((aligned(64)));

struct lb_pcache {
	unsigned long long key;			/* waker tid << 32 | wakee tid, and the
						 * generation (LB_PC_TIDS, LB_PC_GEN) */
	unsigned int count;			/* wakeups (0: the entry is free) */
	unsigned int by_class[LB_CLASSES];	/* of them, by waker -> target class once
						 * placed */
	char waker_comm[LB_COMM];
	char wakee_comm[LB_COMM];
} __attribute__((aligned(64)));

/*
 * Timing: 1 wakeup in ceil(LB_PACE_PEAK / rate) on each CPU, fixed for the session, so a
 * CPU waking up to LB_PACE_PEAK tasks a second times at most `rate` of them a second
 * (--delay-rate). A busy CPU here wakes about 60,000 a second (pinned ping-pong).
 */
#define LB_PACE_PEAK 100000


/*
 * A waker -> wakee pair (key: waker tid << 32 | wakee tid). Its names are those of the
 * entry flushed with the latest rename generation (a waker that execs on another CPU
 * leaves its old name in that CPU's cache, flushed in no time order): entries of one
 * generation saw no rename between their last wakeups, so they carry the same names.
 */
struct lb_pair {
	unsigned long long count;
	unsigned long long by_class[LB_CLASSES];
	char wakee_comm[LB_COMM];
	char waker_comm[LB_COMM];	/* both as at the latest wakeup (an exec renames);
					 * short-lived wakers stay named */
	unsigned long long gen;		/* the rename generation the names were compared in
					 * (LB_PC_GEN_OF: 0 without task_rename) */
};

/* A task's totals, kept while it lives and copied out when it exits. */
struct lb_task {
	int tid, pid;
	char comm[LB_COMM];
	unsigned long long wakeups, migrations, voluntary, involuntary, run_ns, delays, delay_sum_ns;
};

/*
 * A task's state: in a tid-indexed array slot (LB_SLOTS, the slot's owner is its
 * tid), or in its task storage when another task holds the slot. User space sets
 * the first tracked task's.
 */
#define LB_SLOTS 16384		/* a power of two */

/*
 * -g: stacks sampled in the kernel (stacks.bpf.h). A stack id from the stack table (-1:
 * none), kernel and user apart; the counts aggregate per (stacks, kind, class).
 */
#define LB_STACK_DEPTH 127	/* PERF_MAX_STACK_DEPTH */
#define LB_STACK_OF_TIMED 10	/* a waker stack at 1 in this many timed wakeups (at random),
				 * a blocked one at 1 in this many x the timing's period
				 * voluntary switch-outs: a walk costs microseconds */
#define LB_STACK_ENTRIES 16384	/* distinct stacks the table holds (kernel and user) */
#define LB_STK_WAKERS 0		/* enum stacks_kind's values (bpf_stacks.c asserts it) */
#define LB_STK_BLOCKED 1
#define LB_STK_OFFWAKE 2
#define LB_STK_NO_WAKEUP LB_CLASSES	/* ran again with no wakeup seen (STACKS_NO_WAKEUP) */

/* The stack table's next id (stacks.bpf.h). */
struct lb_stk_next {
	unsigned int next;
} __attribute__((aligned(64)));

/* A stack in the table (and in each CPU's buffer while it is walked): id, frames. */
struct lb_stk_ips {
	unsigned int id, n;
	unsigned long long ip[LB_STACK_DEPTH];
};

struct lb_stk_key {
	int kstack, ustack;	/* wakers: the waker's; blocked, offwake: the blocked task's */
	int wk_kstack, wk_ustack;	/* offwake: the waker's; else -1 */
	int tgid, wk_tgid;	/* whose user stacks they are */
	unsigned char kind, cls;
	unsigned short pad;
};

struct lb_stk_val {
	unsigned long long count, time_ns;	/* samples, their off-CPU time (blocked) */
};

/* Per CPU: what the sampling did (read once, at the end). */
enum lb_stk_stat {
	LB_STK_TAKEN_WAKER, LB_STK_TAKEN_BLOCKED, LB_STK_TAKEN_OFFWAKE,
	LB_STK_ENOMEM,		/* the stack table was full: the sample dropped */
	LB_STK_EOTHER,		/* the walk's error (bpf_get_stack) */
	LB_STK_FULL,		/* the counts table was full */
	LB_STK_LOST,		/* a blocked sample whose task did not run before its next one */
	LB_STK_NR
};

#define LB_STK_F_BLOCKED 1	/* stk.blk_on: a sampled sleep pending */
#define LB_STK_F_WAKER 2	/* stk.wk_on: a sampled waker stack pending */

/* A task's sampled stacks: only touched where a sample is taken or pending. */
struct lb_stk_state {
	int wk_k, wk_u, wk_tgid;	/* the timed wakeup's waker stack (wakers) */
	int blk_k, blk_u, blk_tgid;	/* the blocked stack at a sampled switch-out */
	int ow_k, ow_u, ow_tgid;	/* the waker's at the wakeup that ended that sleep */
	int ow_cpu;			/* that wakeup's CPU */
	unsigned char wk_on, blk_on, ow_on, blk_in, blk_cls;
	unsigned char woken;		/* that wakeup came (ow_cpu holds) */
	unsigned char pad[2];
	unsigned long long out_ns, in_ns;	/* the sampled sleep's switch-out and -in */
};

/*
 * Blame (--sections blame, blame.bpf.h): each CPU's recent run segments, written at its
 * switches while a timed wakeup waits for it, walked back from a timed wakeup's switch-in
 * to its wakeup. The causes are analyzers/blame.h's enum blame_cause (bpf_blame.c asserts
 * it).
 */
#define LB_BL_RING 128		/* run segments kept per CPU (a power of two) */
#define LB_BL_CAUSES 7		/* running, ahead, hardirq, softirq, elsewhere, idle, unknown */
#define LB_BL_RUNNING 0
#define LB_BL_AHEAD 1
#define LB_BL_HARDIRQ 2
#define LB_BL_SOFTIRQ 3
#define LB_BL_ELSEWHERE 4
#define LB_BL_IDLE 5
#define LB_BL_UNKNOWN 6
#define LB_BL_CULPRITS 8192	/* tasks to blame kept (a per-CPU hash) */
#define LB_BL_SEEN 8		/* distinct tasks a wakeup's walk counts a wakeup for */

/* A task's blame state: the timed wakeup's wait still to attribute. */
struct lb_bl_task {
	unsigned long long from_ns;	/* the wait on its current CPU began (0: none pending) */
	unsigned long long else_ns;	/* queued on CPUs it then moved away from */
	/* the irq time of its previous CPU so far at the wakeup, a handler running then
	 * included (read from there): exact where the wait began inside a segment there */
	unsigned long long hard0, soft0;
	int cpu0;			/* that CPU (-1: not read) */
	int mark;			/* the CPU it watches + 1 (0: none): see lb_bl_cpu */
};

/*
 * A run segment: a task switched in on this CPU. Start 1 (a mark): the task switched out
 * at the next segment's start, switched in at a switch not recorded (the CPU unwatched).
 */
struct lb_bl_seg {
	unsigned long long start_ns;
	unsigned long long hard_ns, soft_ns;	/* the CPU's irq time so far at its start (0:
						 * a mark's) */
	int tid;				/* 0: the idle task */
	int pad;
	char comm[LB_COMM];
};

/* Waits split by cause. */
struct lb_bl_split {
	unsigned long long wakeups, wait_ns;
	unsigned long long ns[LB_BL_CAUSES];
};

/*
 * Per CPU (a per-CPU array of one): its irq time, its run segments, what it attributed.
 * A CPU is watched while timed wakeups wait for it (a waker adds one, the wakee's
 * switch-in, or its move to another CPU, takes it off): only then are its switches
 * recorded; the others test `watch` only (no clock read, nothing written but `gap`).
 */
struct lb_bl_cpu {
	unsigned int watch;			/* timed wakeups waiting for this CPU (atomic:
						 * other CPUs add) */
	unsigned int gap;			/* a switch since the newest segment was not
						 * recorded */
	unsigned long long hard_ns, soft_ns;	/* handlers' time on this CPU so far */
	unsigned long long hard_in, soft_in;	/* the running handler's entry (0: none) */
	unsigned long long soft_hard0;		/* hard_ns at the softirq's entry */
	unsigned long long head;		/* segments written */
	struct lb_bl_seg ring[LB_BL_RING];
	struct lb_bl_split all;			/* timed wakeups that ran here */
	struct lb_bl_split cls[LB_CLASSES];	/* of them by waker -> this CPU's class */
	/* for the shares' intervals, in units of (ns / 1024)^2: each cause's x^2 and x * w,
	 * and w^2, over the wakeups (w: a wakeup's wait) */
	unsigned long long sq[LB_BL_CAUSES], xw[LB_BL_CAUSES], ww;
	unsigned long long beyond;		/* waits that began before the ring's oldest */
	unsigned long long culprits_dropped_ns;	/* ran instead by a task the table had no room for */
};

/* A task that ran on a waiting wakee's CPU (the culprits map: tid -> per CPU). */
struct lb_bl_culprit {
	unsigned long long running_ns, ahead_ns, wakeups;
	char comm[LB_COMM];
};

/* lb_tstate.on: the task's last switch seen by on_switch */
enum { LB_ON_IN = 1, LB_ON_OUT = 2 };

/* lb_tstate.timed: a timed wakeup waits to run, or ran (counted at its switch-out) */
enum { LB_TIMED_WAIT = 1, LB_TIMED_RAN = 2 };

/*
 * A task's state, a line for each writer: its identity (every waker reads it), its own
 * switches' (its CPU's: a waker reads or writes it only where the kernel's own fields of
 * the task leave unclear whether it runs, and at a timed wakeup, 1 in timed_every), a
 * timed wakeup's (written by its waker, then by the task's own switches). An untimed
 * wakeup and a switch touch the first two lines only (one 128-byte pair).
 */
struct lb_tstate {
	/* line 0: who it is, written when it is first seen */
	int owner;				/* a slot's task (0: free) */
	unsigned char overflow;			/* a slot: some task with its index is in storage
						 * (set by other CPUs: lb_retire() keeps it, and owner) */
	unsigned char tracked, known;
	unsigned char sw_seen;			/* a switch of it was seen: on and wake_run hold */
	unsigned char stk_flags;		/* -g: LB_STK_F_*: stk's line is read only when set */
	unsigned char woke_in;			/* woken while it still ran (a waker said, on
						 * this line, which every waker reads): a sleep
						 * it switches out to before it runs again is no
						 * wakeup's, until a waker finds it asleep */
	unsigned char pad0[54];
	/* line 1: its own switches' */
	unsigned char on;			/* its last switch seen: LB_ON_IN or LB_ON_OUT
						 * (0: none seen yet) */
	unsigned char wake_run;			/* its next switch-in ends a wakeup: it switched
						 * out to sleep, or a waker found it preempted */
	unsigned char timed;			/* LB_TIMED_WAIT, LB_TIMED_RAN (0: none): set by a
						 * timed wakeup's waker */
	unsigned char moved;			/* woken, then moved before it ran */
	int last_cpu;				/* where it last ran (-1: not known) */
	int moved_from;				/* where its wakeup had placed it, when moved */
	int pad1;
	unsigned long long last_sum;		/* se.sum_exec_runtime at its last switch-out */
	unsigned long long wakeups, voluntary, involuntary, run_ns;	/* st's, counted here */
	unsigned long long pad1b;
	/* line 2: its timed wakeup's */
	unsigned char idle_watching;		/* that wakeup holds glob.idle_watch */
	unsigned char pad2[3];
	int waker_cpu, prev_cpu, target_cpu;	/* where it was woken, where it was, where it
						 * went (a move during the wakeup) */
	unsigned long long wake_ns, in_ns;	/* the waking, its switch-in after it */
	unsigned long long pad3[4];
	unsigned long long idle_at_wake[LB_IDLE_WORDS];	/* the idle CPUs at a timed wakeup */
	struct lb_stk_state stk;		/* -g's samples (a line of its own) */
	struct lb_bl_task bl;			/* blame's (a line of its own) */
	struct lb_task st;			/* st.wakeups, voluntary, involuntary, run_ns:
						 * counted above, copied at its end */
} __attribute__((aligned(64)));

#endif
