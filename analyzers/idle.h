/*
 * idle.h - which CPUs are idle, as sched_switch says, and whether a woken task
 * that waited on a busy CPU could have run on an idle one it was allowed on
 * ("passed over": the wasted-cores question of select_idle_sibling).
 *
 * The rule: a wakeup was passed over when its target CPU was busy at the
 * wakeup, and another CPU in its affinity mask was idle at the wakeup or at
 * the moment the task ran (idle only in between is not seen). The closest
 * such CPU gives the class (SMT sibling, shared LLC, same node, other node);
 * the wait that overlapped the longest idle period of one of them is the
 * "idle wait". When the idle CPUs were all outside the mask, the wakeup is
 * counted apart ("not allowed").
 */
#ifndef LOCUS_IDLE_H
#define LOCUS_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/topology.h"

struct idle_track {
	int ncpus, nwords;		/* nwords 64-bit words per CPU mask */
	uint64_t *idle;			/* CPUs idle now */
	uint64_t *from, *to;		/* per CPU: start and end of its last idle period */
	uint64_t *near[3];		/* masks of the cores, LLCs, nodes: in their first CPU's row */
	int *leader[3];			/* per CPU: that first CPU of its core, LLC, node (-1) */
	int *wlo[3], *whi[3];		/* per CPU: the words its core's, LLC's, node's mask
					 * has bits in, first and last */
	bool *known;			/* per CPU: its state was seen */
};

enum idle_verdict { IDLE_NONE, IDLE_PASSED, IDLE_NOT_ALLOWED };

struct idle_check {
	enum idle_verdict verdict;
	enum locality closest;		/* IDLE_PASSED: LOC_SMT, LOC_LLC, LOC_NODE or LOC_REMOTE */
	uint64_t wait_ns;		/* IDLE_PASSED: the wait overlapping one idle CPU, longest */
};

void idle_init(struct idle_track *it, const struct topology *t);
void idle_release(struct idle_track *it);
/* cpu switched to the idle task (idle true) or away from it, at now (inline: every switch). */
static inline void idle_set(struct idle_track *it, int cpu, bool idle, uint64_t now)
{
	uint64_t bit, *word;

	if (cpu < 0 || cpu >= it->ncpus)
		return;
	bit = 1ull << (cpu % 64);
	it->known[cpu] = true;
	word = &it->idle[cpu / 64];
	if (idle == !!(*word & bit))
		return;
	*word ^= bit;
	if (idle)
		it->from[cpu] = now;
	else
		it->to[cpu] = now;
}
/* The CPUs idle now, into snap (nwords words): kept with a wakeup until it runs. */
void idle_snapshot(const struct idle_track *it, uint64_t *snap);
/*
 * A task woken at wake (idle CPUs then: at_wake) waited on target and runs at
 * run; allowed is its affinity mask (NULL: every CPU). Call before target's
 * own switch to the task is applied.
 */
struct idle_check idle_check(const struct idle_track *it, int target, const uint64_t *allowed,
			     const uint64_t *at_wake, uint64_t wake, uint64_t run);

#endif
