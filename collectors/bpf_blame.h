/*
 * bpf_blame.h - --sections blame in the BPF collector: who delayed the wakee, split in
 * the kernel for the timed wakeups (blame.bpf.h), read out as sums: per CPU the wakee ran
 * on and per locality class, the sums the shares' intervals need, the tasks to blame.
 */
#ifndef LOCUS_BPF_BLAME_H
#define LOCUS_BPF_BLAME_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/sched_bpf.h"

struct bpf_sched;

/* Waits split by cause (LB_BL_* in sched_bpf.h: analyzers/blame.h's enum blame_cause). */
struct bpf_blame_split {
	uint64_t wakeups, wait_ns;
	uint64_t ns[LB_BL_CAUSES];
};

struct bpf_blame_culprit {
	int32_t tid;
	char comm[LB_COMM];
	uint64_t running_ns, ahead_ns, wakeups;
};

struct bpf_blame {
	unsigned every;		/* 1 wakeup in this many split (the timed ones) */
	bool irqs;		/* the irq programs ran (hardirq and softirq time measured) */
	struct bpf_blame_split all, cls[LB_CLASSES];
	struct bpf_blame_split *cpu;	/* ncpus: by the CPU the wakee ran on */
	int ncpus;
	/* over the wakeups, in (ns / 1024)^2: each cause's x^2, x * w and w^2 (w: the wait) */
	uint64_t sq[LB_BL_CAUSES], xw[LB_BL_CAUSES], ww;
	uint64_t beyond;	/* waits that began before the oldest segment kept */
	uint64_t culprits_dropped_ns;	/* ran instead by tasks the table had no room for */
	struct bpf_blame_culprit *culprits;	/* unsorted */
	int nculprits;
};

/*
 * After detach: the sums into o (the caller releases it with bpf_blame_release). 0, or -1
 * when the collector did not split the waits (opened without blame).
 */
int bpf_sched_blame(struct bpf_sched *b, struct bpf_blame *o);
void bpf_blame_release(struct bpf_blame *o);

#endif
