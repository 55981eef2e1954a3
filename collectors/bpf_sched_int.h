/* bpf_sched_int.h - the BPF collector's state, shared by its loader and its reader. */
#ifndef LOCUS_BPF_SCHED_INT_H
#define LOCUS_BPF_SCHED_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/u64map.h"
#include "bpf/sched_bpf.h"
#include "../common/topk.h"
#include "sched.skel.h" /* build/bpf: the skeleton */

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* A file mapping of a process whose stacks were sampled (its /proc/PID/maps). */
struct bpf_stack_map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *path;
};

/* A pair's counts read so far (the kernel's table is reset each read). */
struct pair_acc {
	uint64_t key;		/* waker tid << 32 | wakee tid */
	uint64_t drain;		/* the read its names are from (b->drains then) */
	struct lb_pair v;
};

#define BPF_PAIRS_KEPT 65536	/* pair slots user space keeps over a session */

struct bpf_sched {
	struct locus_sched *skel;
	const struct topology *topo;
	int ncpus;		/* the topology's */
	int nposs;		/* possible CPUs: per-CPU map values */
	uint64_t *mat[3];	/* wake (row: the waker's CPU), prev, mig (transposed, row: the
				 * target CPU): mapped */
	size_t mat_len;
	int mat_stride;		/* a row's length: ncpus rounded up to 8 (a line per row) */
	struct lb_hot *hot;	/* mapped: nposs, totals since attach */
	size_t hot_len;
	struct lb_hot *hot_snap;/* nposs: as copied at the last flip */
	struct lb_pcache *pcache;	/* mapped: nposs x 2 halves x LB_PC_WAYS */
	size_t pcache_len;
	struct lb_pcpu *pc;	/* nposs values: one half as read */
	struct lb_pcpu *acc;	/* nposs values: the halves read so far, summed */
	size_t pc_stride;
	struct task_top retired;/* the busiest tasks whose totals left `done` (and `seen`) */
	struct topk pairk;	/* the pairs read so far: the busiest by Filtered Space-Saving */
	struct pair_acc *pairs;	/* per slot: names and classes since the slot was given */
	int cap_pairs;
	uint64_t drains;	/* the reads of a half so far */
	uint64_t t0;		/* CLOCK_MONOTONIC (the kernel's ktime) at attach */
	uint64_t t_end;		/* at detach, or 0 */
	uint64_t *busy0, *idle0;/* /proc/stat per CPU at attach, ns */
	uint64_t *busy1, *idle1;/* and at detach (NULL before) */
	long delay_rate;	/* the configured timing limit */
	int max_pairs;		/* pairs kept over the session (0: BPF_PAIRS_KEPT) */
	int max_tasks;		/* rows of the task table, retired ones included (0: no bound
				 * but the kernel's tables) */
	unsigned char *cpu_on;	/* ncpus: the CPUs whose events are counted */
	int idle_words;		/* words of the programs' idle-CPU masks; 0: not kept */
	int stats_fd;		/* BPF_ENABLE_STATS: run-time statistics while open (-1: none) */
	struct bench_pause *pause; /* LOCUS_BENCH_PAUSE (make bench only): detached on command */
	bool detached;		/* by that command */
	char stats_why[96];	/* why there are none */
	unsigned int cost_tick;	/* reader ticks, from a random phase: a window each BPF_COST_EVERY */
	uint64_t win_t0, win_runs0, win_ns0;	/* the open window's start: time, the kernel's counts */
	uint64_t cost_runs, cost_ns, cost_win_ns;	/* the closed windows' runs, ns in them, length */
	bool ipi, wake_idle;
	bool blame, blame_irq;	/* blame.bpf.h on; its irq programs loaded */
	unsigned stack_every;	/* -g: as the programs' (0: no stacks) */
	struct bpf_stack_map *smaps;	/* -g: the sampled processes' file mappings */
	int nsmaps, capsmaps;
	struct u64map stk_tgids;	/* tgid -> 1 read, 2 gone before it was read */
	uint64_t stk_ntgids, stk_gone;	/* the IPI programs load here (the kernel has their tracepoints) */
	char left_out[400];	/* what this kernel's programs lack, and why ("": none) */
};

/*
 * The programs' run-time statistics in windows (bpf_cost.c): one reader tick in every
 * BPF_COST_EVERY, from a random phase, so that the statistics' own cost (two clock reads
 * and a per-CPU line a program run: the pinned ping-pong 1.1% slower, ~250 ns a wakeup,
 * while a window is open; docs/cost.md) touches 1/25 of the run and every part of it has
 * the same chance. Start at attach, tick at every reader tick (bpf_sched_cost_tick), stop
 * at detach.
 */
#define BPF_COST_EVERY 25
void bpf_cost_start(struct bpf_sched *b);
void bpf_cost_stop(struct bpf_sched *b);

/* The class of CPUs x and y (enum locality) as the programs' classify() says it. */
int bpf_cpu_class(const struct bpf_sched *b, size_t x, size_t y);

/* Busy and idle time of each CPU from /proc/stat, in ns (USER_HZ ticks). */
void bpf_cpu_times(int ncpus, uint64_t *busy, uint64_t *idle);

#endif
