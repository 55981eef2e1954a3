/* blame_int.h - the blame analyzer's per-CPU history and task records (not a public header). */
#ifndef LOCUS_BLAME_INT_H
#define LOCUS_BLAME_INT_H

#include "blame.h"

/* A task's stretch on a CPU, closed by its switch-out (tid 0: the idle task). */
struct bl_seg {
	uint64_t from, to;
	int32_t tid;
	char comm[TASK_COMM_LEN];
};

/* An interrupt handler's stretch on a CPU (a hardirq within a softirq cuts it in two). */
struct bl_piece {
	uint64_t from, to;
	int16_t irq;		/* its row of blame_results.irqs, -1: beyond them */
	bool soft;
};

struct bl_cpu {
	int32_t tid;		/* running since `since` (known: a switch was seen) */
	char comm[TASK_COMM_LEN];
	uint64_t since, seen;	/* seen: its last event there */
	bool known;
	uint64_t switches;	/* switches seen: a waker that switched out is no longer in ttwu */
	uint64_t kept_from;	/* history before this was forgotten */
	struct bl_seg *seg;	/* [head, n) closed, in time order */
	int head, n, cap;
	struct bl_piece *pc;
	int phead, pn, pcap;
	bool hard_on, soft_on;
	int16_t hard_irq, soft_irq;
	uint64_t hard_since, soft_since;
};

struct bl_path {
	int n;
	struct blame_link link[BLAME_CHAIN_MAX];
};

struct bl_task {
	int32_t tid;
	bool running;
	bool pending;		/* a wakeup waits for its switch-in */
	bool wakeup_seen;	/* its sched_wakeup came (try_to_wake_up is over) */
	bool live;		/* ran from a wakeup and has not blocked since: it extends
				 * its chain to the tasks it wakes */
	int32_t waker_tid, waker_cpu;
	uint64_t waker_switches;	/* its CPU's switches at the wakeup */
	uint64_t wake_ns, q_since, elsewhere_ns;
	char comm[TASK_COMM_LEN];
	struct bl_path path;	/* pending: its chain, itself last; live: as it ran */
};

/* Every timed wakeup's wait, its causes, and the tasks that ran in it (for the p99 share). */
struct bl_p99 {
	struct bl_wk {
		uint64_t wait_ns;
		uint64_t ns[BC_NR];
		uint32_t first, n;	/* its rows of ran */
	} *wk;
	size_t nwk, cap_wk;
	struct bl_ran {
		int32_t culprit;
		uint64_t ns;
	} *ran;
	size_t nran, cap_ran;
	bool over;		/* more than BLAME_P99_MAX: not computed */
};

/* blame_irq.c: an irq tracepoint's event on c (a hardirq within a softirq cuts it). */
void bl_on_irq(struct blame *b, struct bl_cpu *c, const struct event *e);

/* blame_tables.c */
void bl_p99_add(struct blame *b, const uint64_t ns[BC_NR], uint64_t wait,
		const struct bl_mine *mine, int n);
void bl_chain_offer(struct blame *b, const struct bl_path *p, uint64_t run_ns);
void bl_tables_finish(struct blame *b);

#endif
