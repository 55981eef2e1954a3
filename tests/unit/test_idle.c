/*
 * test_idle.c - idle CPUs passed over: the tracker's rule case by case, then
 * through the wakeup analyzer from sched events (affinity as events). The IPIs'
 * matching to wakeups: test_wakeup_ipi.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

#include "../../analyzers/idle.h"
#include "../../analyzers/wakeup.h"
#include "../../collectors/topology.h"
#include "idle_machine.h"
#include "../../report/sched_idle.h"

/* Judge a wakeup now, CPUs still idle counted idle (idle_check). */
static struct idle_check chk(struct idle_track *it, uint64_t pos, int target,
			     const uint64_t *allowed, const uint64_t *snap, uint64_t wake,
			     uint64_t run)
{
	struct idle_q q = { .wake = wake, .run = run, .pos_wake = pos, .pos_run = idle_pos(it),
			    .target = target, .tag = -1, .allowed = allowed, .at_wake = snap };

	return idle_check(it, &q);
}

/* The same judged as the report does: waits while a CPU's state is open. */
static struct idle_check judge(struct idle_track *it, uint64_t pos, int target,
			       const uint64_t *snap, uint64_t wake, uint64_t run)
{
	struct idle_q q = { .wake = wake, .run = run, .pos_wake = pos, .pos_run = idle_pos(it),
			    .target = target, .tag = 7, .allowed = NULL, .at_wake = snap };

	return idle_judge(it, &q);
}

static void rule(void **state)
{
	struct topology t;
	struct idle_track it;
	uint64_t snap[1], allowed, pos;
	struct idle_check r;

	machine(&t, false);
	idle_init(&it, &t);
	busy_all(&it, 100);
	/* nothing idle: not passed over */
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);
	r = chk(&it, pos, 0, NULL, snap, 1000, 2000);
	assert_int_equal(r.verdict, IDLE_NONE);
	/* the SMT sibling of the target idle from before the wakeup to the run */
	idle_set(&it, 4, true, 500);
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);
	r = chk(&it, pos, 0, NULL, snap, 1000, 3000);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.closest, LOC_SMT);
	assert_int_equal(r.wait_ns, 2000);
	/* only outside the affinity: CPUs 0 and 1 allowed */
	allowed = 0x3;
	r = chk(&it, pos, 0, &allowed, snap, 1000, 3000);
	assert_int_equal(r.verdict, IDLE_NOT_ALLOWED);
	/* a shared-LLC CPU idle, allowed: closest LLC */
	idle_set(&it, 1, true, 1500);
	r = chk(&it, pos, 0, &allowed, snap, 1000, 3000);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.closest, LOC_LLC);
	assert_int_equal(r.wait_ns, 1500); /* CPU 1 idled from 1500 to the run at 3000 */
	/* the target itself was idle at the wakeup: the wait was not on a busy CPU */
	busy_all(&it, 3000);
	idle_set(&it, 2, true, 3100);
	idle_set(&it, 6, true, 3100);
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);
	r = chk(&it, pos, 2, NULL, snap, 3200, 3300);
	assert_int_equal(r.verdict, IDLE_NONE);
	/* idle at the wakeup, busy by the run: counted, the overlap up to when it left */
	idle_set(&it, 2, false, 3250); /* the target runs something else */
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);      /* 6 idle at the wakeup at 3260 */
	idle_set(&it, 6, false, 3400);
	r = chk(&it, pos, 2, NULL, snap, 3260, 3600);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.closest, LOC_SMT);
	assert_int_equal(r.wait_ns, 140);
	/* idle only in between (not at the wakeup, not at the run): not seen */
	busy_all(&it, 4000);
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);
	idle_set(&it, 3, true, 4100);
	idle_set(&it, 3, false, 4200);
	r = chk(&it, pos, 2, NULL, snap, 4050, 4300);
	assert_int_equal(r.verdict, IDLE_NONE);
	idle_release(&it);
	topology_release(&t);
}

/*
 * Events of the same nanosecond are ordered as they came: a CPU that went idle at the
 * wakeup's nanosecond, after the wakeup, was not idle at it; one that left idle at the
 * run's nanosecond, after the run, was idle at it.
 */
static void same_nanosecond(void **state)
{
	struct topology t;
	struct idle_track it;
	uint64_t snap[1], pos;
	struct idle_check r;

	machine(&t, false);
	idle_init(&it, &t);
	busy_all(&it, 100);
	idle_snapshot(&it, snap); /* the wakeup at 1000 */
	pos = idle_pos(&it);
	idle_set(&it, 3, true, 1000); /* after it, at its nanosecond */
	idle_set(&it, 3, false, 1200);
	r = chk(&it, pos, 2, NULL, snap, 1000, 1300);
	assert_int_equal(r.verdict, IDLE_NONE); /* idle only in between */
	/* idle before the wakeup, left at its nanosecond after it: idle at the wakeup */
	busy_all(&it, 2000);
	idle_set(&it, 3, true, 2100);
	idle_snapshot(&it, snap); /* the wakeup at 2500 */
	pos = idle_pos(&it);
	idle_set(&it, 3, false, 2500);
	r = chk(&it, pos, 2, NULL, snap, 2500, 2700);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.wait_ns, 0);
	idle_release(&it);
	topology_release(&t);
}

/* Judged as the report does, the wakeup and the run numbered as events (idle_event). */
static struct idle_check judge_ev(struct idle_track *it, uint64_t pos, uint32_t k_wake,
				  const uint64_t *snap, uint64_t wake, uint64_t run)
{
	struct idle_q q = { .wake = wake, .run = run, .pos_wake = pos, .pos_run = idle_pos(it),
			    .k_wake = k_wake, .k_run = idle_tick(it), .target = 2, .tag = 7,
			    .at_wake = snap };

	return idle_judge(it, &q);
}

/* The one judgement that waited, made now. */
static struct idle_check made(struct idle_track *it)
{
	int n;
	const struct idle_check *r = idle_ready(it, &n);

	assert_int_equal(n, 1);
	return r[0];
}

/*
 * The same with a CPU idle through the run whose switch-in is then inferred (its period
 * ends at its last idle event, here its switch to idle at the wakeup's nanosecond): the
 * order of the two events of that nanosecond decides, as a recording of a ping-pong here
 * had it (CPU 3 went idle just after the wakeup: not passed over; perf script agrees).
 */
static void same_nanosecond_inferred(void **state)
{
	static const bool idle_first[3] = { false, true, true };
	static const bool recorded[3] = { false, false, true };
	static const enum idle_verdict want[3] = { IDLE_NONE, IDLE_NONE, IDLE_PASSED };
	struct topology t;

	machine(&t, false);
	for (int i = 0; i < 3; i++) {
		struct idle_track it;
		uint64_t snap[1], pos;
		uint32_t k;
		struct idle_check r;

		idle_init(&it, &t);
		idle_event(&it);
		busy_all(&it, 100);
		if (idle_first[i]) {
			idle_event(&it);
			idle_set(&it, 3, true, 1000); /* before the wakeup, at its nanosecond */
		}
		idle_event(&it); /* the wakeup at 1000 */
		idle_snapshot(&it, snap);
		pos = idle_pos(&it);
		k = idle_tick(&it);
		if (!idle_first[i]) {
			idle_event(&it);
			idle_set(&it, 3, true, 1000); /* after it, at its nanosecond */
		}
		idle_event(&it); /* the run on CPU 2 at 1100: CPU 3's state is open */
		r = judge_ev(&it, pos, k, snap, 1000, 1100);
		assert_int_equal(r.verdict, IDLE_DEFERRED);
		idle_event(&it); /* CPU 3 runs a task at 1500: recorded, or inferred */
		idle_leave(&it, 3, 1500, recorded[i]);
		r = made(&it);
		assert_int_equal(r.verdict, want[i]);
		assert_int_equal(r.wait_ns, want[i] == IDLE_PASSED ? 100 : 0);
		idle_release(&it);
	}
	topology_release(&t);
}

static void closest_node(void **state)
{
	struct topology t;
	struct idle_track it;
	uint64_t snap[1], pos;
	struct idle_check r;

	machine(&t, true);
	idle_init(&it, &t);
	busy_all(&it, 100);
	idle_set(&it, 3, true, 200); /* other LLC, other node */
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);
	r = chk(&it, pos, 0, NULL, snap, 300, 400);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.closest, LOC_REMOTE);
	idle_release(&it);
	topology_release(&t);
	machine(&t, false);
	idle_init(&it, &t);
	busy_all(&it, 100);
	idle_set(&it, 3, true, 200); /* other LLC, same node */
	idle_snapshot(&it, snap);
	pos = idle_pos(&it);
	r = chk(&it, pos, 0, NULL, snap, 300, 400);
	assert_int_equal(r.closest, LOC_NODE);
	idle_release(&it);
	topology_release(&t);
}

/* The idle wait: the time of the wait during which at least one allowed CPU was idle,
 * every period counted (at the wakeup, in between, at the run), overlaps once. */
static void wait_is_union(void **state)
{
	struct topology t;
	struct idle_track it;
	uint64_t snap[1], pos, allowed = ~0x40ull;
	struct idle_check r;

	machine(&t, false);
	idle_init(&it, &t);
	busy_all(&it, 100);
	idle_set(&it, 3, true, 900);
	idle_snapshot(&it, snap); /* the wakeup at 1000: CPU 3 idle */
	pos = idle_pos(&it);
	idle_set(&it, 5, true, 1200);
	idle_set(&it, 3, false, 1300);
	idle_set(&it, 5, false, 1600);
	idle_set(&it, 6, true, 1800);
	r = chk(&it, pos, 0, NULL, snap, 1000, 2000);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.wait_ns, 300 + 300 + 200); /* [1000,1600] and [1800,2000] */
	assert_int_equal(r.closest, LOC_NODE); /* 3 or 6; 5 (same LLC) idled only in between */
	/* CPU 6 not allowed: its part is not in the wait */
	r = chk(&it, pos, 0, &allowed, snap, 1000, 2000);
	assert_int_equal(r.verdict, IDLE_PASSED);
	assert_int_equal(r.wait_ns, 600);
	idle_release(&it);
	topology_release(&t);
}

/*
 * A task's event on a CPU thought idle: its switch-in is inferred, the idle period ends
 * at the idle task's last event there, and a wakeup judged meanwhile waits until then.
 */
static void inferred_switch_in(void **state)
{
	struct topology t;
	struct idle_track it;
	uint64_t snap[1], pos;
	const struct idle_check *ready;
	struct idle_check r;
	int n;

	machine(&t, false);
	for (int how = 0; how < 4; how++) {
		idle_init(&it, &t);
		busy_all(&it, 50);
		idle_enter(&it, 1, 100);
		idle_enter(&it, 1, 150); /* the idle task's event: idle at 150 */
		idle_snapshot(&it, snap); /* wakeup at 200 of a task on busy CPU 0 */
		pos = idle_pos(&it);
		r = judge(&it, pos, 0, snap, 200, 300);
		assert_int_equal(r.verdict, IDLE_DEFERRED); /* CPU 1 after 150: not known yet */
		ready = idle_ready(&it, &n);
		assert_int_equal(n, 0);
		if (how == 0) { /* a task's event at 400: it ran, its switch-in lost */
			assert_int_equal(idle_leave(&it, 1, 400, false), 250);
		} else if (how == 1) { /* the switch away from idle recorded at 400 */
			assert_int_equal(idle_leave(&it, 1, 400, true), 0);
		} else if (how == 2) { /* the idle task again at 350: idle through the run */
			idle_enter(&it, 1, 350);
		} else { /* nothing more: the end of the stream, idle to the end */
			idle_flush(&it);
		}
		ready = idle_ready(&it, &n);
		assert_int_equal(n, 1);
		assert_int_equal(ready[0].tag, 7);
		assert_int_equal(ready[0].target, 0);
		if (how == 0) {
			assert_int_equal(ready[0].verdict, IDLE_NONE); /* idle to 150 only */
		} else {
			assert_int_equal(ready[0].verdict, IDLE_PASSED);
			assert_int_equal(ready[0].closest, LOC_LLC);
			assert_int_equal(ready[0].wait_ns, 100);
		}
		idle_release(&it);
	}
	topology_release(&t);
}

/* Task tid may run on the CPUs of *mask from t on (mask NULL: unknown). */
static void aff(struct wakeup *w, uint64_t t, int tid, const uint64_t *mask)
{
	struct event e = { .type = EV_AFFINITY, .time_ns = t };

	e.aff.pid = tid;
	e.aff.nwords = 1;
	e.aff.mask = mask;
	wakeup_add(w, &e);
}

static const uint64_t cpu0 = 0x1, every = 0xff;

/* Tasks 100 and 101 may run on CPU 0 only; 50 and 200 anywhere (as a stream begins). */
static void pinned(struct wakeup *w)
{
	aff(w, 0, 100, &cpu0);
	aff(w, 0, 101, &cpu0);
	aff(w, 0, 50, &every);
	aff(w, 0, 200, &every);
}

/* CPU 0 runs a hog (tid 50); CPU 1 idles. Tasks sleep and are woken on CPU 0. */
static void through_analyzer(void **state)
{
	struct topology t;
	struct wakeup w;
	struct wakeup_cfg cfg = { 0 };
	struct sched_results *r;
	uint64_t now = 1000;

	machine(&t, false);
	cfg.topo = &t;
	cfg.system_wide = true;
	cfg.waking_source = true;
	cfg.affinity_events = true;
	wakeup_init(&w, &cfg);
	pinned(&w);
	for (int c = 0; c < 8; c++) { /* every CPU shows its state */
		struct event e = sw(c, now, 0, c == 0 ? 50 : 0);

		if (c)
			e = sw(c, now, 7000 + c, 0);
		wakeup_add(&w, &e);
	}
	for (int i = 0; i < 10; i++) {
		int tid = i % 2 ? 100 : 200; /* 100 pinned to CPU 0, 200 free */
		struct event e;

		now += 1000;
		e = wake(0, now, 50, tid, 0);
		wakeup_add(&w, &e);
		now += 500; /* waits behind the hog while CPUs 1-7 idle */
		e = sw(0, now, 50, tid);
		wakeup_add(&w, &e);
		now += 100;
		e = sw(0, now, tid, 50);
		wakeup_add(&w, &e);
	}
	wakeup_finish(&w);
	r = wakeup_results(&w);
	assert_int_equal(r->delay.count, 10);
	assert_int_equal(r->idle_passed, 5);	  /* tid 200 could have run elsewhere */
	assert_int_equal(r->idle_not_allowed, 5); /* tid 100 could not */
	assert_int_equal(r->idle_closest[LOC_SMT], 5);	 /* CPU 4, the sibling of 0 */
	assert_int_equal(r->idle_passed_class[LOC_SAME_CPU], 5);
	assert_int_equal(r->idle_wait_ns, 5 * 500);
	assert_int_equal(r->cpu[0].idle_passed, 5);
	assert_true(r->prov.affinity_known);
	wakeup_release(&w);
	topology_release(&t);
}

/* A wakeup of tid on CPU 0 behind the hog (tid 50) while CPUs 1-7 idle: woken at *now,
 * run 500 ns later, back to the hog 100 ns after. */
static void behind_hog(struct wakeup *w, uint64_t *now, int tid)
{
	struct event e;

	*now += 1000;
	e = wake(0, *now, 50, tid, 0);
	wakeup_add(w, &e);
	*now += 500;
	e = sw(0, *now, 50, tid);
	wakeup_add(w, &e);
	*now += 100;
	e = sw(0, *now, tid, 50);
	wakeup_add(w, &e);
}

/* The hog on CPU 0, CPUs 1-7 idle: each CPU shows its state at now. */
static void hog_and_idle(struct wakeup *w, uint64_t now)
{
	for (int c = 0; c < 8; c++) {
		struct event e = c ? sw(c, now, 7000 + c, 0) : sw(c, now, 0, 50);

		wakeup_add(w, &e);
	}
}

/*
 * Masks as the stream gives them: a task pinned, then let go (the wakeups before the
 * change not allowed, after it passed over); a child takes its parent's mask at its fork;
 * a task never given one, or gone when asked, is not judged and counted once.
 */
static void affinity_changes(void **state)
{
	struct topology t;
	struct wakeup w;
	struct wakeup_cfg cfg = { 0 };
	struct sched_results *r;
	struct event fork = { .type = EV_FORK, .cpu = 0, .tid = 100, .pid = 100 };
	uint64_t now = 1000;

	(void)state;
	machine(&t, false);
	cfg.topo = &t;
	cfg.system_wide = true;
	cfg.waking_source = true;
	cfg.affinity_events = true;
	wakeup_init(&w, &cfg);
	pinned(&w);
	hog_and_idle(&w, now);
	for (int i = 0; i < 4; i++)
		behind_hog(&w, &now, 100);
	aff(&w, now, 100, &every); /* let go */
	for (int i = 0; i < 3; i++)
		behind_hog(&w, &now, 100);
	aff(&w, now, 100, &cpu0); /* pinned again, then forks 300 */
	fork.time_ns = ++now;
	fork.fork.parent_pid = 100;
	fork.fork.child_pid = 300;
	wakeup_add(&w, &fork);
	aff(&w, ++now, 100, &every); /* the parent's change is not the child's */
	for (int i = 0; i < 2; i++)
		behind_hog(&w, &now, 300);
	for (int i = 0; i < 2; i++) /* never given a mask */
		behind_hog(&w, &now, 400);
	aff(&w, now, 500, NULL); /* gone when its mask was asked for */
	behind_hog(&w, &now, 500);
	wakeup_finish(&w);
	r = wakeup_results(&w);
	assert_int_equal(r->delay.count, 4 + 3 + 2 + 2 + 1);
	assert_int_equal(r->idle_passed, 3);	  /* 100 let go */
	assert_int_equal(r->idle_not_allowed, 6); /* 100 pinned, and its child */
	assert_int_equal(r->affinity_unknown, 2); /* 400 and 500, once each */
	assert_true(r->prov.affinity_known);
	wakeup_release(&w);
	topology_release(&t);
}

/* A stream that gives no affinity (perf's files): nothing judged, said in the provenance. */
static void affinity_none(void **state)
{
	struct topology t;
	struct wakeup w;
	struct wakeup_cfg cfg = { 0 };
	uint64_t now = 1000;

	(void)state;
	machine(&t, false);
	cfg.topo = &t;
	cfg.system_wide = true;
	cfg.waking_source = true;
	wakeup_init(&w, &cfg);
	hog_and_idle(&w, now);
	for (int i = 0; i < 5; i++)
		behind_hog(&w, &now, 200);
	wakeup_finish(&w);
	assert_int_equal(w.r.delay.count, 5);
	assert_int_equal(w.r.idle_passed + w.r.idle_not_allowed + w.r.affinity_unknown, 0);
	assert_false(w.r.prov.affinity_known);
	wakeup_release(&w);
	topology_release(&t);
}

/* The text says its counts are lower bounds once over 10% of the CPU time is unknown. */
static void unknown_lower_bound(void **state)
{
	struct topology t;
	struct wakeup w;
	struct wakeup_cfg cfg = { 0 };
	struct sched_results *r;
	char *text;
	size_t len;
	FILE *f;

	(void)state;
	machine(&t, false);
	cfg.topo = &t;
	cfg.system_wide = true;
	cfg.waking_source = true;
	wakeup_init(&w, &cfg);
	for (int c = 0; c < 8; c++) {
		struct event e = sw(c, 1000, 7000 + c, 0);

		wakeup_add(&w, &e);
	}
	wakeup_finish(&w);
	r = wakeup_results(&w);
	r->last_ns = r->first_ns + 1000000;
	for (uint64_t unknown = 0; unknown <= 800000; unknown += 800000) {
		r->unknown_ns = unknown; /* 0, then 10% of 8 CPUs' time */
		f = open_memstream(&text, &len);
		sched_idle_text(f, r);
		fclose(f);
		if (unknown)
			assert_non_null(strstr(text, "lower bounds: 10.0% of the CPU time is unknown"));
		else
			assert_null(strstr(text, "lower bounds"));
		free(text);
	}
	wakeup_release(&w);
	topology_release(&t);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule),
		cmocka_unit_test(same_nanosecond),
		cmocka_unit_test(same_nanosecond_inferred),
		cmocka_unit_test(closest_node),
		cmocka_unit_test(wait_is_union),
		cmocka_unit_test(inferred_switch_in),
		cmocka_unit_test(through_analyzer),
		cmocka_unit_test(affinity_changes),
		cmocka_unit_test(affinity_none),
		cmocka_unit_test(unknown_lower_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
