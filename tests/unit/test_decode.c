/* test_decode.c - tracepoint payload decoding from real format files; reorder; histograms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "../../model/event.h"
#include "../../model/hist.h"
#include "../../pipeline/reorder.h"
#include "../../collectors/tp_decode.h"

static struct tep_handle *tep;

static int load_formats(void **state)
{
	static const char *const evs[] = { "sched_waking", "sched_wakeup", "sched_wakeup_new",
					   "sched_switch", "sched_migrate_task",
					   "sched_process_fork", "sched_process_exit" };
	char path[256], buf[8192];

	tep = tep_alloc();
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "tests/fixtures/tracefs-tree/events/sched/%s/format", evs[i]);
		f = fopen(path, "r");
		if (!f)
			return -1;
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (tep_parse_event(tep, buf, n, "sched") != 0)
			return -1;
	}
	return 0;
}

static int free_formats(void **state)
{
	tep_free(tep);
	return 0;
}

static int id_of(const char *name)
{
	return tep_find_event_by_name(tep, "sched", name)->id;
}

static void put16(uint8_t *p, int v) { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); }
static void put32(uint8_t *p, int v) { int32_t x = v; memcpy(p, &x, 4); }
static void put64(uint8_t *p, long v) { int64_t x = v; memcpy(p, &x, 8); }

static void switch_payload(void **state)
{
	struct tp_decoder d;
	struct event e;
	uint8_t raw[64];
	char err[200];

	assert_int_equal(tp_decoder_init(&d, tep, err, sizeof(err)), 0);
	memset(raw, 0, sizeof(raw));
	put16(raw, id_of("sched_switch"));
	memcpy(raw + 8, "pingpong-a-long-name", 16); /* 16 bytes, no NUL */
	put32(raw + 24, 4242);
	put32(raw + 28, 120);
	put64(raw + 32, 0x100); /* preempted */
	memcpy(raw + 40, "swapper/1", 10);
	put32(raw + 56, 0);
	put32(raw + 60, 120);
	assert_int_equal(tp_decode(&d, raw, 64, &e), 0);
	assert_int_equal(e.type, EV_SWITCH);
	assert_int_equal(e.sw.prev_pid, 4242);
	assert_string_equal(e.sw.prev_comm, "pingpong-a-long"); /* cut to 15 + NUL */
	assert_string_equal(e.sw.next_comm, "swapper/1");
	assert_true(event_switch_involuntary(&e));
	/* one byte short: rejected, not read past the end */
	assert_int_equal(tp_decode(&d, raw, 63, &e), -1);
}

static void data_loc_comm(void **state)
{
	struct tp_decoder d;
	struct event e;
	uint8_t raw[48];
	char err[200];

	assert_int_equal(tp_decoder_init(&d, tep, err, sizeof(err)), 0);
	memset(raw, 0, sizeof(raw));
	put16(raw, id_of("sched_process_fork"));
	put32(raw + 8, (6 << 16) | 24);	 /* parent_comm at 24, 6 bytes */
	put32(raw + 12, 100);
	put32(raw + 16, (6 << 16) | 30); /* child_comm at 30 */
	put32(raw + 20, 101);
	memcpy(raw + 24, "shell\0child\0", 12);
	assert_int_equal(tp_decode(&d, raw, 36, &e), 0);
	assert_int_equal(e.type, EV_FORK);
	assert_int_equal(e.fork.parent_pid, 100);
	assert_int_equal(e.fork.child_pid, 101);
	assert_string_equal(e.fork.child_comm, "child");
	/* a __data_loc pointing past the payload is rejected */
	put32(raw + 16, (60 << 16) | 30);
	assert_int_equal(tp_decode(&d, raw, 36, &e), -1);
}

static void signed_and_unknown(void **state)
{
	struct tp_decoder d;
	struct event e;
	uint8_t raw[40];
	char err[200];

	assert_int_equal(tp_decoder_init(&d, tep, err, sizeof(err)), 0);
	memset(raw, 0, sizeof(raw));
	put16(raw, id_of("sched_migrate_task"));
	put32(raw + 12, 77);
	put32(raw + 20, -1); /* orig_cpu -1 must stay negative */
	put32(raw + 24, 3);
	assert_int_equal(tp_decode(&d, raw, 28, &e), 0);
	assert_int_equal(e.mig.orig_cpu, -1);
	assert_int_equal(e.mig.dest_cpu, 3);
	put16(raw, 9999); /* not a sched tracepoint */
	assert_int_equal(tp_decode(&d, raw, 28, &e), 1);
	assert_int_equal(tp_decode(&d, raw, 1, &e), -1);
}

struct sink {
	uint64_t t[16];
	int cpu[16];
	int n;
};

static void collect(void *ctx, const struct event *e)
{
	struct sink *s = ctx;

	s->cpu[s->n] = e->cpu;
	s->t[s->n++] = e->time_ns;
}

/* Events of the same time on several CPUs come out in the order they arrived (perf's
 * ordered events do the same: perf script of a file shows them in file order). */
static void reorder_ties_keep_arrival(void **state)
{
	struct reorder r;
	struct sink s = { { 0 }, { 0 }, 0 };
	struct event e = { 0 };
	const int cpus[] = { 3, 0, 2, 1, 0, 3 };

	(void)state;
	reorder_init(&r);
	e.time_ns = 100;
	for (int i = 0; i < 6; i++) {
		e.cpu = cpus[i];
		reorder_add(&r, &e, collect, &s);
	}
	reorder_flush(&r, collect, &s);
	assert_int_equal(s.n, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(s.cpu[i], cpus[i]);
	reorder_release(&r);
}

/* A running check of the order released: each event one time unit after the last. */
struct seq_sink {
	uint64_t next, n, bad;
};

static void in_order(void *ctx, const struct event *e)
{
	struct seq_sink *s = ctx;

	s->bad += e->time_ns != s->next;
	s->next = e->time_ns + 1;
	s->n++;
}

/* A queue that fills while its events wrap around its end grows and keeps their order. */
static void reorder_grows_wrapped(void **state)
{
	struct reorder r;
	struct seq_sink s = { 1, 0, 0 };
	struct event e = { 0 };
	uint64_t t = 1;

	(void)state;
	reorder_init(&r);
	for (; t <= 800; t++) { /* the first 1024 slots */
		e.time_ns = t;
		reorder_add(&r, &e, in_order, &s);
	}
	reorder_round(&r, in_order, &s);
	for (; t <= 900; t++) {
		e.time_ns = t;
		reorder_add(&r, &e, in_order, &s);
	}
	reorder_round(&r, in_order, &s); /* up to 800: the queue's head moves to slot 800 */
	assert_int_equal(s.n, 800);
	for (; t <= 5000; t++) { /* wraps past slot 1023, then grows twice */
		e.time_ns = t;
		reorder_add(&r, &e, in_order, &s);
	}
	reorder_flush(&r, in_order, &s);
	assert_int_equal(s.n, 5000);
	assert_int_equal(s.bad, 0);
	reorder_release(&r);
}

static void reorder_window(void **state)
{
	struct reorder r;
	struct sink s = { { 0 }, { 0 }, 0 };
	struct event e = { 0 };
	const uint64_t round1[] = { 10, 30, 20 }, round2[] = { 25, 40, 15 }, round3[] = { 50 };

	reorder_init(&r);
	for (int i = 0; i < 3; i++) {
		e.time_ns = round1[i];
		reorder_add(&r, &e, collect, &s);
	}
	reorder_round(&r, collect, &s);
	assert_int_equal(s.n, 0); /* nothing is safe after the first round */
	for (int i = 0; i < 3; i++) {
		e.time_ns = round2[i];
		reorder_add(&r, &e, collect, &s);
	}
	reorder_round(&r, collect, &s); /* releases up to 30, round 1's newest */
	assert_int_equal(s.n, 5);
	assert_int_equal(s.t[0], 10);
	assert_int_equal(s.t[1], 15);
	assert_int_equal(s.t[2], 20);
	assert_int_equal(s.t[3], 25);
	assert_int_equal(s.t[4], 30);
	e.time_ns = 5; /* older than what was released: late */
	reorder_add(&r, &e, collect, &s);
	assert_int_equal(r.late, 1);
	for (int i = 0; i < 1; i++) {
		e.time_ns = round3[i];
		reorder_add(&r, &e, collect, &s);
	}
	reorder_flush(&r, collect, &s);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.t[6], 40);
	assert_int_equal(s.t[7], 50);
	reorder_release(&r);
}

static void histogram(void **state)
{
	struct hist *h = calloc(1, sizeof(*h));

	for (uint64_t v = 0; v < 100000; v += 7)
		assert_true(hist_bucket_low(hist_index(v)) <= v);
	assert_int_equal(hist_index(15), 15);
	assert_int_equal(hist_bucket_low(hist_index(1000)), 992);
	hist_init(h);
	for (int i = 1; i <= 1000; i++)
		hist_add(h, (uint64_t)i * 1000);
	assert_int_equal(h->count, 1000);
	assert_int_equal(h->min, 1000);
	assert_int_equal(h->max, 1000000);
	/* within one sub-bucket (1/16) of the true values */
	assert_true(hist_percentile(h, 50) > 500000 * 15 / 16 &&
		    hist_percentile(h, 50) < 500000 * 17 / 16);
	assert_true(hist_percentile(h, 99) > 990000 * 15 / 16 &&
		    hist_percentile(h, 99) <= 1000000);
	assert_int_equal(hist_percentile(h, 100), 1000000);
	assert_int_equal(hist_log2_count(h, 9), 1);	/* 1000 in [512, 1024) */
	assert_int_equal(hist_log2_count(h, 19), 476); /* [524288, 1048576) */
	free(h);
}

/*
 * The prev_state encodings model/event.h names, against the kernel's own: sched_switch's
 * print fmt lists each state bit with its letter ({ 0x00000010, "X" }) and says "+" for
 * the bit after the highest state, TASK_REPORT_MAX (((0x0 | ... | 0x40) + 1) << 1).
 */
static unsigned long flag_of(const char *fmt, const char *letter)
{
	char key[16];
	const char *q;

	snprintf(key, sizeof(key), ", \"%s\" }", letter);
	q = strstr(fmt, key);
	assert_non_null(q);
	while (q > fmt && q[-1] != '{')
		q--;
	return strtoul(q, NULL, 16);
}

static unsigned long report_max_of(const char *fmt)
{
	const char *end = strstr(fmt, ") + 1) << 1) ? \"+\""), *q;
	unsigned long v = 0;

	assert_non_null(end);
	q = end;
	while (q > fmt && !(q[-1] == '(' && q[-2] == '('))
		q--;
	while (q < end) {
		char *next;

		q = strstr(q, "0x");
		if (!q || q >= end)
			break;
		v |= strtoul(q, &next, 16);
		q = next;
	}
	return (v + 1) << 1;
}

static void check_switch_states(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_int_equal(flag_of(buf, "X"), SWITCH_STATE_EXIT_DEAD);
	assert_int_equal(flag_of(buf, "Z"), SWITCH_STATE_EXIT_ZOMBIE);
	assert_int_equal(report_max_of(buf), TASK_REPORT_MAX);
}

static void switch_state_constants(void **state)
{
	static const char *const live[] = { "/sys/kernel/tracing/events/sched/sched_switch/format",
					    "/sys/kernel/debug/tracing/events/sched/sched_switch/format" };

	(void)state;
	check_switch_states("tests/fixtures/tracefs-tree/events/sched/sched_switch/format");
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		FILE *f = fopen(live[i], "r");

		if (!f)
			continue;
		fclose(f);
		check_switch_states(live[i]); /* this machine's kernel too */
		return;
	}
	printf("switch_state_constants: this kernel's sched_switch format not readable: only the fixture checked\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(switch_payload), cmocka_unit_test(data_loc_comm),
		cmocka_unit_test(signed_and_unknown), cmocka_unit_test(reorder_window),
		cmocka_unit_test(reorder_grows_wrapped),
		cmocka_unit_test(reorder_ties_keep_arrival),
		cmocka_unit_test(histogram), cmocka_unit_test(switch_state_constants),
	};

	return cmocka_run_group_tests_name("decode", tests, load_formats, free_formats);
}
