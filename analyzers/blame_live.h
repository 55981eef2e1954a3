/*
 * blame_live.h - who delayed the wakee while collection goes on (locus top's antagonists):
 * a copy of the blame analyzer's running totals (the split of every attributed wakeup's
 * wait, and what each task that ran instead inflicted), and the difference of two such
 * copies: what an interval, or the time since a reset, added.
 */
#ifndef LOCUS_BLAME_LIVE_H
#define LOCUS_BLAME_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "blame.h"

struct blame_live {
	bool irq_source;		/* interrupts are split out (else inside the tasks') */
	struct blame_split all;		/* every attributed wakeup's wait, by cause */
	struct blame_culprit *culprits;	/* a copy: by tid; a difference: by ns, most first */
	int n, cap;			/* (p99_ns is not kept: no percentile of a span) */
	bool in_kernel;			/* split by the BPF collector: no handler names, no
					 * chains, no p99 share (blame_results.in_kernel) */
	unsigned sample_every;		/* in the kernel: 1 wakeup in this many split (<= 1:
					 * every one) */
};

/* b's totals up to its last event into dst (its table kept for the next copy). */
void blame_live_copy(struct blame_live *dst, const struct blame *b);
/*
 * r's totals into dst (the BPF collector's split, read from the kernel at a refresh): its
 * split, its culprit rows, in_kernel and the sampling rate.
 */
void blame_live_from(struct blame_live *dst, const struct blame_results *r);
/* The copy's rows by tid, as blame_live_delta wants them (outside the reader's lock). */
void blame_live_sort(struct blame_live *l);
/*
 * What cur adds to prev (NULL: to nothing) into dst: the split's difference, and each
 * task's with something in it, by the wait it inflicted (most first, then by tid). cur and
 * prev are copies of the same analyzer, prev the older, both sorted by blame_live_sort.
 */
void blame_live_delta(struct blame_live *dst, const struct blame_live *cur,
		      const struct blame_live *prev);
/* dst becomes a copy of src. */
void blame_live_assign(struct blame_live *dst, const struct blame_live *src);
void blame_live_release(struct blame_live *l);

#endif
