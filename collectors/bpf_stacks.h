/*
 * bpf_stacks.h - -g in the BPF collector: the stacks the programs sampled (stacks.bpf.h),
 * read out of the stack table and the counts table, interned into a stack table as perf
 * writes a callchain (kernel frames, then user frames), with the sampling's own counts.
 */
#ifndef LOCUS_BPF_STACKS_H
#define LOCUS_BPF_STACKS_H

#include <stdint.h>

#include "../model/stack.h"
#include "symbols.h"

struct bpf_sched;

/* One counted row: kind and class as the stacks analyzer's (enum stacks_kind, its class). */
struct bpf_stack_row {
	uint32_t stack, waker;	/* ids in the caller's table; waker: off-wake's (else 0) */
	uint8_t kind, cls;	/* cls: a locality class, or 5 (no wakeup seen) */
	uint64_t count, time_ns;
};

struct bpf_stack_stats {
	unsigned every_waker;	/* 1 waker stack in this many tracked wakeups (timed) */
	unsigned every_blocked;	/* 1 blocked stack in this many voluntary switch-outs */
	uint64_t taken_waker, taken_blocked, taken_offwake;
	uint64_t enomem, eother;	/* samples dropped: the stack table full, a walk's error */
	uint64_t full;		/* counts not kept: the table was full */
	uint64_t lost;		/* blocked samples whose task's switch-in was not seen */
	uint64_t tgids, tgids_gone;	/* processes with user stacks; of them, gone before their
					 * /proc/PID/maps was read */
};

/* Every reader tick: the maps of processes new in the counts table, while they live. */
void bpf_sched_stacks_poll(struct bpf_sched *b);
/*
 * After detach: the rows (*rows, *n; the caller frees *rows), their stacks interned in
 * tab, the processes' mappings added to syms, the sampling's counts in st. 0, or -1 when
 * the collector took no stacks (opened without them).
 */
int bpf_sched_stacks(struct bpf_sched *b, struct stack_table *tab, struct symbols *syms,
		     struct bpf_stack_row **rows, uint32_t *n, struct bpf_stack_stats *st);

#endif
