/* test_wakeup.c - the wakeup analyzer on hand-made event sequences and fixture topologies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>

#include "../../analyzers/wakeup.h"
#include "../../collectors/topology.h"
#include "events.h"

#define FIX "tests/fixtures/topology/"

static struct topology topo64;

static int setup(void **state)
{
	char err[256];

	return topology_load(&topo64, FIX "2s16c2t-64", err, sizeof(err));
}

static int teardown(void **state)
{
	topology_release(&topo64);
	return 0;
}

static void start(struct wakeup *w, bool system_wide)
{
	struct wakeup_cfg cfg = { &topo64, system_wide, NULL, 0, true, false, 0, 0, false, NULL, NULL };

	wakeup_init(w, &cfg);
}

static void feed(struct wakeup *w, const struct event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		wakeup_add(w, &ev[i]);
	wakeup_finish(w);
}

/* A wakeup from CPU 0 to its SMT sibling (CPU 32) on the 64-CPU box is class smt. */
static void smt_sibling(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_switch(100, 32, 100, S_SLEEP, 0),	/* 100 sleeps on CPU 32 */
		ev_waking(1000, 0, 200, 100, 32),	/* 200 on CPU 0 wakes it */
		ev_wakeup(1500, 32, 0, 100, 32),	/* placed on CPU 32 */
		ev_switch(3000, 32, 0, 0, 100),		/* runs 2000 ns after the waking */
	};

	start(&w, false);
	wakeup_track(&w, 100);
	wakeup_track(&w, 200);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 1);
	assert_int_equal(r->wakeups_placed, 1);
	assert_int_equal(r->by_class[LOC_SMT], 1);
	assert_int_equal(r->wake_matrix[0 * 64 + 32], 1);
	assert_int_equal(r->placement[PLACE_STAYED], 1);
	assert_int_equal(r->prev_by_class[LOC_SAME_CPU], 1);
	assert_int_equal(r->delay.count, 1);
	assert_int_equal(r->delay.max, 2000);
	assert_int_equal(r->delay_class[LOC_SMT].count, 1);
	assert_int_equal(r->delay_cpu[32].count, 1);
	assert_int_equal(r->voluntary, 1);
	assert_int_equal(r->npairs, 1);
	assert_int_equal(r->pairs[0].waker_tid, 200);
	assert_int_equal(r->pairs[0].by_class[LOC_SMT], 1);
	assert_int_equal(r->switch_in_missed, 0);
	wakeup_release(&w);
}

/* Previous CPU on the other socket, placed next to the waker: pulled, remote move. */
static void pulled_across_sockets(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_switch(10, 16, 100, S_SLEEP, 0),
		ev_waking(1000, 0, 200, 100, 16),
		ev_migrate(1100, 0, 200, 100, 16, 1),
		ev_wakeup(1200, 1, 0, 100, 1),
		ev_switch(1600, 1, 0, 0, 100),
	};

	start(&w, false);
	wakeup_track(&w, 100);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->by_class[LOC_LLC], 1);
	assert_int_equal(r->prev_by_class[LOC_REMOTE], 1);
	assert_int_equal(r->placement[PLACE_PULLED], 1);
	assert_int_equal(r->migrations, 1);
	assert_int_equal(r->mig_by_class[LOC_REMOTE], 1);
	assert_int_equal(r->mig_matrix[16 * 64 + 1], 1);
	assert_int_equal(r->delay.max, 600);
	/* the waker was not traced: the pair still counts, named by tid */
	assert_int_equal(r->pairs[0].waker_tid, 200);
	assert_int_equal(r->tasks[0].tid, 100);
	assert_int_equal(r->tasks[0].migrations, 1);
	wakeup_release(&w);
}

/* No sched_wakeup and no switch-in recorded: the wakee's own next event places it. */
static void missed_switch_in(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_switch(10, 5, 100, S_SLEEP, 0),
		ev_waking(1000, 0, 200, 100, 5),
		ev_waking(2000, 5, 100, 200, 0), /* 100 runs on CPU 5: it wakes 200 */
	};

	start(&w, false);
	wakeup_track(&w, 100);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 1);
	assert_int_equal(r->wakeups_placed, 1);
	assert_int_equal(r->wake_matrix[0 * 64 + 5], 1);
	assert_int_equal(r->switch_in_missed, 1);
	assert_int_equal(r->cpu[5].switch_in_missed, 1);
	assert_int_equal(r->delay.count, 0); /* not measured, not made up */
	wakeup_release(&w);
}

/* The pair named as perf script names its tasks at the wakeup: not followed, named */
static const struct pair_stat *pair_of(const struct sched_results *r, int waker, int wakee)
{
	for (int i = 0; i < r->npairs; i++)
		if (r->pairs[i].waker_tid == waker && r->pairs[i].wakee_tid == wakee)
			return &r->pairs[i];
	return NULL;
}

/*
 * Wakers outside the workload are named: one there before the recording (its COMM record
 * at time 0, no switch seen), one by its CPU's switch-in, one forked by an outsider. A
 * followed task renamed by exec: the pair says the name at each wakeup, its row the last.
 */
static void names_at_the_wakeup(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct pair_stat *p;
	struct event ev[] = {
		ev_comm(0, 0, 300, "tbench_srv", 0),	/* before the recording */
		ev_comm(0, 0, 100, "sh", 0),
		ev_switch(10, 5, 100, S_SLEEP, 0),
		ev_waking(1000, 0, 300, 100, 5),	/* 300: its switch-in was not seen */
		ev_switch(1500, 5, 0, 0, 100),
		ev_comm(1600, 5, 100, "sleep", 1),	/* 100 execs sleep */
		ev_switch(1700, 5, 100, S_SLEEP, 0),
		ev_switch(1800, 1, 0, 0, 400),		/* 400 switched in, named by it */
		ev_waking(1900, 1, 400, 100, 5),
		ev_switch(2000, 5, 0, 0, 100),
		ev_switch(2100, 5, 100, S_SLEEP, 0),
		ev_fork(2200, 2, 500, 501),		/* an outsider's child */
		ev_waking(2300, 2, 501, 100, 5),	/* on a CPU whose switch-in was not seen */
	};

	(void)state;
	snprintf(ev[6].sw.prev_comm, sizeof(ev[6].sw.prev_comm), "sleep");
	snprintf(ev[3].wake.comm, sizeof(ev[3].wake.comm), "sh");
	snprintf(ev[8].wake.comm, sizeof(ev[8].wake.comm), "sleep");
	snprintf(ev[9].sw.next_comm, sizeof(ev[9].sw.next_comm), "sleep");
	snprintf(ev[10].sw.prev_comm, sizeof(ev[10].sw.prev_comm), "sleep");
	snprintf(ev[12].wake.comm, sizeof(ev[12].wake.comm), "sleep");
	start(&w, false);
	wakeup_track(&w, 100);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->npairs, 3);
	p = pair_of(r, 300, 100);
	assert_non_null(p);
	assert_string_equal(p->waker_comm, "tbench_srv");
	assert_string_equal(p->wakee_comm, "sh"); /* its name then */
	p = pair_of(r, 400, 100);
	assert_non_null(p);
	assert_string_equal(p->waker_comm, "task400");
	assert_string_equal(p->wakee_comm, "sleep");
	p = pair_of(r, 501, 100);
	assert_non_null(p);
	assert_string_equal(p->waker_comm, "task501");
	assert_int_equal(r->ntasks, 1);
	assert_string_equal(r->tasks[0].comm, "sleep");
	wakeup_release(&w);
}

/* System-wide, a task named by a COMM record before its first event (locus's recorder,
 * named at the recording's start) is named so when it wakes another, as perf script does. */
static void system_wide_named_before_first_event(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct pair_stat *p;
	struct event ev[] = {
		ev_comm(0, 0, 700, "locus", 0),
		ev_switch(10, 1, 21, S_SLEEP, 0),
		ev_waking(1000, 1, 700, 21, 1),	/* 700's first event: no switch-in seen */
		ev_switch(1100, 1, 700, S_SLEEP, 21),
	};

	(void)state;
	ev[2].wake.comm[0] = '\0';
	snprintf(ev[2].wake.comm, sizeof(ev[2].wake.comm), "migration/1");
	start(&w, true);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	p = pair_of(r, 700, 21);
	assert_non_null(p);
	assert_string_equal(p->waker_comm, "locus");
	wakeup_release(&w);
}

/*
 * A wakeup with no migration in try_to_wake_up left the task on the CPU it last ran on;
 * it ran elsewhere (a load balance the stream lost): with sched_migrate_task in the
 * stream the target is that CPU (stayed, moved before it ran); without, where it ran (pulled).
 */
static void unplaced_target_prev_cpu(void **state)
{
	const struct event ev[] = {
		ev_switch(100, 2, 100, S_SLEEP, 0),	/* 100 sleeps on CPU 2 */
		ev_waking(1000, 0, 200, 100, 2),	/* 200 on CPU 0 wakes it: no migration */
		ev_switch(3000, 4, 0, 0, 100),		/* it runs on CPU 4 (the waker's LLC) */
	};

	(void)state;
	for (int with = 0; with < 2; with++) {
		struct wakeup_cfg cfg = { &topo64, false, NULL, 0, true, with, 0, 0, false, NULL, NULL };
		struct wakeup w;
		struct sched_results *r;

		wakeup_init(&w, &cfg);
		wakeup_track(&w, 100);
		feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
		r = wakeup_results(&w);
		assert_int_equal(r->wakeups_placed, 1);
		assert_int_equal(r->wake_matrix[0 * 64 + (with ? 2 : 4)], 1);
		assert_int_equal(r->placement[with ? PLACE_STAYED : PLACE_PULLED], 1);
		assert_int_equal(r->moved_before_run, with ? 1 : 0);
		assert_int_equal(r->delay.count, 1);
		/* the timed wakeup by its target's class and the class of the CPU it ran on
		 * (both seen from the waker's CPU 0): blame's and the stacks' classes */
		{
			enum locality t = topology_class(&topo64, 0, with ? 2 : 4);
			enum locality ran = topology_class(&topo64, 0, 4);

			assert_true(r->ran_known);
			assert_int_equal(r->ran_class[t][ran], 1);
			assert_int_equal(r->ran_moved_within, with && t == ran ? 1 : 0);
			assert_int_equal(r->ran_moved_other, 0);
		}
		wakeup_release(&w);
	}
}

static void switch_kinds(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_switch(10, 3, 0, 0, 100),
		ev_switch(20, 3, 100, S_PREEMPT, 101),	/* preempted: R+ */
		ev_switch(30, 3, 101, 0, 100),		/* yielded while runnable: R */
		ev_switch(40, 3, 100, S_SLEEP, 0),	/* slept */
		ev_switch(50, 3, 0, 0, 101),
		ev_switch(60, 3, 101, 2, 0),		/* uninterruptible */
	};

	start(&w, false);
	wakeup_track(&w, 100);
	wakeup_track(&w, 101);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->involuntary, 2);
	assert_int_equal(r->voluntary, 2);
	assert_int_equal(r->cpu[3].involuntary, 2);
	/* CPU 3: idle 0..10? unknown before the first switch; busy 10..60, idle 40..50 */
	assert_int_equal(r->cpu[3].busy_ns, 40);
	assert_int_equal(r->cpu[3].idle_ns, 10);
	assert_int_equal(r->cpu[3].tracked_ns, 40);
	wakeup_release(&w);
}

/* Children are followed through fork; other tasks are not traced. */
static void fork_following(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_fork(10, 0, 100, 101),
		ev_waking(20, 0, 100, 101, 0),
		ev_waking(30, 0, 100, 300, 0),	/* 300 is not ours */
		ev_fork(40, 1, 300, 301),	/* nor its child */
		ev_waking(50, 1, 300, 301, 1),
	};

	start(&w, false);
	wakeup_track(&w, 100);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 1);
	assert_int_equal(r->ntasks, 2);
	wakeup_release(&w);
}

static void system_wide_excludes(void **state)
{
	const int32_t excl[] = { 999 };
	struct wakeup_cfg cfg = { &topo64, true, excl, 1, true, false, 0, 0, false, NULL, NULL };
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_waking(20, 0, 5, 999, 0),
		ev_waking(30, 0, 5, 500, 1),
		ev_waking(40, 0, 5, 0, 1), /* the idle task is never a wakee */
	};

	wakeup_init(&w, &cfg);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 1);
	wakeup_release(&w);
}

static void woken_while_running(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_switch(10, 2, 0, 0, 100),
		ev_waking(20, 2, 100, 100, 2),
	};

	start(&w, false);
	wakeup_track(&w, 100);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 0);
	assert_int_equal(r->wakeups_running, 1);
	wakeup_release(&w);
}

/* -a: a task first seen by its own event runs there, so a wakeup of it before any
 * switch-out of it is a running task's, not timed (idle.sh's oracle: one over, once). */
static void system_wide_first_seen_by_own_event(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_waking(10, 0, 100, 200, 1),	/* 100's first event: it wakes 200 on CPU 0 */
		ev_waking(20, 1, 200, 100, 0),	/* 200 wakes 100, never seen switched out */
		ev_switch(30, 0, 300, S_SLEEP, 100),
	};

	start(&w, true);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups_running, 1);
	assert_int_equal(r->delay.count, 0);
	wakeup_release(&w);
}

/* Without sched_waking (old kernels), sched_wakeup is the wakeup and places at once. */
static void wakeup_only_source(void **state)
{
	struct wakeup_cfg cfg = { &topo64, false, NULL, 0, false, false, 0, 0, false, NULL, NULL };
	struct wakeup w;
	struct sched_results *r;
	const struct event ev[] = {
		ev_switch(10, 40, 100, S_SLEEP, 0),
		ev_wakeup(20, 8, 200, 100, 8),
		ev_switch(90, 8, 200, S_SLEEP, 100),
	};

	wakeup_init(&w, &cfg);
	wakeup_track(&w, 100);
	feed(&w, ev, sizeof(ev) / sizeof(ev[0]));
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 1);
	assert_int_equal(r->by_class[LOC_SAME_CPU], 1);
	assert_int_equal(r->prev_by_class[LOC_SMT], 1); /* 40 and 8 are siblings */
	assert_int_equal(r->delay.max, 70);
	wakeup_release(&w);
}

static void pair_table_bounded(void **state)
{
	struct wakeup_cfg cfg = { &topo64, true, NULL, 0, true, false, 2, 0, false, NULL, NULL };
	struct wakeup w;
	struct sched_results *r;

	wakeup_init(&w, &cfg);
	for (int i = 0; i < 5; i++) {
		struct event e = ev_waking(10 + (uint64_t)i, 0, 50 + i, 100 + i, 0);

		wakeup_add(&w, &e);
	}
	wakeup_finish(&w);
	r = wakeup_results(&w);
	/* Filtered Space-Saving in 2 slots: nothing dropped, every wakeup counted by the
	 * table (the 3 pairs that came when the slots were full each evicted one or stayed
	 * in the filter), counts within the bound */
	assert_int_equal(r->npairs, 2);
	assert_int_equal(r->pairs_dropped, 0);
	assert_int_equal(r->pairs_evicted + r->pairs_filtered, 3);
	assert_int_equal(r->pairs_kept, 2);
	assert_int_equal(r->pairs_wakeups, 5);
	assert_true(r->pairs_bound >= 1 && r->pairs_bound <= 5 / 2);
	for (int i = 0; i < 2; i++) {
		assert_true(r->pairs[i].count - r->pairs[i].over <= 1); /* each pair's true count */
		assert_true(r->pairs[i].count >= 1);
		assert_true(r->pairs[i].over <= r->pairs_bound);
	}
	assert_int_equal(r->wakeups, 5);
	wakeup_release(&w);
	/* a busy pair among one-off pairs keeps its slot and its exact count and classes */
	wakeup_init(&w, &cfg);
	for (int i = 0; i < 16; i++) {
		int busy = i % 2 == 0;
		struct event e = ev_waking(10 + 100 * (uint64_t)i, 0, busy ? 50 : 60 + i,
					   busy ? 100 : 200 + i, 0);
		struct event in = ev_switch(20 + 100 * (uint64_t)i, 0, 0, 0, busy ? 100 : 200 + i);
		struct event out = ev_switch(30 + 100 * (uint64_t)i, 0, busy ? 100 : 200 + i,
					     S_SLEEP, 0);

		wakeup_add(&w, &e);
		wakeup_add(&w, &in);
		wakeup_add(&w, &out);
	}
	wakeup_finish(&w);
	r = wakeup_results(&w);
	assert_int_equal(r->pairs[0].waker_tid, 50);
	assert_int_equal(r->pairs[0].wakee_tid, 100);
	assert_int_equal(r->pairs[0].count, 8);
	assert_int_equal(r->pairs[0].over, 0);
	assert_int_equal(r->pairs[0].by_class[LOC_SAME_CPU], 8);
	assert_int_equal(r->pairs_evicted + r->pairs_filtered, 7); /* the one-offs but the first */
	assert_int_equal(r->pairs_wakeups, 16);
	wakeup_release(&w);
}

/*
 * 5,000 short-lived tasks, each forked, woken, run and gone: their counts stay in the
 * totals, the table's slots stay at what lives at once, and the busiest retired are
 * listed, exactly, up to TASKS_RETIRED_KEPT.
 */
static void tasks_retire(void **state)
{
	struct wakeup w;
	struct sched_results *r;
	uint64_t t = 100;

	(void)state;
	start(&w, true);
	for (int i = 0; i < 5000; i++) {
		int tid = 1000 + i;
		struct event ev[6];
		struct event ex = ev_base(0, 0, tid, EV_EXIT);

		ev[0] = ev_fork(t, 0, 50, tid);
		ev[1] = ev_waking(t + 1, 0, 50, tid, 0);
		ev[2] = ev_switch(t + 2, 1, 0, 0, tid);
		ev[3] = ev_switch(t + 3, 1, tid, S_SLEEP, 0);
		ev[4] = ev_waking(t + 4, 0, 50, tid, 1);
		ev[5] = ev_switch(t + 5, 1, 0, 0, tid);
		feed(&w, ev, 6);
		ex.time_ns = t + 6;
		ex.cpu = 1;
		ex.exit.pid = tid;
		wakeup_add(&w, &ex);
		{
			struct event last = ev_switch(t + 7 + (uint64_t)(i % 5), 1, tid, 0x10, 0);

			wakeup_add(&w, &last); /* X, EXIT_DEAD: its last switch */
		}
		t += 100;
	}
	assert_true(w.ntasks <= 8); /* parent 50, the swapper's neighbours: a handful of slots */
	wakeup_finish(&w);
	r = wakeup_results(&w);
	assert_int_equal(r->wakeups, 10000);
	assert_int_equal(r->tasks_retired, 5000);
	assert_int_equal(r->tasks_retired_kept, TASKS_RETIRED_KEPT);
	/* task i: 2 wakeups, ran 3 + i % 5 ns. Kept: the 1,000 that ran 7 ns, then of those
	 * that ran 6 the 24 lowest tids (the table's order: wakeups, run time, tid) */
	{
		int ran7 = 0, ran6 = 0, max6 = 0;

		for (int i = 0; i < r->ntasks; i++) {
			if (r->tasks[i].tid < 1000)
				continue;
			assert_int_equal(r->tasks[i].wakeups, 2);
			ran7 += r->tasks[i].run_ns == 7;
			if (r->tasks[i].run_ns == 6) {
				ran6++;
				max6 = r->tasks[i].tid > max6 ? r->tasks[i].tid : max6;
			}
		}
		assert_int_equal(ran7, 1000);
		assert_int_equal(ran6, 24);
		assert_int_equal(max6, 1000 + 3 + 5 * 23);
	}
	wakeup_release(&w);
}

static void lost_records(void **state)
{
	struct wakeup w;
	struct event e = ev_base(0, 0, 0, EV_LOST);

	start(&w, true);
	e.lost.lost = 7;
	wakeup_add(&w, &e);
	wakeup_add(&w, &e);
	wakeup_finish(&w);
	assert_int_equal(wakeup_results(&w)->lost, 14);
	wakeup_release(&w);
}

/* One event of a random stream over 3,000 tids (and a few far or odd ones). */
static struct event random_event(uint64_t *x, uint64_t t)
{
	static const int odd[] = { 5000000, -1, 0, 4194303 };
	int tid[3], cpu;
	uint64_t r;

	for (int i = 0; i < 3; i++) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		tid[i] = *x % 50 == 0 ? odd[*x / 50 % 4] : 1 + (int)(*x % 3000);
	}
	cpu = (int)(*x >> 20) % 64;
	r = (*x >> 32) % 100;
	if (r < 30)
		return ev_waking(t, cpu, tid[0], tid[1], (int)(*x >> 40) % 64);
	if (r < 40)
		return ev_migrate(t, cpu, tid[0], tid[1], (int)(*x >> 40) % 64, (int)(*x >> 46) % 64);
	if (r < 75)
		return ev_switch(t, cpu, tid[0], r < 45 ? 0 : r < 47 ? 0x10 : S_SLEEP, tid[1]);
	if (r < 80)
		return ev_fork(t, cpu, tid[0], tid[2]);
	if (r < 85) {
		struct event e = ev_base(t, cpu, tid[0], EV_EXIT);

		e.exit.pid = tid[0];
		return e;
	}
	if (r < 95) {
		struct event e = ev_base(t, cpu, tid[0], EV_IPI);

		e.ipi.cpu = (int)(*x >> 40) % 64;
		e.ipi.callback = (*x >> 50) & 1 ? 0xffffffff81000000ull : 0;
		return e;
	}
	return ev_wakeup(t, cpu, tid[0], tid[1], (int)(*x >> 40) % 64);
}

static void same_results(struct wakeup *a, struct wakeup *b)
{
	struct sched_results *x = wakeup_results(a), *y = wakeup_results(b);
	size_t n2 = (size_t)x->ncpus * (size_t)x->ncpus;

#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) \
	assert_int_equal(x->field, y->field);
#include "../../model/sched_measures.def"
#undef SCHED_MEASURE
	assert_memory_equal(x->by_class, y->by_class, sizeof(x->by_class));
	assert_memory_equal(x->placement, y->placement, sizeof(x->placement));
	assert_memory_equal(x->idle_passed_class, y->idle_passed_class,
			    sizeof(x->idle_passed_class));
	assert_memory_equal(x->wake_matrix, y->wake_matrix, n2 * sizeof(uint64_t));
	assert_memory_equal(x->prev_matrix, y->prev_matrix, n2 * sizeof(uint64_t));
	assert_memory_equal(x->mig_matrix, y->mig_matrix, n2 * sizeof(uint64_t));
	assert_memory_equal(x->cpu, y->cpu, (size_t)x->ncpus * sizeof(*x->cpu));
	assert_memory_equal(&x->delay, &y->delay, sizeof(x->delay));
	assert_memory_equal(x->delay_cpu, y->delay_cpu, (size_t)x->ncpus * sizeof(*x->delay_cpu));
	assert_memory_equal(x->delay_class, y->delay_class, sizeof(x->delay_class));
	assert_int_equal(x->ntasks, y->ntasks);
	assert_memory_equal(x->tasks, y->tasks, (size_t)x->ntasks * sizeof(*x->tasks));
	assert_int_equal(x->npairs, y->npairs);
	assert_memory_equal(x->pairs, y->pairs, (size_t)x->npairs * sizeof(*x->pairs));
}

/*
 * wakeup_add_batch (prefetching ahead) and the sources' wakeup_batch give the results of
 * wakeup_add on each event: a random stream with retirements, forks, far tids and IPIs, in
 * batches of every size, and gathered 64 at a time with flushes at random points.
 */
static void batch_same_as_one_by_one(void **state)
{
	static struct wakeup_batch gather;
	struct wakeup one, batch, gathered;
	static struct event ev[200000];
	uint64_t x = 99;
	int n = (int)(sizeof(ev) / sizeof(ev[0]));

	(void)state;
	for (int i = 0; i < n; i++)
		ev[i] = random_event(&x, 1000 + (uint64_t)i * 50);
	start(&one, true);
	start(&batch, true);
	start(&gathered, true);
	for (int i = 0; i < n; i++)
		wakeup_add(&one, &ev[i]);
	for (int i = 0, k = 0; i < n; i += k) {
		k = 1 + (int)((uint64_t)i * 2654435761u % 97);
		wakeup_add_batch(&batch, &ev[i], i + k <= n ? k : n - i);
	}
	gather.n = 0;
	for (int i = 0; i < n; i++) {
		wakeup_batch_add(&gathered, &gather, &ev[i]);
		if (i % 1013 == 0)
			wakeup_batch_flush(&gathered, &gather);
	}
	wakeup_batch_flush(&gathered, &gather);
	wakeup_finish(&one);
	wakeup_finish(&batch);
	wakeup_finish(&gathered);
	assert_true(wakeup_results(&one)->tasks_retired > 0);
	assert_true(wakeup_results(&one)->wakeups > 10000);
	same_results(&one, &batch);
	same_results(&one, &gathered);
	wakeup_release(&one);
	wakeup_release(&batch);
	wakeup_release(&gathered);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smt_sibling),
		cmocka_unit_test(pulled_across_sockets),
		cmocka_unit_test(missed_switch_in),
		cmocka_unit_test(names_at_the_wakeup),
		cmocka_unit_test(system_wide_named_before_first_event),
		cmocka_unit_test(unplaced_target_prev_cpu),
		cmocka_unit_test(switch_kinds),
		cmocka_unit_test(fork_following),
		cmocka_unit_test(system_wide_excludes),
		cmocka_unit_test(woken_while_running),
		cmocka_unit_test(system_wide_first_seen_by_own_event),
		cmocka_unit_test(wakeup_only_source),
		cmocka_unit_test(pair_table_bounded),
		cmocka_unit_test(tasks_retire),
		cmocka_unit_test(lost_records),
		cmocka_unit_test(batch_same_as_one_by_one),
	};

	return cmocka_run_group_tests_name("wakeup", tests, setup, teardown);
}
