/* idle_machine.h - the idle tests' machine: 8 CPUs in 4 cores, 2 LLCs, 1 or 2 nodes. */
#ifndef LOCUS_TEST_IDLE_MACHINE_H
#define LOCUS_TEST_IDLE_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../analyzers/idle.h"
#include "../../collectors/topology.h"

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

#endif
