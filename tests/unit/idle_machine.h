/* idle_machine.h - the idle tests' machine: 8 CPUs in 4 cores, 2 LLCs, 1 or 2 nodes; and
 * the sched events they feed it. */
#ifndef LOCUS_TEST_IDLE_MACHINE_H
#define LOCUS_TEST_IDLE_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../analyzers/idle.h"
#include "../../collectors/topology.h"
#include "../../model/event.h"

/* 8 CPUs: cores {0,4} {1,5} {2,6} {3,7}; LLC {0-1,4-5} and {2-3,6-7}; node 0: 0-3,4-7 all */
static inline void machine(struct topology *t, bool two_nodes)
{
	static const int core[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	static const int llc[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	static const int one[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const int two[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };

	topology_from_arrays(t, 8, core, llc, two_nodes ? two : one);
}

static inline void busy_all(struct idle_track *it, uint64_t now)
{
	for (int c = 0; c < 8; c++)
		idle_set(it, c, false, now);
}

/* prev switches to next on cpu at t (a voluntary switch: prev sleeps) */
static inline struct event sw(int cpu, uint64_t t, int prev, int next)
{
	struct event e = { .type = EV_SWITCH, .cpu = cpu, .time_ns = t, .tid = prev, .pid = prev };

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	e.sw.prev_state = 1; /* sleeping: a voluntary switch */
	return e;
}

/* waker, on cpu at t, wakes wakee, target the CPU it names */
static inline struct event wake(int cpu, uint64_t t, int waker, int wakee, int target)
{
	struct event e = { .type = EV_WAKING, .cpu = cpu, .time_ns = t, .tid = waker, .pid = waker };

	e.wake.pid = wakee;
	e.wake.target_cpu = target;
	return e;
}

#endif
