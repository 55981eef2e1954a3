/* events.h - build hand-made sched events for analyzer tests. */
#ifndef LOCUS_TEST_EVENTS_H
#define LOCUS_TEST_EVENTS_H

#include <string.h>

#include "../../model/event.h"

static inline struct event ev_base(uint64_t t, int cpu, int cur, int type)
{
	struct event e;

	memset(&e, 0, sizeof(e));
	e.time_ns = t;
	e.cpu = cpu;
	e.pid = cur;
	e.tid = cur;
	e.type = (uint16_t)type;
	return e;
}

/* waker (current on cpu) wakes wakee whose previous CPU is prev */
static inline struct event ev_waking(uint64_t t, int cpu, int waker, int wakee, int prev)
{
	struct event e = ev_base(t, cpu, waker, EV_WAKING);

	e.wake.pid = wakee;
	e.wake.target_cpu = prev;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "task%d", wakee);
	return e;
}

static inline struct event ev_wakeup(uint64_t t, int cpu, int cur, int wakee, int target)
{
	struct event e = ev_base(t, cpu, cur, EV_WAKEUP);

	e.wake.pid = wakee;
	e.wake.target_cpu = target;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "task%d", wakee);
	return e;
}

static inline struct event ev_switch(uint64_t t, int cpu, int prev, long state, int next)
{
	struct event e = ev_base(t, cpu, prev, EV_SWITCH);

	e.sw.prev_pid = prev;
	e.sw.prev_state = state;
	e.sw.next_pid = next;
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), prev ? "task%d" : "swapper", prev);
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), next ? "task%d" : "swapper", next);
	return e;
}

static inline struct event ev_migrate(uint64_t t, int cpu, int cur, int pid, int from, int to)
{
	struct event e = ev_base(t, cpu, cur, EV_MIGRATE);

	e.mig.pid = pid;
	e.mig.orig_cpu = from;
	e.mig.dest_cpu = to;
	return e;
}

static inline struct event ev_fork(uint64_t t, int cpu, int parent, int child)
{
	struct event e = ev_base(t, cpu, parent, EV_FORK);

	e.fork.parent_pid = parent;
	e.fork.child_pid = child;
	snprintf(e.fork.child_comm, sizeof(e.fork.child_comm), "task%d", child);
	return e;
}

/* tid named comm from t on (PERF_RECORD_COMM; exec: renamed by exec; cpu: where reported) */
static inline struct event ev_comm(uint64_t t, int cpu, int tid, const char *comm, int exec)
{
	struct event e = ev_base(t, cpu, tid, EV_COMM);

	snprintf(e.comm.comm, sizeof(e.comm.comm), "%s", comm);
	e.comm.exec = (uint8_t)exec;
	return e;
}

#define S_SLEEP 1	/* TASK_INTERRUPTIBLE */
#define S_PREEMPT 0x100 /* TASK_REPORT_MAX: preempted */

#endif
