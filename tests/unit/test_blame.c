/*
 * test_blame.c - who delayed the wakee: hand-made sched and irq events through the blame
 * analyzer, each wait's split worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "../../analyzers/blame.h"
#include "../../analyzers/blame_live.h"
#include "../../collectors/topology.h"
#include "../../report/blame_report.h"
#include "events.h"
#include "golden.h"

static void machine(struct topology *t)
{
	static const int core[4] = { 0, 1, 2, 3 };
	static const int llc[4] = { 0, 0, 0, 0 };
	static const int node[4] = { 0, 0, 0, 0 };

	topology_from_arrays(t, 4, core, llc, node);
}

static struct event ev_irq(uint64_t t, int cpu, int cur, int type, int num, const char *name)
{
	struct event e = ev_base(t, cpu, cur, type);

	e.irq.num = num;
	snprintf(e.irq.name, sizeof(e.irq.name), "%s", name ? name : "");
	return e;
}

static void feed(struct blame *b, const struct event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		blame_add(b, &ev[i]);
}

static const struct blame_culprit *culprit(const struct blame_results *r, int tid)
{
	for (int i = 0; i < r->nculprits; i++)
		if (r->culprits[i].tid == tid)
			return &r->culprits[i];
	return NULL;
}

/* A hog running on the wakee's CPU, a softirq with a hardirq inside it: nothing twice. */
static void hog_and_irqs(void **state)
{
	struct topology t;
	struct blame b;
	struct blame_cfg cfg = { 0 };
	const struct blame_results *r;
	const struct blame_culprit *k;
	struct event ev[] = {
		ev_switch(100, 1, 0, 0, 50),		/* hog on CPU 1 */
		ev_switch(200, 0, 10, S_SLEEP, 20),	/* 10 sleeps, 20 runs on CPU 0 */
		ev_waking(1000, 0, 20, 10, 1),
		ev_irq(2000, 1, 50, EV_SOFTIRQ_ENTRY, 3, NULL),
		ev_irq(2200, 1, 50, EV_IRQ_ENTRY, 24, "virtio0-reporting_vq"),
		ev_irq(2300, 1, 50, EV_IRQ_EXIT, 24, NULL),
		ev_irq(2500, 1, 50, EV_SOFTIRQ_EXIT, 3, NULL),
		ev_switch(5000, 1, 50, S_PREEMPT, 10),	/* 10 waited 4000 */
	};

	(void)state;
	machine(&t);
	cfg.topo = &t;
	cfg.waking_source = true;
	cfg.irq_source = true;
	blame_init(&b, &cfg);
	feed(&b, ev, sizeof(ev) / sizeof(ev[0]));
	blame_finish(&b);
	r = blame_results(&b);
	assert_int_equal(r->all.wakeups, 1);
	assert_int_equal(r->all.wait_ns, 4000);
	assert_int_equal(r->all.ns[BC_RUNNING], 3500);
	assert_int_equal(r->all.ns[BC_SOFTIRQ], 400);
	assert_int_equal(r->all.ns[BC_HARDIRQ], 100);
	assert_int_equal(r->all.ns[BC_UNKNOWN], 0);
	assert_int_equal(r->cpu[1].wait_ns, 4000);
	assert_int_equal(r->by_class[LOC_LLC].wakeups, 1);
	k = culprit(r, 50);
	assert_non_null(k);
	assert_int_equal(k->running_ns, 3500);
	assert_int_equal(k->wakeups, 1);
	assert_int_equal(k->p99_ns, 3500);
	assert_int_equal(r->nirqs, 2);
	assert_string_equal(r->irqs[0].name, "NET_RX");
	assert_int_equal(r->irqs[0].ns, 400);
	assert_string_equal(r->irqs[1].name, "virtio0-reporting_vq");
	assert_int_equal(r->chain_len[2], 1);
	blame_release(&b);
	topology_release(&t);
}

/* Picked ahead, then waited elsewhere: a load balance moves it to an idle CPU. */
static void ahead_and_elsewhere(void **state)
{
	struct topology t;
	struct blame b;
	struct blame_cfg cfg = { 0 };
	const struct blame_results *r;
	struct event ev[] = {
		ev_switch(100, 1, 0, 0, 50),
		ev_switch(150, 2, 0, 0, 0),
		ev_switch(200, 0, 10, S_SLEEP, 20),
		ev_waking(1000, 0, 20, 10, 1),
		ev_switch(1500, 1, 50, S_SLEEP, 60),
		ev_switch(3000, 2, 0, 0, 0),		/* CPU 2 idle, seen */
		ev_migrate(3000, 2, 0, 10, 1, 2),	/* pulled by CPU 2's balance */
		ev_switch(3400, 2, 0, 0, 10),		/* ran 400 after the move */
		/* not a move: try_to_wake_up placing it, in the waker's context */
		ev_switch(4000, 2, 10, S_SLEEP, 0),
		ev_waking(5000, 0, 20, 10, 2),
		ev_migrate(5001, 0, 20, 10, 2, 1),
		ev_switch(5500, 1, 60, S_SLEEP, 70),	/* 70 picked ahead */
		ev_switch(6000, 1, 70, S_PREEMPT, 10),
	};

	(void)state;
	machine(&t);
	cfg.topo = &t;
	cfg.waking_source = true;
	blame_init(&b, &cfg);
	feed(&b, ev, sizeof(ev) / sizeof(ev[0]));
	blame_finish(&b);
	r = blame_results(&b);
	assert_int_equal(r->all.wakeups, 2);
	assert_int_equal(r->all.ns[BC_ELSEWHERE], 2000);
	assert_int_equal(r->all.ns[BC_IDLE], 400);
	assert_int_equal(r->all.ns[BC_RUNNING], 500);	/* 60 from 5000 to 5500 */
	assert_int_equal(r->all.ns[BC_AHEAD], 500);	/* 70 from 5500 to 6000 */
	assert_int_equal(r->all.wait_ns, 2400 + 1000);
	assert_int_equal(culprit(r, 60)->running_ns, 500);
	assert_int_equal(culprit(r, 70)->ahead_ns, 500);
	assert_int_equal(r->nculprits, 2);
	blame_release(&b);
	topology_release(&t);
}

/* A wakes B wakes C: a chain of three, its compound delay the two waits. */
static void chain(void **state)
{
	struct topology t;
	struct blame b;
	struct blame_cfg cfg = { 0 };
	const struct blame_results *r;
	struct event ev[] = {
		ev_switch(100, 0, 0, 0, 40),		/* A runs on CPU 0 */
		ev_switch(110, 1, 41, S_SLEEP, 0),
		ev_switch(120, 2, 42, S_SLEEP, 0),
		ev_waking(20000, 0, 40, 41, 1),
		ev_switch(20500, 1, 0, 0, 41),		/* B: 500 */
		ev_waking(21000, 1, 41, 42, 2),
		ev_switch(21700, 2, 0, 0, 42),		/* C: 700 */
		ev_switch(22000, 1, 41, S_SLEEP, 0),	/* B blocks */
		ev_waking(23000, 2, 42, 41, 1),		/* C wakes B: B's chain is C's, cut */
		ev_switch(23100, 1, 0, 0, 41),
	};

	(void)state;
	machine(&t);
	cfg.topo = &t;
	cfg.waking_source = true;
	blame_init(&b, &cfg);
	feed(&b, ev, sizeof(ev) / sizeof(ev[0]));
	blame_finish(&b);
	r = blame_results(&b);
	assert_int_equal(r->chain_len[2], 2);	/* A->B, then C->B (B left the chain) */
	assert_int_equal(r->chain_len[3], 1);
	assert_int_equal(r->nworst, 1);
	assert_int_equal(r->worst[0].len, 3);
	assert_int_equal(r->worst[0].compound_ns, 1200);
	assert_int_equal(r->worst[0].link[0].tid, 40);
	assert_int_equal(r->worst[0].link[2].tid, 42);
	assert_int_equal(r->all.ns[BC_IDLE], 500 + 700 + 100);
	blame_release(&b);
	topology_release(&t);
}

/*
 * The golden scenario: a hog and an interrupt delay task 10, which then waits on CPU 1
 * behind the hog and a task picked ahead until a load balance moves it to idle CPU 2;
 * there, just woken, it wakes 40: a chain of three. Text and JSON, exact.
 */
static void golden(void **state)
{
	struct topology t;
	struct blame b;
	struct blame_cfg cfg = { 0 };
	struct idle_told v = { 0 };
	struct json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct event ev[] = {
		ev_switch(100, 1, 0, 0, 50),
		ev_switch(150, 2, 30, S_SLEEP, 0),
		ev_switch(160, 3, 40, S_SLEEP, 0),
		ev_switch(200, 0, 10, S_SLEEP, 20),
		ev_waking(1000, 0, 20, 10, 1),
		ev_irq(2000, 1, 50, EV_SOFTIRQ_ENTRY, 3, NULL),
		ev_irq(2200, 1, 50, EV_IRQ_ENTRY, 24, "virtio0-input"),
		ev_irq(2300, 1, 50, EV_IRQ_EXIT, 24, NULL),
		ev_irq(2500, 1, 50, EV_SOFTIRQ_EXIT, 3, NULL),
		ev_switch(5000, 1, 50, S_PREEMPT, 10),
		ev_switch(5500, 1, 10, S_SLEEP, 50),
		ev_waking(6000, 0, 20, 10, 1),
		ev_switch(6500, 1, 50, S_SLEEP, 60),
		ev_migrate(8000, 2, 0, 10, 1, 2),
		ev_switch(8400, 2, 0, 0, 10),
		ev_waking(8600, 2, 10, 40, 3),
		ev_switch(9000, 3, 0, 0, 40),
	};

	(void)state;
	machine(&t);
	cfg.topo = &t;
	cfg.waking_source = true;
	cfg.irq_source = true;
	cfg.verdicts = true;
	blame_init(&b, &cfg);
	feed(&b, ev, 15);
	v.tid = 10; /* as the wakeup analyzer tells it: CPU 2 idled while it waited */
	v.wake_ns = 6000;
	v.run_ns = 8400;
	v.ic.verdict = IDLE_PASSED;
	v.ic.wait_ns = 2000;
	blame_verdict(&b, &v);
	feed(&b, ev + 15, sizeof(ev) / sizeof(ev[0]) - 15);
	blame_finish(&b);
	f = open_memstream(&buf, &len);
	blame_report_text(f, blame_results(&b), &t, NULL);
	fputs("\n", f);
	json_init(&j, f);
	json_object(&j, NULL);
	blame_report_json(&j, blame_results(&b), &t, NULL);
	json_object_end(&j);
	json_end(&j);
	fclose(f);
	assert_int_equal(golden_compare("tests/golden/blame_scenario.txt", buf), 0);
	free(buf);
	blame_release(&b);
	topology_release(&t);
}

static const struct blame_culprit *live_row(const struct blame_live *l, int tid)
{
	for (int i = 0; i < l->n; i++)
		if (l->culprits[i].tid == tid)
			return &l->culprits[i];
	return NULL;
}

/*
 * locus top's antagonists: the golden scenario in three intervals, a copy of the running
 * totals at each end. Each interval holds what its events attributed (by hand), and the
 * intervals add up to the whole run's results, culprit by culprit.
 */
static void live_intervals(void **state)
{
	struct topology t;
	struct blame b;
	struct blame_cfg cfg = { 0 };
	struct blame_live snap[4] = { { 0 } }, d = { 0 }, sum = { 0 };
	const struct blame_results *r;
	const size_t cut[4] = { 0, 10, 15, 17 };
	struct event ev[] = {
		ev_switch(100, 1, 0, 0, 50),
		ev_switch(150, 2, 30, S_SLEEP, 0),
		ev_switch(160, 3, 40, S_SLEEP, 0),
		ev_switch(200, 0, 10, S_SLEEP, 20),
		ev_waking(1000, 0, 20, 10, 1),
		ev_irq(2000, 1, 50, EV_SOFTIRQ_ENTRY, 3, NULL),
		ev_irq(2200, 1, 50, EV_IRQ_ENTRY, 24, "virtio0-input"),
		ev_irq(2300, 1, 50, EV_IRQ_EXIT, 24, NULL),
		ev_irq(2500, 1, 50, EV_SOFTIRQ_EXIT, 3, NULL),
		ev_switch(5000, 1, 50, S_PREEMPT, 10),	/* interval 1 ends after this */
		ev_switch(5500, 1, 10, S_SLEEP, 50),
		ev_waking(6000, 0, 20, 10, 1),
		ev_switch(6500, 1, 50, S_SLEEP, 60),
		ev_migrate(8000, 2, 0, 10, 1, 2),
		ev_switch(8400, 2, 0, 0, 10),		/* interval 2 ends after this */
		ev_waking(8600, 2, 10, 40, 3),
		ev_switch(9000, 3, 0, 0, 40),
	};

	(void)state;
	machine(&t);
	cfg.topo = &t;
	cfg.waking_source = true;
	cfg.irq_source = true;
	cfg.no_p99 = true; /* as locus top: no record of each wakeup */
	blame_init(&b, &cfg);
	blame_live_copy(&snap[0], &b);
	for (int i = 1; i < 4; i++) {
		feed(&b, ev + cut[i - 1], cut[i] - cut[i - 1]);
		if (i == 3)
			blame_finish(&b); /* its rows sorted: the copy sorts them back by tid */
		blame_live_copy(&snap[i], &b);
		blame_live_sort(&snap[i]);
	}
	/* 1: 10 waited 4000 on CPU 1 behind the hog (3500) and its interrupts */
	blame_live_delta(&d, &snap[1], &snap[0]);
	assert_int_equal(d.all.wakeups, 1);
	assert_int_equal(d.all.wait_ns, 4000);
	assert_int_equal(d.all.ns[BC_SOFTIRQ] + d.all.ns[BC_HARDIRQ], 500);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.culprits[0].tid, 50);
	assert_int_equal(d.culprits[0].ns, 3500);
	assert_int_equal(d.culprits[0].wakeups, 1);
	/* 2: queued on CPU 1, moved to CPU 2 at 8000, ran at 8400: no task ran instead */
	blame_live_delta(&d, &snap[2], &snap[1]);
	assert_int_equal(d.all.wakeups, 1);
	assert_int_equal(d.all.ns[BC_ELSEWHERE], 2000);
	assert_int_equal(d.all.ns[BC_IDLE], 400);
	assert_int_equal(d.n, 0);
	/* nothing between a copy and itself */
	blame_live_delta(&d, &snap[2], &snap[2]);
	assert_int_equal(d.all.wakeups, 0);
	assert_int_equal(d.all.wait_ns, 0);
	assert_int_equal(d.n, 0);
	/* the intervals add up to the run: split and every culprit (the delta from nothing) */
	r = blame_results(&b);
	assert_true(r->p99_off && !r->p99_known);
	blame_live_delta(&sum, &snap[3], NULL);
	assert_int_equal(sum.all.wakeups, r->all.wakeups);
	assert_memory_equal(sum.all.ns, r->all.ns, sizeof(r->all.ns));
	assert_int_equal(sum.n, r->nculprits);
	for (int i = 0; i < r->nculprits; i++) {
		uint64_t ns = 0, w = 0;

		for (int k = 1; k < 4; k++) {
			const struct blame_culprit *c;

			blame_live_delta(&d, &snap[k], &snap[k - 1]);
			c = live_row(&d, r->culprits[i].tid);
			ns += c ? c->ns : 0;
			w += c ? c->wakeups : 0;
		}
		assert_int_equal(ns, r->culprits[i].ns);
		assert_int_equal(w, r->culprits[i].wakeups);
		assert_int_equal(live_row(&sum, r->culprits[i].tid)->ns, r->culprits[i].ns);
	}
	for (int i = 0; i < 4; i++)
		blame_live_release(&snap[i]);
	blame_live_release(&d);
	blame_live_release(&sum);
	blame_release(&b);
	topology_release(&t);
}

/*
 * The BPF collector's split read at two refreshes (blame_live_from): the interval is the
 * difference, with the kernel's flags kept (in_kernel, the sampling rate), and a task whose
 * totals did not move is no row of it.
 */
static void live_from_kernel(void **state)
{
	struct blame_culprit k0[] = { { 50, "perl", 3000, 1000, 2000, 3, 0 },
				      { 7, "kworker/1:1", 500, 500, 0, 1, 0 } };
	struct blame_culprit k1[] = { { 50, "perl", 9000, 1000, 8000, 7, 0 },
				      { 7, "kworker/1:1", 500, 500, 0, 1, 0 },
				      { 9, "sshd", 400, 0, 400, 1, 0 } };
	struct blame_results r = { .irq_source = true, .in_kernel = true, .sample_every = 20 };
	struct blame_live a = { 0 }, b = { 0 }, d = { 0 };

	(void)state;
	r.all.wakeups = 4;
	r.all.ns[BC_AHEAD] = 2000;
	r.all.ns[BC_RUNNING] = 1500;
	r.all.wait_ns = 3500;
	r.culprits = k0;
	r.nculprits = 2;
	blame_live_from(&a, &r);
	blame_live_sort(&a);
	r.all.wakeups = 9;
	r.all.ns[BC_AHEAD] = 8400;
	r.all.wait_ns = 9900;
	r.culprits = k1;
	r.nculprits = 3;
	blame_live_from(&b, &r);
	blame_live_sort(&b);
	assert_true(b.in_kernel && b.irq_source);
	assert_int_equal(b.sample_every, 20);
	blame_live_delta(&d, &b, &a);
	assert_true(d.in_kernel);
	assert_int_equal(d.sample_every, 20);
	assert_int_equal(d.all.wakeups, 5);
	assert_int_equal(d.all.wait_ns, 6400);
	assert_int_equal(d.n, 2); /* kworker did nothing in between */
	assert_int_equal(d.culprits[0].tid, 50);
	assert_int_equal(d.culprits[0].ns, 6000);
	assert_int_equal(d.culprits[0].wakeups, 4);
	assert_int_equal(d.culprits[1].tid, 9);
	assert_int_equal(d.culprits[1].ns, 400);
	blame_live_release(&a);
	blame_live_release(&b);
	blame_live_release(&d);
}

/*
 * A woken task's switch-in missing from the recording (the kernel sent none): its
 * switch-out is proof that it ran, so the wakeup is untimed there, as the wakeup analyzer
 * counts it, not timed at its next switch-in on another CPU long after.
 */
static void switch_in_lost(void **state)
{
	struct topology t;
	struct blame b;
	struct blame_cfg cfg = { 0 };
	const struct blame_results *r;
	struct event ev[] = {
		ev_switch(100, 0, 10, S_SLEEP, 20),	/* 10 sleeps, 20 runs on CPU 0 */
		ev_waking(1000, 0, 20, 10, 1),		/* 20 wakes 10 for CPU 1 */
		/* 10's switch-in on CPU 1 not recorded; its switch-out is */
		ev_switch(3000, 1, 10, S_PREEMPT, 50),
		ev_switch(9000, 0, 20, S_SLEEP, 10),	/* 10 runs again on CPU 0 */
	};

	(void)state;
	machine(&t);
	cfg.topo = &t;
	cfg.waking_source = true;
	blame_init(&b, &cfg);
	feed(&b, ev, sizeof(ev) / sizeof(ev[0]));
	blame_finish(&b);
	r = blame_results(&b);
	assert_int_equal(r->all.wakeups, 0);
	assert_int_equal(r->untimed, 1);
	blame_release(&b);
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hog_and_irqs),
		cmocka_unit_test(ahead_and_elsewhere),
		cmocka_unit_test(chain),
		cmocka_unit_test(golden),
		cmocka_unit_test(live_intervals),
		cmocka_unit_test(live_from_kernel),
		cmocka_unit_test(switch_in_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
