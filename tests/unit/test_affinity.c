/*
 * test_affinity.c - a sched_setaffinity call's two halves into the task's mask
 * (collectors/affinity.h), on this thread's real mask from /proc: handed on at the entry,
 * of the entry's time and CPU, in whichever order the halves come; again at the return
 * only when the mask read there differs (the reader came before the kernel set it); a
 * refused call changes nothing; an exit older than the entry is another call's.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "../../collectors/affinity.h"

static struct event call(enum event_type type, uint64_t t, int cpu, int32_t target, int64_t ret)
{
	struct event e = { .type = type, .time_ns = t, .cpu = cpu };

	e.tid = (int32_t)gettid();
	e.aff.pid = target;
	e.aff.ret = ret;
	return e;
}

/* The mask the kernel holds for this thread, in the watch's words. */
static void kernel_mask(const struct aff_watch *a, uint64_t *m)
{
	cpu_set_t set;

	memset(m, 0, (size_t)a->nwords * sizeof(*m));
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < 64 * a->nwords && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			m[c / 64] |= 1ull << (c % 64);
}

static void assert_handed(const struct aff_watch *a, const struct event *o, uint64_t t, int cpu)
{
	uint64_t m[16];

	assert_true(a->nwords <= 16);
	kernel_mask(a, m);
	assert_int_equal(o->type, EV_AFFINITY);
	assert_int_equal(o->time_ns, t);
	assert_int_equal(o->cpu, cpu);
	assert_int_equal(o->aff.pid, (int32_t)gettid());
	assert_non_null(o->aff.mask);
	assert_memory_equal(o->aff.mask, m, (size_t)a->nwords * sizeof(*m));
}

static void entry_then_return(void **state)
{
	struct aff_watch a;
	struct event o, e = call(EV_SETAFFINITY, 100, 1, 0, 0);

	(void)state;
	aff_init(&a);
	assert_true(aff_on_call(&a, &e, &o)); /* from the entry, on the entry's CPU */
	assert_handed(&a, &o, 100, 1);
	e = call(EV_SETAFFINITY_RET, 200, 0, 0, 0);
	assert_false(aff_on_call(&a, &e, &o)); /* the same mask: nothing new */
	assert_int_equal(a.nmasks, 1);	      /* and the return's read given back */
	assert_int_equal(a.changes, 1);
	assert_int_equal(a.ncalls, 0);
	/* refused: the entry's read stands (the mask as it is), no change counted */
	e = call(EV_SETAFFINITY, 300, 0, (int32_t)gettid(), 0);
	assert_true(aff_on_call(&a, &e, &o));
	e = call(EV_SETAFFINITY_RET, 310, 0, 0, -22);
	assert_false(aff_on_call(&a, &e, &o));
	assert_int_equal(a.changes, 1);
	aff_release(&a);
}

static void return_first(void **state)
{
	struct aff_watch a;
	struct event o, e = call(EV_SETAFFINITY_RET, 500, 0, 0, 0);

	(void)state;
	aff_init(&a);
	assert_false(aff_on_call(&a, &e, &o)); /* half a call: the entry is in another ring */
	e = call(EV_SETAFFINITY, 400, 1, 0, 0);
	assert_true(aff_on_call(&a, &e, &o));
	assert_handed(&a, &o, 400, 1); /* still from the entry */
	assert_int_equal(a.changes, 1);
	/* refused, its return read first: nothing */
	e = call(EV_SETAFFINITY_RET, 700, 0, 0, -1);
	assert_false(aff_on_call(&a, &e, &o));
	e = call(EV_SETAFFINITY, 650, 1, 0, 0);
	assert_false(aff_on_call(&a, &e, &o));
	assert_int_equal(a.changes, 1);
	/* a return older than the entry is an earlier call's (made before tracing began) */
	e = call(EV_SETAFFINITY_RET, 800, 0, 0, 0);
	assert_false(aff_on_call(&a, &e, &o));
	e = call(EV_SETAFFINITY, 900, 1, 0, 0);
	assert_true(aff_on_call(&a, &e, &o));
	assert_handed(&a, &o, 900, 1);
	assert_int_equal(a.ncalls, 1); /* waits for its own return */
	aff_release(&a);
}

/* The kernel sets the mask after the reader came to the entry: the return hands it on. */
static void set_after_the_entry(void **state)
{
	struct aff_watch a;
	struct event o, e = call(EV_SETAFFINITY, 100, 0, 0, 0);
	cpu_set_t was, one;
	int first = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(was), &was), 0);
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &was))
			first = c;
	if (CPU_COUNT(&was) < 2)
		skip(); /* one CPU allowed: no other mask to set */
	aff_init(&a);
	assert_true(aff_on_call(&a, &e, &o));
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	e = call(EV_SETAFFINITY_RET, 200, 1, 0, 0);
	assert_true(aff_on_call(&a, &e, &o));
	assert_handed(&a, &o, 200, 1); /* the new mask, from the return */
	assert_int_equal(o.aff.mask[first / 64], 1ull << (first % 64));
	assert_int_equal(sched_setaffinity(0, sizeof(was), &was), 0);
	aff_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entry_then_return),
		cmocka_unit_test(return_first),
		cmocka_unit_test(set_after_the_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
