/*
 * test_timeline.c - the timeline analyzer from hand-made sched events: running
 * periods and how they ended, wakeup flows with their class, a switch-in the
 * kernel did not record, the wakeup analyzer's idle-CPU verdicts on the flows (at
 * once, deferred, not judged), a window cutting a period;
 * then the lanes of the SVG: the fold, time per pixel, arrows thinned evenly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "../../analyzers/timeline.h"
#include "../../analyzers/tl_lanes.h"
#include "../../analyzers/wakeup.h"
#include "events.h"

#define MAXI 64

struct sink {
	struct tl_item it[MAXI];
	int n;
};

static void collect(void *ctx, const struct tl_item *it)
{
	struct sink *s = ctx;

	assert_true(s->n < MAXI);
	s->it[s->n++] = *it;
}

/* 4 CPUs: cores {0,2} {1,3}, one LLC, one node */
static void machine(struct topology *t)
{
	static const int core[4] = { 0, 1, 0, 1 };
	static const int llc[4] = { 0, 0, 0, 0 };
	static const int node[4] = { 0, 0, 0, 0 };

	topology_from_arrays(t, 4, core, llc, node);
}

static const struct tl_item *find(const struct sink *s, enum tl_kind k, int32_t tid, int nth)
{
	for (int i = 0; i < s->n; i++)
		if (s->it[i].kind == k && (tid < 0 || s->it[i].tid == tid) && nth-- == 0)
			return &s->it[i];
	return NULL;
}

static int count(const struct sink *s, enum tl_kind k)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->it[i].kind == k;
	return n;
}

static void feed(struct timeline *tl, const struct event *ev, int n)
{
	for (int i = 0; i < n; i++)
		timeline_event(tl, &ev[i]);
	timeline_finish(tl);
}

static void periods_and_flows(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, NULL, NULL, false };
	const struct tl_item *a, *b, *c, *f;
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),		/* CPU 0: idle -> A */
		ev_switch(110, 1, 0, 0, 0),		/* CPU 1 seen idle */
		ev_waking(150, 0, 10, 11, 1),		/* A wakes B (last on CPU 1) */
		ev_switch(200, 1, 0, 0, 11),		/* B runs on CPU 1 */
		ev_switch(300, 1, 11, S_SLEEP, 0),	/* B sleeps */
		ev_switch(400, 0, 10, 0, 12),		/* A preempted by C */
		ev_migrate(450, 0, 12, 10, 0, 1),
		ev_switch(500, 1, 0, 0, 0),
	};

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	feed(&tl, ev, (int)(sizeof(ev) / sizeof(ev[0])));
	a = find(&s, TL_SLICE, 10, 0);
	b = find(&s, TL_SLICE, 11, 0);
	c = find(&s, TL_SLICE, 12, 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(a->cpu, 0);
	assert_int_equal(a->t0, 100);
	assert_int_equal(a->t1, 400);
	assert_int_equal(a->end, TL_END_PREEMPT);
	assert_false(a->clipped);
	assert_int_equal(b->cpu, 1);
	assert_int_equal(b->t0, 200);
	assert_int_equal(b->t1, 300);
	assert_int_equal(b->end, TL_END_SLEEP);
	assert_int_equal(c->t0, 400);
	assert_int_equal(c->t1, 500); /* the last event */
	assert_int_equal(c->end, TL_END_OPEN);
	assert_string_equal(b->comm, "task11");
	assert_int_equal(count(&s, TL_SLICE), 3);
	f = find(&s, TL_FLOW, 11, 0);
	assert_non_null(f);
	assert_int_equal(f->from_cpu, 0);
	assert_int_equal(f->cpu, 1);
	assert_int_equal(f->t0, 150);
	assert_int_equal(f->t1, 200);
	assert_int_equal(f->cls, LOC_LLC); /* other core, one LLC */
	assert_int_equal(f->passed, TL_IDLE_UNJUDGED); /* no analyzer tells */
	assert_true(f->workload);
	assert_int_equal(count(&s, TL_FLOW), 1);
	assert_int_equal(count(&s, TL_MIGRATE), 1);
	assert_int_equal(tl.switches_in_window, 3);
	assert_int_equal(tl.missed, 0);
	timeline_release(&tl);
	topology_release(&t);
}

/* CPU 1 left idle without a sched_switch: D's own event there starts its period. */
static void switch_in_not_recorded(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, NULL, NULL, false };
	const struct tl_item *d;
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),
		ev_switch(110, 1, 20, S_SLEEP, 0),	/* CPU 1 idle */
		ev_waking(120, 0, 10, 21, 1),		/* A wakes D */
		ev_waking(150, 1, 21, 10, 0),		/* D runs on CPU 1: no switch-in seen */
		ev_switch(200, 1, 21, S_SLEEP, 0),	/* D sleeps */
		ev_switch(210, 1, 21, S_SLEEP, 0),	/* D again, at once: a period of 0 ns, left out */
	};

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	feed(&tl, ev, (int)(sizeof(ev) / sizeof(ev[0])));
	d = find(&s, TL_SLICE, 21, 0);
	assert_non_null(d);
	assert_int_equal(d->cpu, 1);
	assert_int_equal(d->t0, 150);
	assert_int_equal(d->t1, 200);
	assert_true(d->inferred);
	assert_int_equal(d->end, TL_END_SLEEP);
	assert_string_equal(d->comm, "task21"); /* named by its wakeup */
	assert_null(find(&s, TL_SLICE, 21, 1));
	assert_null(find(&s, TL_FLOW, 21, 0)); /* when it began to run is not known */
	assert_int_equal(tl.missed, 2);
	timeline_release(&tl);
	topology_release(&t);
}

/*
 * Another task's switch-in inferred on a CPU hides how its task left (the switch-out not
 * recorded): a wakeup of that task before its next event is not waited for, as the wakeup
 * analyzer counts it (woken while running), so the timeline draws no flow the report
 * does not time.
 */
static void switch_out_not_recorded(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, NULL, NULL, false };
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),		/* A runs on CPU 0 */
		ev_waking(150, 0, 30, 20, 0),		/* C runs there: A's switch-out unseen */
		ev_switch(160, 0, 30, S_SLEEP, 0),
		ev_waking(200, 1, 40, 10, 0),		/* A woken: running or not, unknown */
		ev_switch(210, 0, 0, 0, 10),		/* A runs */
		ev_switch(300, 0, 10, S_SLEEP, 0),	/* A sleeps: seen */
		ev_waking(400, 1, 40, 10, 0),		/* a wakeup waited for */
		ev_switch(450, 0, 0, 0, 10),
	};
	const struct tl_item *f;

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	feed(&tl, ev, (int)(sizeof(ev) / sizeof(ev[0])));
	f = find(&s, TL_FLOW, 10, 0);
	assert_non_null(f);
	assert_int_equal(f->t0, 400); /* the second wakeup's flow only */
	assert_int_equal(f->t1, 450);
	assert_null(find(&s, TL_FLOW, 10, 1));
	timeline_release(&tl);
	topology_release(&t);
}

/*
 * A running task execs: its period ends there and one begins under the new name. A task
 * first seen running without a switch-in takes the name its COMM record gave it.
 */
static void renamed_at_exec(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, NULL, NULL, false };
	const struct tl_item *a, *b, *c;
	struct event ev[] = {
		ev_comm(0, 0, 30, "tbench_srv", 0),	/* before the recording */
		ev_comm(0, 0, 10, "sh", 0),
		ev_switch(100, 0, 0, 0, 10),
		ev_comm(150, 0, 10, "sleep", 1),	/* 10 execs sleep */
		ev_comm(160, 0, 10, "sleep", 0),	/* the same name: nothing to split */
		ev_switch(200, 0, 10, S_SLEEP, 0),
		ev_switch(210, 1, 20, S_SLEEP, 0),
		ev_waking(250, 1, 30, 10, 0),		/* 30 runs on CPU 1: no switch-in seen */
		ev_switch(300, 1, 30, S_SLEEP, 0),
	};

	(void)state;
	snprintf(ev[2].sw.next_comm, sizeof(ev[2].sw.next_comm), "sh");
	snprintf(ev[5].sw.prev_comm, sizeof(ev[5].sw.prev_comm), "sleep");
	machine(&t);
	timeline_init(&tl, &cfg);
	feed(&tl, ev, (int)(sizeof(ev) / sizeof(ev[0])));
	assert_int_equal(tl.first_ns, 100); /* names at time 0 are not the recording's start */
	a = find(&s, TL_SLICE, 10, 0);
	b = find(&s, TL_SLICE, 10, 1);
	assert_non_null(a);
	assert_non_null(b);
	assert_null(find(&s, TL_SLICE, 10, 2));
	assert_int_equal(a->t0, 100);
	assert_int_equal(a->t1, 150);
	assert_int_equal(a->end, TL_END_RENAMED);
	assert_string_equal(a->comm, "sh");
	assert_int_equal(b->t0, 150);
	assert_int_equal(b->t1, 200);
	assert_int_equal(b->start, TL_START_EXEC);
	assert_string_equal(b->comm, "sleep");
	c = find(&s, TL_SLICE, 30, 0);
	assert_non_null(c);
	assert_true(c->inferred);
	assert_string_equal(c->comm, "tbench_srv"); /* not ":30" */
	timeline_release(&tl);
	topology_release(&t);
}

/*
 * The timeline and the wakeup analyzer fed each event in turn, the analyzer telling its
 * verdicts to the timeline (as pipeline/sink_timeline.c beside the wakeup sink does). Returns the flows emitted
 * before event `upto` was fed (-1: all fed).
 */
static int feed_judged(struct timeline *tl, struct wakeup *w, const struct sink *s,
		       const struct event *ev, int n, int upto)
{
	int before = -1;

	for (int i = 0; i < n; i++) {
		if (i == upto)
			before = count(s, TL_FLOW);
		timeline_event(tl, &ev[i]);
		wakeup_add(w, &ev[i]);
	}
	wakeup_finish(w);
	timeline_finish(tl);
	return before;
}

static bool tracked(void *ctx, int32_t tid)
{
	return wakeup_tracks(ctx, tid);
}

static void judged_pair(struct topology *t, struct timeline *tl, struct wakeup *w,
			struct sink *s, bool system_wide)
{
	struct wakeup_cfg wc = { 0 };
	struct timeline_cfg cfg = { t, 0, 0, collect, s, tracked, w, true };

	machine(t);
	wc.topo = t;
	wc.system_wide = system_wide;
	wc.waking_source = true;
	wc.verdict = timeline_verdict;
	wc.verdict_ctx = tl;
	wc.affinity_events = true;
	wakeup_init(w, &wc);
	for (int tid = 1; tid < 64; tid++) { /* every task may run anywhere */
		static const uint64_t every = ~0ull;
		struct event a = { .type = EV_AFFINITY };

		a.aff.pid = tid;
		a.aff.nwords = 1;
		a.aff.mask = &every;
		wakeup_add(w, &a);
	}
	timeline_init(tl, &cfg);
}

/*
 * B waits on busy CPU 0, D on busy CPU 1, while CPU 2 (B's SMT sibling) idles: whether
 * CPU 2 stayed idle is known only at its next event (400), so the analyzer defers both
 * verdicts; the flows are held until then and go out in the order of their runs, with
 * the report's verdicts, the counter rising with them.
 */
static void verdict_deferred(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct wakeup w;
	const struct tl_item *b, *d, *p;
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),		/* CPU 0 busy with A */
		ev_switch(101, 1, 0, 0, 30),		/* CPU 1 busy */
		ev_switch(102, 3, 0, 0, 31),		/* CPU 3 busy */
		ev_switch(103, 2, 32, S_SLEEP, 0),	/* CPU 2 idle */
		ev_waking(200, 0, 10, 11, 0),		/* A wakes B onto CPU 0 */
		ev_waking(210, 1, 30, 13, 1),		/* and D onto CPU 1 */
		ev_switch(300, 0, 10, S_SLEEP, 11),	/* B runs there, later */
		ev_switch(310, 1, 30, S_SLEEP, 13),	/* D too */
		ev_switch(400, 2, 0, 0, 33),		/* CPU 2 was idle through both */
	};

	(void)state;
	judged_pair(&t, &tl, &w, &s, true);
	assert_int_equal(feed_judged(&tl, &w, &s, ev, 9, 8), 0); /* held until 400 */
	b = find(&s, TL_FLOW, 11, 0);
	d = find(&s, TL_FLOW, 13, 0);
	assert_non_null(b);
	assert_non_null(d);
	assert_true(b < d); /* in the order of their runs */
	assert_int_equal(b->passed, LOC_SMT);
	assert_int_equal(d->passed, LOC_LLC);
	assert_int_equal(count(&s, TL_PASSED), 2);
	p = find(&s, TL_PASSED, -1, 0);
	assert_true(p > b && p < d); /* its step right after its flow */
	assert_int_equal(p->value, 1);
	assert_int_equal(p->t0, 300);
	p = find(&s, TL_PASSED, -1, 1);
	assert_int_equal(p->value, 2);
	assert_int_equal(p->t0, 310);
	assert_int_equal(tl.passed, wakeup_results(&w)->idle_passed);
	assert_int_equal(tl.unjudged, 0);
	assert_int_equal(tl.judged_unseen, 0);
	timeline_release(&tl);
	wakeup_release(&w);
	topology_release(&t);
}

/*
 * The same wait, but CPU 2's next event is a task's (its switch-in lost by the stream):
 * CPU 2 was not idle after its last idle event, so nothing was passed over. Judged at
 * B's run, CPU 2 still looked idle: the timeline says what the report says, none.
 */
static void verdict_deferred_none(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct wakeup w;
	const struct tl_item *b;
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),
		ev_switch(101, 1, 0, 0, 30),
		ev_switch(102, 3, 0, 0, 31),
		ev_switch(103, 2, 32, S_SLEEP, 0),	/* CPU 2 idle */
		ev_waking(200, 0, 10, 11, 0),
		ev_switch(300, 0, 10, S_SLEEP, 11),	/* B runs: CPU 2 still looks idle */
		ev_waking(350, 2, 33, 34, 2),		/* 33 runs on CPU 2: no switch-in seen */
	};

	(void)state;
	judged_pair(&t, &tl, &w, &s, true);
	assert_int_equal(feed_judged(&tl, &w, &s, ev, 7, 6), 0);
	b = find(&s, TL_FLOW, 11, 0);
	assert_non_null(b);
	assert_int_equal(b->passed, TL_IDLE_NONE);
	assert_null(find(&s, TL_PASSED, -1, 0));
	assert_int_equal(wakeup_results(&w)->idle_passed, 0);
	timeline_release(&tl);
	wakeup_release(&w);
	topology_release(&t);
}

/* Judged at once; a flow of a task the analyzer does not follow is not judged. */
static void verdict_scope(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct wakeup w;
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),
		ev_switch(101, 1, 0, 0, 30),
		ev_waking(200, 0, 10, 11, 1),
		ev_waking(201, 0, 10, 12, 0),
		ev_switch(300, 1, 30, S_SLEEP, 11),
		ev_switch(310, 0, 10, S_SLEEP, 12),
	};

	(void)state;
	judged_pair(&t, &tl, &w, &s, false);
	wakeup_track(&w, 10);
	wakeup_track(&w, 11);
	feed_judged(&tl, &w, &s, ev, 6, -1);
	assert_int_equal(find(&s, TL_FLOW, 11, 0)->passed, TL_IDLE_NONE);
	assert_true(find(&s, TL_FLOW, 11, 0)->workload);
	assert_int_equal(find(&s, TL_FLOW, 12, 0)->passed, TL_IDLE_UNJUDGED);
	assert_false(find(&s, TL_FLOW, 12, 0)->workload);
	assert_int_equal(tl.unjudged, 0);
	timeline_release(&tl);
	wakeup_release(&w);
	topology_release(&t);
}

/*
 * Verdicts told by hand: a flow of the workload told nothing while the analyzer took its
 * run is not judged; a verdict on a wakeup that made no flow still counts (the report
 * counts it), deferred or not, in the order of the runs.
 */
static void verdict_told(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, NULL, NULL, true };
	struct idle_told v = { 20, 150, 250, { IDLE_DEFERRED, LOC_REMOTE, 0, 0, -1 } };
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),
		ev_waking(200, 0, 10, 11, 1),
		ev_switch(300, 1, 0, 0, 11),		/* B runs: its flow, told nothing */
		ev_switch(400, 0, 10, S_SLEEP, 0),
	};

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	timeline_event(&tl, &ev[0]);
	timeline_event(&tl, &ev[1]);
	timeline_verdict(&tl, &v); /* a task with no flow here, deferred */
	timeline_event(&tl, &ev[2]);
	assert_int_equal(count(&s, TL_FLOW), 0); /* behind the deferred one */
	timeline_event(&tl, &ev[3]);
	assert_int_equal(count(&s, TL_FLOW), 0);
	assert_int_equal(tl.unjudged, 1);
	v.ic.verdict = IDLE_PASSED;
	v.ic.closest = LOC_NODE;
	timeline_verdict(&tl, &v); /* made */
	assert_int_equal(count(&s, TL_PASSED), 1);
	assert_int_equal(find(&s, TL_PASSED, -1, 0)->t0, 250);
	assert_int_equal(find(&s, TL_FLOW, 11, 0)->passed, TL_IDLE_UNJUDGED);
	assert_true(find(&s, TL_PASSED, -1, 0) < find(&s, TL_FLOW, 11, 0));
	assert_int_equal(tl.judged_unseen, 1);
	timeline_finish(&tl);
	timeline_release(&tl);
	topology_release(&t);
}

/* The stream stops (a read error) while a flow waits for its verdict: flushed, not judged. */
static void flush_held(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, NULL, NULL, true };
	struct idle_told v = { 11, 200, 300, { IDLE_DEFERRED, LOC_REMOTE, 0, 1, -1 } };
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),
		ev_waking(200, 0, 10, 11, 1),
		ev_switch(300, 1, 0, 0, 11),
	};

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	for (int i = 0; i < 3; i++)
		timeline_event(&tl, &ev[i]);
	timeline_verdict(&tl, &v); /* deferred at its run, then nothing more */
	assert_int_equal(count(&s, TL_FLOW), 0);
	timeline_flush(&tl);
	assert_int_equal(count(&s, TL_FLOW), 1);
	assert_int_equal(find(&s, TL_FLOW, 11, 0)->passed, TL_IDLE_UNJUDGED);
	assert_int_equal(tl.unjudged, 1);
	assert_int_equal(count(&s, TL_SLICE), 0); /* the periods running stay open */
	timeline_release(&tl);
	topology_release(&t);
}

/* A window from 50 ns to 150 ns after the first event: a period across its start is cut. */
static void window(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 50, 150, collect, &s, NULL, NULL, false };
	const struct tl_item *a;
	struct event ev[] = {
		ev_switch(1000, 0, 0, 0, 10),		/* A from 1000 (time 0) */
		ev_waking(1020, 0, 10, 11, 1),		/* before the window: no flow */
		ev_switch(1080, 1, 0, 0, 11),
		ev_switch(1100, 0, 10, S_SLEEP, 12),	/* A ends in the window */
		ev_switch(1300, 0, 12, S_SLEEP, 0),	/* C ends after it */
	};

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	feed(&tl, ev, (int)(sizeof(ev) / sizeof(ev[0])));
	a = find(&s, TL_SLICE, 10, 0);
	assert_non_null(a);
	assert_true(a->clipped);
	assert_int_equal(a->t0, 1050);
	assert_int_equal(a->t1, 1100);
	assert_null(find(&s, TL_FLOW, 11, 0));
	assert_non_null(find(&s, TL_SLICE, 12, 0)); /* began in the window */
	assert_int_equal(tl.switches_in_window, 2); /* B at 1080, C at 1100 */
	timeline_release(&tl);
	topology_release(&t);
}

static bool only_even(void *ctx, int32_t tid)
{
	(void)ctx;
	return tid % 2 == 0;
}

static void workload_scope(void **state)
{
	struct topology t;
	struct sink s = { .n = 0 };
	struct timeline tl;
	struct timeline_cfg cfg = { &t, 0, 0, collect, &s, only_even, NULL, false };
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 10),
		ev_switch(200, 0, 10, S_SLEEP, 11),
		ev_switch(300, 0, 11, S_SLEEP, 0),
	};

	(void)state;
	machine(&t);
	timeline_init(&tl, &cfg);
	feed(&tl, ev, 3);
	assert_true(find(&s, TL_SLICE, 10, 0)->workload);
	assert_false(find(&s, TL_SLICE, 11, 0)->workload);
	timeline_release(&tl);
	topology_release(&t);
}

static struct tl_item slice(int cpu, uint64_t t0, uint64_t t1, int32_t tid)
{
	struct tl_item it = { .kind = TL_SLICE, .cpu = cpu, .t0 = t0, .t1 = t1, .tid = tid,
			      .workload = true };

	snprintf(it.comm, sizeof(it.comm), "t%d", tid);
	return it;
}

static void lanes(void **state)
{
	struct topology t;
	struct tl_lanes l;
	struct tl_lanes_cfg cfg = { &t, 10, 4, 4 };
	struct tl_item a = slice(0, 1000, 1500, 10), b = slice(2, 1200, 1400, 11);
	uint64_t busy = 0;

	(void)state;
	machine(&t);
	tl_lanes_init(&l, &cfg);
	assert_int_equal(l.fold.n, 4); /* 4 CPUs fit in 4 lanes */
	tl_lanes_release(&l);
	cfg.max_lanes = 2;
	tl_lanes_init(&l, &cfg);
	assert_int_equal(l.fold.n, 2); /* per core: {0,2} {1,3} */
	assert_string_equal(l.fold.unit, "core");
	assert_int_equal(l.lane_cpus[0], 2);
	tl_lanes_window(&l, 900, 1000, 2000); /* 100 ns a pixel */
	tl_lanes_item(&l, &a);
	tl_lanes_item(&l, &b);
	for (int p = 0; p < 10; p++)
		busy += l.px[p].busy;
	assert_int_equal(busy, 700);		/* both CPUs of core 0, summed */
	assert_int_equal(l.px[2].busy, 200);	/* 1200-1300: A and B */
	assert_int_equal(l.px[5].busy, 0);
	assert_int_equal(l.px[0].top, 0);	/* A, the first task seen */
	assert_int_equal(l.slices, 2);
	/* 10 wakeups of the workload, room for 4 arrows: every 4th kept, evenly */
	for (int i = 0; i < 10; i++) {
		struct tl_item f = { .kind = TL_FLOW, .cpu = 1, .from_cpu = 0, .t0 = 1000 + 10 * i,
				     .t1 = 1005 + 10 * i, .tid = 10, .cls = LOC_LLC,
				     .workload = true };

		tl_lanes_item(&l, &f);
	}
	assert_int_equal(l.wl_flows, 10);
	assert_int_equal(l.flows_class[LOC_LLC], 10);
	assert_int_equal(l.stride, 4);
	assert_int_equal(l.narrows, 3); /* wakeups 0, 4 and 8 */
	for (int i = 0; i < l.narrows; i++)
		assert_int_equal(l.arrows[i].seq, 4 * i);
	assert_int_equal(l.arrows[0].from, 0);
	assert_int_equal(l.arrows[0].to, 1);
	tl_lanes_release(&l);
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(periods_and_flows),
		cmocka_unit_test(switch_in_not_recorded), cmocka_unit_test(switch_out_not_recorded),
		cmocka_unit_test(renamed_at_exec),
		cmocka_unit_test(verdict_deferred),
		cmocka_unit_test(verdict_deferred_none),
		cmocka_unit_test(verdict_scope),
		cmocka_unit_test(verdict_told),
		cmocka_unit_test(flush_held),
		cmocka_unit_test(window),
		cmocka_unit_test(workload_scope),
		cmocka_unit_test(lanes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
