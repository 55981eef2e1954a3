/*
 * test_wakeup_ipi.c - the wakeup analyzer's IPIs and polling wakeups, each matched to the
 * wakeup that caused it or counted apart (the IPIs that were no wakeup's), on the idle
 * tests' 8-CPU machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../analyzers/wakeup.h"
#include "idle_machine.h"

/* An IPI from cpu to dest sent while tid ran there (callback 0: a reschedule IPI). */
static struct event ipi(int cpu, uint64_t t, int dest, bool polling)
{
	struct event e = { .type = polling ? EV_WAKE_IDLE : EV_IPI, .cpu = cpu, .time_ns = t };

	e.ipi.cpu = dest;
	return e;
}

static struct event ipi_by(int cpu, uint64_t t, int tid, int dest, uint64_t callback)
{
	struct event e = ipi(cpu, t, dest, false);

	e.tid = e.pid = tid;
	e.ipi.callback = callback;
	return e;
}

static struct event mig(int cpu, uint64_t t, int waker, int pid, int from, int to)
{
	struct event e = { .type = EV_MIGRATE, .cpu = cpu, .time_ns = t, .tid = waker, .pid = waker };

	e.mig.pid = pid;
	e.mig.orig_cpu = from;
	e.mig.dest_cpu = to;
	return e;
}

static struct sched_results *feed(struct wakeup *w, struct topology *t, const struct event *ev,
				  size_t n)
{
	struct wakeup_cfg cfg = { 0 };

	machine(t, false);
	cfg.topo = t;
	cfg.system_wide = true;
	cfg.waking_source = true;
	wakeup_init(w, &cfg);
	for (size_t i = 0; i < n; i++)
		wakeup_add(w, &ev[i]);
	wakeup_finish(w);
	return wakeup_results(w);
}

/*
 * An IPI (or a polling wakeup) is a wakeup's when it is the first from the waker's CPU
 * after it and goes to the wakee's target CPU, for a remote wakeup, before the wakee runs.
 */
static void ipis(void **state)
{
	struct topology t;
	struct wakeup w;
	struct sched_results *r;
	struct event ev[] = {
		wake(0, 1000, 50, 200, 4), ipi(0, 1500, 4, false), /* counted: SMT sibling */
		ipi(0, 1600, 4, false),				  /* a second one: not the wakeup's */
		wake(0, 5000, 50, 201, 2), sw(0, 5100, 50, 0), ipi(0, 5200, 2, false), /* after a switch */
		wake(1, 9000, 51, 202, 0), ipi(1, 9100, 0, true),	  /* polling, same LLC */
		ipi(2, 9200, 6, false),				  /* no traced wakeup on CPU 2 */
	};

	(void)state;
	r = feed(&w, &t, ev, sizeof(ev) / sizeof(ev[0]));
	assert_int_equal(r->wakeups, 3);
	assert_int_equal(r->wakeups_ipi, 1);
	assert_int_equal(r->ipi_class[LOC_SMT], 1);
	assert_int_equal(r->wakeups_no_ipi, 1);
	assert_int_equal(r->no_ipi_class[LOC_LLC], 1);
	wakeup_release(&w);
	topology_release(&t);
}

/* IPIs that are no wakeup's: counted apart by kind, never as a wakeup's. */
static void ipis_not_the_wakeups(void **state)
{
	struct topology t;
	struct wakeup w;
	struct sched_results *r;
	struct event ev[] = {
		/* same-CPU wakeup (its previous CPU is the waker's), then smp_call_function
		 * to CPU 1 (generic_exec_single): no wakeup's, a function call */
		wake(0, 1000, 50, 200, 0), ipi_by(0, 1100, 50, 1, 0xffffffff81000000ull),
		sw(0, 1200, 50, 200),
		/* a remote wakeup whose first IPI goes elsewhere than its target (CPU 2) */
		wake(1, 2000, 51, 201, 2), ipi_by(1, 2100, 51, 3, 0), ipi_by(1, 2200, 51, 2, 0),
		/* moved during the wakeup (CPU 5 -> 0, on the waker's CPU): the IPI to 0 is its */
		wake(1, 3000, 51, 202, 5), mig(1, 3010, 51, 202, 5, 0), ipi_by(1, 3100, 51, 0, 0),
		/* the wakee ran before the IPI: not its */
		wake(1, 4000, 51, 203, 6), sw(6, 4050, 0, 203), ipi_by(1, 4100, 51, 6, 0),
		/* sent while an untraced task ran (the idle task): not counted at all */
		ipi(3, 5000, 1, false),
	};

	(void)state;
	r = feed(&w, &t, ev, sizeof(ev) / sizeof(ev[0]));
	assert_int_equal(r->wakeups_ipi, 1);
	assert_int_equal(r->ipi_class[LOC_LLC], 1); /* CPU 1 -> 0 */
	assert_int_equal(r->ipis_call_other, 1);
	assert_int_equal(r->ipis_resched_other, 3); /* 1 -> 3, 1 -> 2 second, 1 -> 6 ran */
	/* never more than the remote wakeups, class by class */
	for (int k = LOC_SMT; k < LOC_NR; k++)
		assert_true(r->ipi_class[k] + r->no_ipi_class[k] <= r->by_class[k]);
	assert_int_equal(r->by_class[LOC_SAME_CPU], 1);
	wakeup_release(&w);
	topology_release(&t);
}

/* A wakeup whose target is known only from where it last ran: placed by its IPI. */
static void ipi_places(void **state)
{
	struct topology t;
	struct wakeup w;
	struct sched_results *r;
	struct event ev[] = {
		wake(0, 1000, 50, 200, 1), ipi_by(0, 1100, 50, 1, 0),
		/* moved before it ran (load balance): it still was sent to CPU 1 */
		mig(0, 1500, 50, 200, 1, 0), sw(0, 1600, 50, 200),
	};

	(void)state;
	r = feed(&w, &t, ev, sizeof(ev) / sizeof(ev[0]));
	assert_int_equal(r->wakeups_placed, 1);
	assert_int_equal(r->by_class[LOC_LLC], 1); /* CPU 0 -> 1, as the IPI went */
	assert_int_equal(r->ipi_class[LOC_LLC], 1);
	assert_int_equal(r->moved_before_run, 1);
	wakeup_release(&w);
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipis),
		cmocka_unit_test(ipis_not_the_wakeups),
		cmocka_unit_test(ipi_places),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
