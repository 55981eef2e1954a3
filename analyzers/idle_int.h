/* idle_int.h - the idle tracker's ring of waiting judgements, shared by its files. */
#ifndef LOCUS_IDLE_INT_H
#define LOCUS_IDLE_INT_H

#include "idle.h"

#define BIT(m, c) ((m)[(c) / 64] >> ((c) % 64) & 1)
#define NEVER UINT64_MAX

/* Instant (a, ak) at or before (b, bk): the earlier nanosecond, or in the same one the
 * event applied first (numbers a few apart there: compared modulo 2^32). */
static inline bool le(uint64_t a, uint32_t ak, uint64_t b, uint32_t bk)
{
	return a < b || (a == b && (int32_t)(ak - bk) <= 0);
}

/* (a, ak) strictly before (b, bk). */
static inline bool lt(uint64_t a, uint32_t ak, uint64_t b, uint32_t bk)
{
	return a < b || (a == b && (int32_t)(ak - bk) < 0);
}

/* A waiting judgement's at_wake is the mask at its run taken back through the changes in
 * its wait, when it waited through at most this many (else kept whole). */
#define IDLE_FLIP_SPAN 256

/*
 * A judgement waiting, one cache line: its idle_q but the wakeup (pend_wake) and the masks.
 * at_run is the mask after f_run changes, at_wake after f_wake, both rebuilt from the
 * changes when taken; kept whole (in pend_masks) only when not known that way.
 */
struct idle_pend {
	uint64_t run, pos_wake, pos_run;
	uint64_t f_wake, f_run;		/* idle_flips() then */
	uint32_t k_wake, k_run;
	int32_t target, tag;
	uint8_t all;		/* allowed: every CPU (else whole, in pend_masks) */
	uint8_t whole;		/* PEND_WAKE_WHOLE, PEND_RUN_WHOLE: that mask in pend_masks */
	int8_t target_idled;	/* whether the target idled through the wait, known for good
				 * at the run (its state changed at or after the run since, its
				 * periods in order): 1, 0; -1 not known then */
	uint8_t pad;
	uint32_t ninv;		/* the target's idle_hist.ninv at the run: its past known
				 * then holds while that stays */
};
#define PEND_WAKE_WHOLE 1
#define PEND_RUN_WHOLE 2

/* Room for one more change of the idle mask: the oldest no waiting judgement needs go. */
void idle_flip_room(struct idle_track *it);
/* cpu's bit of the idle mask changed. */
static inline void idle_flip(struct idle_track *it, int cpu)
{
	if (it->flips - it->flip_lo == (uint64_t)it->cap_flip)
		idle_flip_room(it);
	it->flip_cpu[it->flips++ & (uint64_t)(it->cap_flip - 1)] = cpu;
}

/* Put q in the ring, after those waiting (its masks copied or as changes), with whether its
 * target idled through the wait if known for good at its run (1, 0; -1). */
void idle_pend_put(struct idle_track *it, const struct idle_q *q, int target_idled);
/* The oldest waiting one into q; once only, then idle_pend_drop. Returns whether its target
 * idled through the wait as known at its run, if that still holds (1, 0), else -1; its
 * masks rebuilt (valid until the next call) unless 1 (none needed then). */
int idle_pend_take(struct idle_track *it, struct idle_q *q);
/* The oldest waiting one leaves the ring. */
void idle_pend_drop(struct idle_track *it);
/* The run of the oldest waiting one (waiting > 0). */
static inline void idle_pend_run(const struct idle_track *it, uint64_t *run, uint32_t *k)
{
	*run = it->pend[it->pend_head].run;
	*k = it->pend[it->pend_head].k_run;
}

/* Judge q from the periods known (open: a CPU still idle counts as idle through the run;
 * t_idled: whether its target idled through the wait when known, else -1). Returns -1
 * when judged (into *r), else a CPU whose state in the wait is not known yet. */
int idle_judge_q(struct idle_track *it, const struct idle_q *q, bool open, int t_idled,
		 struct idle_check *r);
/* Whether q's target idled through its wait, if known for good now (1, 0), else -1. */
int idle_target_idled(struct idle_track *it, const struct idle_q *q);
/* cpu's state changed: the waiting judgements whose runs every CPU is now known through. */
void idle_resolve(struct idle_track *it, int cpu);

#endif
