/*
 * affinity.h - each task's CPU affinity as the sched stream carries it (EV_AFFINITY): every
 * task's mask when tracing began, from /proc, and each change made through
 * sched_setaffinity (taskset, pthread_setaffinity_np, numactl), read from /proc as the
 * reader comes to the call. The call is seen by syscalls:sys_enter_sched_setaffinity (its
 * target) and sys_exit_sched_setaffinity (its result), which may come in either order (the
 * caller can move CPU in the call, and the rings are read one CPU after another). The
 * change holds from the entry's time: the kernel sets the mask inside the call before it
 * waits for the task's move to an allowed CPU, and that move wakes the task, a wakeup made
 * under the new mask. A mask read when the reader comes to the call is the one set then,
 * unless the task changed it again since (that change is an event of its own) or a cpuset
 * change moved it (not traced: no syscall); a reader that came to the entry before the
 * kernel set it reads again at the return, and the mask read there holds from the return.
 */
#ifndef LOCUS_AFFINITY_H
#define LOCUS_AFFINITY_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/event.h"

/* Calls seen half (entry without exit, or the reverse) at once, at most. */
#define AFF_CALLS 64

struct aff_watch {
	int nwords;		/* words of a mask: the machine's possible CPUs */
	struct aff_call {
		int32_t caller, target;
		uint64_t exit_ns;
		int64_t ret;
		const uint64_t *entry_mask; /* read at the entry (NULL: gone, or not seen) */
		bool entered, exited;
	} calls[AFF_CALLS];
	int ncalls;
	uint64_t **masks;	/* every mask handed out, valid until aff_release */
	int nmasks, cap_masks;
	uint64_t changes;	/* calls that returned 0 */
	uint64_t dropped;	/* half-seen calls pushed out (their other half lost) */
};

void aff_init(struct aff_watch *a);
/*
 * An EV_SETAFFINITY or EV_SETAFFINITY_RET the collector decoded: true with the EV_AFFINITY
 * to hand on in *out (its mask read now): at a call's entry (of the entry's time), and at
 * its return where the mask read then differs from the entry's (of the return's time).
 */
bool aff_on_call(struct aff_watch *a, const struct event *e, struct event *out);
/*
 * Every task's mask now, as EV_AFFINITY of time 0 (since before the trace began) to
 * fn. Call once tracing is on: a task that starts after has a fork event, whose child
 * takes its parent's mask.
 */
void aff_scan(struct aff_watch *a, void (*fn)(void *ctx, const struct event *e), void *ctx);
/* One task's mask now into an EV_AFFINITY of time t (mask NULL when it is gone). */
void aff_read(struct aff_watch *a, int32_t tid, uint64_t t, struct event *out);
void aff_release(struct aff_watch *a);

#endif
