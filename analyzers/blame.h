/*
 * blame.h - who delayed the wakee: each timed wakeup's wake-to-run interval itemized.
 *
 * A wakeup's wait runs from its wakeup (sched_waking, else sched_wakeup) to the wakee's
 * switch-in. It is split, without overlap, into:
 *  - waited elsewhere first: queued on a CPU it then moved away from (a migration after
 *    the wakeup placed it: not the one try_to_wake_up makes in the waker's context, with
 *    no switch on the waker's CPU since the wakeup), from the wakeup (or the previous such
 *    move) to the move, as perf sched timehist -P;
 *  - on the CPU where it ran, from the wakeup (or the last such move) to the run:
 *    - ran instead: each other task that ran there, its time less the interrupts within
 *      it; "running" when it was on that CPU when the wait there began (not preempted for
 *      the wakee), "ahead" when it was switched in during the wait;
 *    - hardirq and softirq: the handlers' time there (irq:irq_handler_entry/exit,
 *      irq:softirq_entry/exit), by name; a hardirq within a softirq counts once, as
 *      hardirq;
 *    - its CPU idle: the idle task ran there (waking it up from idle);
 *  - the remainder: the time no record covers (before the CPU's first switch, beyond the
 *    history kept), stated, never spread.
 * Beside the split, not part of it: the wait during which an allowed CPU was idle (the
 * wakeup analyzer's idle passed over, told through wakeup_cfg.verdict), and the chain:
 * when the waker had itself been woken and not blocked since, the wakee's chain is the
 * waker's plus itself (distinct tasks: coming back to a task in it restarts the chain
 * there), its length in tasks and its compound delay, the waits of its wakeups summed.
 */
#ifndef LOCUS_BLAME_H
#define LOCUS_BLAME_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/tidmap.h"
#include "../model/event.h"
#include "../model/topology.h"
#include "idle.h"

enum blame_cause {
	BC_RUNNING,	/* a task that was already running there */
	BC_AHEAD,	/* a task picked ahead of the wakee */
	BC_HARDIRQ,
	BC_SOFTIRQ,
	BC_ELSEWHERE,	/* queued on a CPU it then moved away from */
	BC_IDLE,	/* its CPU ran the idle task */
	BC_UNKNOWN,	/* no record covers it: unattributed */
	BC_NR
};

/* Short names ("running", ... the JSON keys) and words for reports. */
const char *blame_cause_name(enum blame_cause c);
const char *blame_cause_label(enum blame_cause c);

/* Waits split by cause, over a set of wakeups. */
struct blame_split {
	uint64_t wakeups;
	uint64_t wait_ns;		/* the sum of ns[] */
	uint64_t ns[BC_NR];
	uint64_t idle_passed;		/* of them, passed over an idle allowed CPU */
	uint64_t idle_passed_ns;	/* their wait while one idled (beside the split) */
};

/* A task that ran while woken tasks waited. */
struct blame_culprit {
	int32_t tid;
	char comm[TASK_COMM_LEN];	/* its name when it last ran instead */
	uint64_t ns;			/* wait inflicted: running + ahead */
	uint64_t running_ns, ahead_ns;
	uint64_t wakeups;		/* wakeups it delayed */
	uint64_t p99_ns;		/* within the p99 wakeups' waits */
};

/* An interrupt handler that ran while woken tasks waited. */
struct blame_irq {
	bool soft;
	int32_t num;			/* irq number or softirq vector */
	char name[IRQ_NAME_LEN];	/* handler name, or the softirq's (NET_RX, TIMER) */
	uint64_t ns;
	uint64_t wakeups;		/* wakeups it delayed */
};

#define BLAME_CHAIN_MAX 8	/* tasks followed in a chain (the last ones kept) */
struct blame_chain {
	int len;			/* tasks, waker first (a wakeup from the idle task's
					 * context, an interrupt: the wakee alone) */
	uint64_t compound_ns;		/* its wakeups' waits summed */
	uint64_t run_ns;		/* when its last task ran */
	struct blame_link {
		int32_t tid;
		char comm[TASK_COMM_LEN];
		uint64_t delay_ns;	/* the wait of the wakeup that woke it (0: the first) */
	} link[BLAME_CHAIN_MAX];
};

#define BLAME_WORST 5
#define BLAME_IRQS 64
#define BLAME_P99_MAX 4000000	/* wakeups kept for the p99 share (beyond: not computed) */

struct blame_results {
	bool irq_source;		/* the stream has the irq tracepoints */
	int ncpus;
	struct blame_split all;
	struct blame_split by_class[LOC_NR];	/* by the CPU it ran on, seen from its waker's */
	struct blame_split *cpu;		/* by the CPU it ran on */
	struct blame_culprit *culprits;	/* by ns, most first (after blame_finish) */
	int nculprits;
	struct blame_irq irqs[BLAME_IRQS];	/* by ns, most first */
	int nirqs;
	uint64_t irq_other_ns;		/* handlers beyond BLAME_IRQS names */
	/* the p99 wakeups: wait >= p99_ns (exact, over every timed wakeup) */
	bool p99_known;
	bool p99_off;			/* not asked for (blame_cfg.no_p99) */
	uint64_t p99_ns, p99_wakeups, p99_wait_ns;
	uint64_t p99_ns_by[BC_NR];
	/* chains */
	uint64_t chain_len[BLAME_CHAIN_MAX + 1];	/* timed wakeups by chain length */
	struct blame_chain worst[BLAME_WORST];	/* three tasks or more, by compound delay */
	int nworst;
	/* what was not attributed, and why */
	uint64_t beyond_history;	/* wakeups whose wait began before the history kept */
	uint64_t untimed;		/* wakeups whose switch-in was not seen */
	uint64_t verdicts_unmatched;	/* idle verdicts for a wakeup not timed here */
	/*
	 * Split in the kernel by the BPF collector (collectors/bpf/blame.bpf.h): only the
	 * timed wakeups, 1 in sample_every, each cause's share of the wait with a 95%
	 * interval over the wakeups sampled (share_lo, share_hi); interrupts by kind, not by
	 * handler; no chains and no p99 share; culprits_dropped_ns ran instead by tasks its
	 * table had no room for (in the causes, in no task's row).
	 */
	bool in_kernel;
#define BLAME_KERNEL_RING 128	/* run segments a CPU keeps (LB_BL_RING: src_bpf_blame.c) */
	unsigned sample_every;
	double share_lo[BC_NR], share_hi[BC_NR];
	uint64_t culprits_dropped_ns;
};

/* One timed wakeup's split as the analyzer tells it (blame_cfg.told): a timeline's flow. */
struct blame_told {
	int32_t tid;
	uint64_t wake_ns, run_ns;
	uint64_t ns[BC_NR];
	int32_t top_tid;		/* the task that ran the longest instead (0: none) */
	char top_comm[TASK_COMM_LEN];
	uint64_t top_ns;
};

struct blame_cfg {
	const struct topology *topo;
	bool waking_source;		/* wakeups from sched_waking, else sched_wakeup */
	bool irq_source;		/* the irq tracepoints are in the stream */
	bool verdicts;			/* blame_verdict will be told each wakeup's */
	/* whether tid's wakeups count (NULL: every task's) */
	bool (*tracks)(void *ctx, int32_t tid);
	void *tracks_ctx;
	/* told each timed wakeup's split at its run (NULL: none) */
	void (*told)(void *ctx, const struct blame_told *t);
	void *told_ctx;
	bool no_p99;			/* keep no record of each wakeup: no p99 share (a live
					 * dashboard, watched for hours: its memory stays flat) */
};

#define BLAME_KEEP_NS 2000000000ull	/* each CPU's history kept this long */

struct bl_cpu;
struct bl_task;
struct bl_p99;

struct blame {
	struct blame_cfg cfg;
	struct blame_results r;
	struct bl_cpu *cpu;
	struct tidmap task_idx;
	struct bl_task *tasks;
	int ntasks, cap_tasks;
	struct tidmap culprit_idx;
	int cap_culprits;
	/* the verdicts to come: attributed wakeups in the order of their runs */
	struct bl_told {
		int32_t tid, cpu;
		uint8_t cls;
		uint64_t wake_ns;
	} *told;
	int told_head, ntold, cap_told;
	struct bl_p99 *p99;		/* every timed wakeup's wait and who ran in it */
	/* scratch of one attribution: the segments in the wait and their net time */
	struct bl_hit {
		int seg;
		uint64_t ns;
	} *hit;
	int cap_hit;
	struct bl_mine {		/* and the distinct tasks that ran in it */
		int32_t culprit;
		uint64_t ns;
	} *mine;
	int cap_mine;
	uint64_t last_ns;
};

void blame_init(struct blame *b, const struct blame_cfg *cfg);
/* One event, in time order (sched and irq types; others are ignored). */
void blame_add(struct blame *b, const struct event *e);
/* The wakeup analyzer's judgement of a wakeup (wakeup_cfg.verdict), in the order of runs. */
void blame_verdict(struct blame *b, const struct idle_told *v);
/* End of stream: tables sorted, the p99 share and the worst chains. */
void blame_finish(struct blame *b);
/* Valid after blame_finish, owned by b. */
const struct blame_results *blame_results(const struct blame *b);
void blame_release(struct blame *b);

#endif
