/*
 * test_stacks.c - callchains: the sample decoder's field (hand-written kernel layout), the
 * stack table, the stacks analyzer on hand-made events, and folded output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzers/stacks.h"
#include "../../collectors/sample.h"
#include "../../model/stack.h"
#include "../../report/stacks_report.h"

/* IDENTIFIER, TID, TIME, CPU, CALLCHAIN, RAW: what locus record -g writes for a tracepoint. */
static const uint64_t TRACEPOINT_G = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
				     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;

static void layout_for(struct sample_layout *l, uint64_t st)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_type = st };

	sample_layout_of(l, &a);
}

/* A body in the kernel's order with nr callchain entries ips (nr_written of them present). */
static size_t body(uint8_t *b, uint64_t nr, const uint64_t *ips, size_t nr_written,
		   const char *raw)
{
	uint64_t w[4] = { 7, (uint64_t)42 << 32 | 41, 123456789, 1 };
	uint32_t rs = (uint32_t)strlen(raw);
	size_t at = 0;

	memcpy(b, w, sizeof(w));
	at += sizeof(w);
	memcpy(b + at, &nr, 8);
	at += 8;
	memcpy(b + at, ips, nr_written * 8);
	at += nr_written * 8;
	memcpy(b + at, &rs, 4);
	memcpy(b + at + 4, raw, rs);
	return at + 4 + rs;
}

static void callchain_decoded(void **state)
{
	const uint64_t ips[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
				 0xffffffff81000020ULL, (uint64_t)PERF_CONTEXT_USER,
				 0x7f0000001000ULL };
	struct sample_layout l;
	struct pd_sample s;
	uint8_t b[512];
	size_t n;

	(void)state;
	layout_for(&l, TRACEPOINT_G);
	n = body(b + 4, 5, ips, 5, "abcd"); /* +4: an unaligned record, as in a file */
	assert_int_equal(sample_decode(&l, b + 4, n, &s), 0);
	assert_int_equal(s.callchain_nr, 5);
	for (uint32_t i = 0; i < 5; i++)
		assert_true(sample_callchain_ip(&s, i) == ips[i]);
	assert_int_equal(s.tid, 42);
	assert_int_equal(s.pid, 41);
	assert_true(s.time == 123456789);
	assert_int_equal(s.raw_size, 4); /* RAW found after the callchain */
	assert_memory_equal(s.raw, "abcd", 4);

	/* an empty chain (the tracepoints locus reads none of): nr 0, RAW right after */
	n = body(b, 0, ips, 0, "xy");
	assert_int_equal(sample_decode(&l, b, n, &s), 0);
	assert_int_equal(s.callchain_nr, 0);
	assert_int_equal(s.raw_size, 2);

	/* without CALLCHAIN in the attribute: none, whatever a previous decode left */
	layout_for(&l, TRACEPOINT_G & ~(uint64_t)PERF_SAMPLE_CALLCHAIN);
	memset(&s, 0xff, sizeof(s));
	{
		uint64_t w[4] = { 7, 1, 2, 3 };
		uint32_t rs = 0;

		memcpy(b, w, sizeof(w));
		memcpy(b + 32, &rs, 4);
		assert_int_equal(sample_decode(&l, b, 36, &s), 0);
		assert_null(s.callchain);
		assert_int_equal(s.callchain_nr, 0);
	}
}

/* Hostile nr: beyond the bound, beyond the record, or the record cut inside the chain. */
static void callchain_hostile(void **state)
{
	const uint64_t ips[3] = { 1, 2, 3 };
	const uint64_t bad[] = { SAMPLE_CALLCHAIN_MAX + 1, (uint64_t)1 << 61, UINT64_MAX, 4 };
	struct sample_layout l;
	struct pd_sample s;
	uint8_t b[512];
	size_t n;

	(void)state;
	layout_for(&l, TRACEPOINT_G);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = body(b, bad[i], ips, 3, "");
		assert_int_equal(sample_decode(&l, b, n, &s), -1);
	}
	n = body(b, 3, ips, 3, "");
	for (size_t cut = 33; cut < n; cut++) /* every length short of the whole record */
		assert_int_equal(sample_decode(&l, b, cut, &s), -1);
	assert_int_equal(sample_decode(&l, b, n, &s), 0);
}

static uint32_t intern(struct stack_table *t, int32_t pid, const uint64_t *ips, uint32_t nr)
{
	return stack_intern(t, pid, (const uint8_t *)ips, nr);
}

static void table_interns(void **state)
{
	const uint64_t a[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0x10, 0x20 }, b[] = { 0x10, 0x20 };
	struct stack_table t = { 0 };
	uint32_t ia, nr;
	int32_t pid;
	const uint64_t *got;

	(void)state;
	ia = intern(&t, 7, a, 3);
	assert_int_equal(ia, 1);
	assert_int_equal(intern(&t, 7, a, 3), ia);	/* the same stack, the same id */
	assert_int_equal(intern(&t, 8, a, 3), 2);	/* another process's: another */
	assert_int_equal(intern(&t, 7, b, 2), 3);
	assert_int_equal(intern(&t, 7, a, 0), 0);	/* empty: none */
	for (uint64_t i = 0; i < 5000; i++) {		/* growth keeps the earlier ones */
		uint64_t c[2] = { i, i + 1 };

		assert_int_equal(intern(&t, 1, c, 2), 4 + i);
	}
	got = stack_get(&t, ia, &nr, &pid);
	assert_non_null(got);
	assert_int_equal(nr, 3);
	assert_int_equal(pid, 7);
	assert_memory_equal(got, a, sizeof(a));
	assert_null(stack_get(&t, 0, &nr, &pid));
	assert_null(stack_get(&t, 99999, &nr, &pid));
	stack_table_release(&t);
}

/* Events by hand: CPUs 0 and 1 share an LLC (different cores), CPU 2 is another node. */
static struct event waking(uint64_t t, int cpu, int32_t waker, int32_t wakee, uint32_t stack)
{
	struct event e = { .time_ns = t, .cpu = cpu, .pid = waker, .tid = waker,
			   .type = EV_WAKING };

	e.wake.pid = wakee;
	e.wake.target_cpu = cpu;
	e.wake.stack = stack;
	return e;
}

static struct event sw(uint64_t t, int cpu, int32_t prev, int64_t state, int32_t next,
		       uint32_t stack)
{
	struct event e = { .time_ns = t, .cpu = cpu, .pid = prev, .tid = prev, .type = EV_SWITCH };

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	e.sw.prev_state = state;
	e.sw.stack = stack;
	return e;
}

static const struct stacks_row *row(const struct stacks *s, enum stacks_kind k, uint32_t stack,
				    uint32_t waker, int cls)
{
	for (uint32_t i = 0; i < s->v[k].n; i++) {
		const struct stacks_row *r = &s->v[k].row[i];

		if (r->stack == stack && r->waker == waker && r->cls == cls)
			return r;
	}
	return NULL;
}

static bool not_ten(void *ctx, int32_t tid)
{
	(void)ctx;
	return tid != 10;
}

static void analyzer_views(void **state)
{
	const int core[3] = { 0, 1, 2 }, llc[3] = { 0, 0, 2 }, node[3] = { 0, 0, 1 };
	struct topology topo;
	struct stacks s;
	const struct stacks_row *r;
	struct event ev[] = {
		/* task 10 sleeps (S) on CPU 0 with stack 1, 20 wakes it from CPU 1 (stack 5),
		 * it runs on CPU 0 at 1500: shared LLC, 1000 ns off CPU */
		sw(500, 0, 10, 1, 0, 1),
		waking(900, 1, 20, 10, 5),
		sw(1500, 0, 20, 0, 10, 9),	/* 20 preempted (R): not a sleep */
		/* 10 sleeps again (D) with stack 2, woken from CPU 2, runs on CPU 1 at 4500:
		 * other node, 2000 ns */
		sw(2500, 0, 10, 2, 0, 2),
		waking(3000, 2, 30, 10, 6),
		sw(4500, 1, 0, 0, 10, 0),
		/* 10 sleeps with stack 1 again, runs again with no wakeup seen: 500 ns */
		sw(5000, 1, 10, 1, 0, 1),
		sw(5500, 0, 0, 0, 10, 0),
		/* 40 woken while still on CPU (it was switched in, never out): not run after */
		sw(5600, 2, 0, 0, 40, 0),
		waking(5700, 0, 10, 40, 5),
		/* 10 exits (X): no sleep; 50 sleeps and never runs again */
		sw(6000, 0, 10, 0x10, 0, 3),
		sw(6100, 2, 50, 1, 0, 4),
		/* a sleep without a callchain: counted apart */
		sw(6200, 2, 60, 1, 0, 0),
	};

	(void)state;
	topology_from_arrays(&topo, 3, core, llc, node);
	stacks_init(&s, &topo);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		stacks_add(&s, &ev[i]);
	stacks_finish(&s);

	assert_int_equal(s.wakings, 3);
	assert_int_equal(s.switches_voluntary, 5);
	assert_int_equal(s.switches_nostack, 1);
	/* wakers: stack 5 shared LLC once, not run after once; stack 6 other node */
	r = row(&s, STACKS_WAKERS, 5, 0, LOC_LLC);
	assert_non_null(r);
	assert_int_equal(r->count, 1);
	assert_non_null(row(&s, STACKS_WAKERS, 5, 0, STACKS_NOT_RUN));
	assert_int_equal(row(&s, STACKS_WAKERS, 6, 0, LOC_REMOTE)->count, 1);
	assert_int_equal(s.v[STACKS_WAKERS].count, 3);
	/* blocked: stack 1 by LLC (1000 ns) and with no wakeup (500 ns); 2 remote 2000 ns;
	 * 4 not run after (counted, no time); exits and preemptions none */
	r = row(&s, STACKS_BLOCKED, 1, 0, LOC_LLC);
	assert_int_equal(r->count, 1);
	assert_int_equal(r->time_ns, 1000);
	r = row(&s, STACKS_BLOCKED, 1, 0, STACKS_NO_WAKEUP);
	assert_int_equal(r->time_ns, 500);
	assert_int_equal(row(&s, STACKS_BLOCKED, 2, 0, LOC_REMOTE)->time_ns, 2000);
	r = row(&s, STACKS_BLOCKED, 4, 0, STACKS_NOT_RUN);
	assert_int_equal(r->count, 1);
	assert_int_equal(r->timed, 0);
	assert_null(row(&s, STACKS_BLOCKED, 3, 0, STACKS_NOT_RUN));
	assert_null(row(&s, STACKS_BLOCKED, 9, 0, LOC_LLC));
	assert_int_equal(s.v[STACKS_BLOCKED].count, 4);
	assert_int_equal(s.v[STACKS_BLOCKED].time_ns, 3500);
	/* off-wake: the two woken sleeps, with their wakers */
	assert_int_equal(row(&s, STACKS_OFFWAKE, 1, 5, LOC_LLC)->time_ns, 1000);
	assert_int_equal(row(&s, STACKS_OFFWAKE, 2, 6, LOC_REMOTE)->time_ns, 2000);
	assert_int_equal(s.v[STACKS_OFFWAKE].n, 2);
	stacks_release(&s);

	/* a scope without task 10: its wakeups and sleeps are not counted, 50's sleep is */
	stacks_init(&s, &topo);
	s.in_scope = not_ten;
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		stacks_add(&s, &ev[i]);
	stacks_finish(&s);
	assert_int_equal(s.wakings, 1); /* 40's */
	assert_null(row(&s, STACKS_BLOCKED, 1, 0, LOC_LLC));
	assert_non_null(row(&s, STACKS_BLOCKED, 4, 0, STACKS_NOT_RUN));
	assert_int_equal(s.v[STACKS_OFFWAKE].n, 0);
	stacks_release(&s);
	topology_release(&topo);
}

/*
 * A wakeup whose switch-in the recording lacks: the task's switch-out shows it ran, so the
 * waking is counted 'did not run after' there, not classed by a later switch-in after a
 * preemption (the wakeup analyzer counts it untimed, and blame and latency leave it out).
 */
static void lost_switch_in(void **state)
{
	const int core[2] = { 0, 1 }, llc[2] = { 0, 0 }, node[2] = { 0, 0 };
	struct topology topo;
	struct stacks s;
	struct event ev[] = {
		sw(100, 0, 10, 1, 0, 1),	/* 10 sleeps on CPU 0 */
		waking(200, 1, 20, 10, 5),	/* 20 wakes it from CPU 1 */
		/* its switch-in on CPU 1 lost; it is preempted there (R) */
		sw(300, 1, 10, 0, 0, 0),
		sw(400, 0, 0, 0, 10, 0),	/* runs on CPU 0 later: no wakeup's run */
	};

	(void)state;
	topology_from_arrays(&topo, 2, core, llc, node);
	stacks_init(&s, &topo);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		stacks_add(&s, &ev[i]);
	stacks_finish(&s);
	assert_int_equal(s.wakings, 1);
	assert_non_null(row(&s, STACKS_WAKERS, 5, 0, STACKS_NOT_RUN));
	assert_null(row(&s, STACKS_WAKERS, 5, 0, LOC_SAME_CPU));
	assert_null(row(&s, STACKS_WAKERS, 5, 0, LOC_LLC));
	stacks_release(&s);
	topology_release(&topo);
}

/* Folded lines: root first, the classes of one stack summed, sorted, off-wake joined. */
static void folded_lines(void **state)
{
	const int core[2] = { 0, 1 }, llc[2] = { 0, 0 }, node[2] = { 0, 0 };
	const uint64_t blk[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xa1, 0xa2,
				 (uint64_t)PERF_CONTEXT_USER, 0xb1 };
	const uint64_t wk[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xc1, 0xc2 };
	struct stack_table t = { 0 };
	struct topology topo;
	struct stacks s;
	struct stacks_frames fr;
	char buf[1024] = "";
	FILE *f;
	uint32_t ib, iw;

	(void)state;
	ib = intern(&t, 1, blk, 5);
	iw = intern(&t, 2, wk, 3);
	topology_from_arrays(&topo, 2, core, llc, node);
	stacks_init(&s, &topo);
	for (int i = 0; i < 2; i++) { /* once woken from the same CPU, once from the other */
		struct event e[] = { sw(100 + 1000 * i, 0, 1, 1, 0, ib),
				     waking(200 + 1000 * i, i, 2, 1, iw),
				     sw(400 + 1000 * i, 0, 0, 0, 1, 0) };

		for (int j = 0; j < 3; j++)
			stacks_add(&s, &e[j]);
	}
	stacks_finish(&s);
	fr = (struct stacks_frames){ &t, NULL, 1, false };
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(stacks_write_folded(f, &s, STACKS_BLOCKED, 0, &fr), 1);
	assert_int_equal(stacks_write_folded(f, &s, STACKS_BLOCKED, 1, &fr), 0); /* 0.6 us */
	assert_int_equal(stacks_write_folded(f, &s, STACKS_OFFWAKE, 0, &fr), 1);
	fr.addresses = 0; /* no namer: every frame unknown, folded to one */
	assert_int_equal(stacks_write_folded(f, &s, STACKS_WAKERS, 0, &fr), 1);
	fr.keep_unknown = true; /* as recorded */
	assert_int_equal(stacks_write_folded(f, &s, STACKS_WAKERS, 0, &fr), 1);
	fclose(f);
	assert_string_equal(buf, "0xb1;0xa2;0xa1 2\n"
				 "0xb1;0xa2;0xa1;--;0xc1;0xc2 2\n"
				 "[unknown] 2\n"
				 "[unknown];[unknown] 2\n");
	stacks_release(&s);
	topology_release(&topo);
	stack_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_interns),
		cmocka_unit_test(analyzer_views), cmocka_unit_test(lost_switch_in),
		cmocka_unit_test(folded_lines),
		cmocka_unit_test(callchain_decoded),
		cmocka_unit_test(callchain_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
