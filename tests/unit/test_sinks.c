/*
 * test_sinks.c - the sink list (pipeline/sink.h): each sink is given the events of its
 * types, in order, one by one or in batches (a buffer handed over when full and at every
 * flush), finished last added first; a sink that needs every event is named for refusal;
 * and the wakeup sink's results are the same batched or one by one (the oracle: the same
 * events fed to both in the same test).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "../../analyzers/sched_delta.h"
#include "../../collectors/topology.h"
#include "../../model/sched_results.h"
#include "../../pipeline/sink.h"
#include "../../pipeline/sink_blame.h"
#include "../../pipeline/sink_wakeup.h"
#include "events.h"

struct probe {
	struct sink k;
	struct sink_buf buf;
	uint64_t seen[512];	/* the times of the events given, in order */
	int n, batches, finished_at;
};

static int finish_clock;

static void p_consume(struct sink *k, const struct event *e)
{
	struct probe *p = (struct probe *)k;

	p->seen[p->n++] = e->time_ns;
}

static void p_batch(struct sink *k, const struct event *ev, int n)
{
	((struct probe *)k)->batches++;
	for (int i = 0; i < n; i++)
		p_consume(k, &ev[i]);
}

static void p_finish(struct sink *k)
{
	((struct probe *)k)->finished_at = ++finish_clock;
}

static void p_release(struct sink *k)
{
	(void)k;
}

static const struct sink_ops probe_ops = { .name = "probe", .consume = p_consume,
					   .consume_batch = p_batch, .finish = p_finish,
					   .release = p_release };
static const struct sink_ops every_ops = { .name = "every", .every_event = true,
					   .consume = p_consume, .finish = p_finish,
					   .release = p_release };

static void dispatch(void **state)
{
	static struct probe one, many, mem;
	struct sinks l = { { 0 }, 0 };
	int sched = 0;

	(void)state;
	memset(&one, 0, sizeof(one));
	memset(&many, 0, sizeof(many));
	memset(&mem, 0, sizeof(mem));
	one.k = (struct sink){ &probe_ops, NULL, SINK_SCHED, false, false };
	many.k = (struct sink){ &probe_ops, &many.buf, SINK_SCHED, false, false };
	mem.k = (struct sink){ &every_ops, NULL, 1u << EV_MEM, false, false };
	sinks_add(&l, &one.k);
	sinks_add(&l, &many.k);
	assert_null(sinks_refusing(&l));
	sinks_add(&l, &mem.k);
	assert_ptr_equal(sinks_refusing(&l), &mem.k);
	for (int i = 0; i < 150; i++) {
		struct event e = ev_base(1000 + (uint64_t)i, 0, 1, i % 10 == 0 ? EV_MEM : EV_SWITCH);

		sched += e.type != EV_MEM;
		sinks_consume(&l, &e);
		if (i == 99) { /* a round's end: every buffer handed over */
			sinks_flush(&l);
			assert_int_equal(many.n, one.n);
		}
	}
	assert_int_equal(one.n, sched);
	assert_int_equal(many.n, 90); /* the 45 since the flush still in its buffer */
	sinks_flush(&l);
	assert_int_equal(many.n, sched);
	assert_memory_equal(one.seen, many.seen, (size_t)sched * sizeof(uint64_t));
	assert_int_equal(many.batches, 3); /* 64 when full, 26 at a flush, 45 at the next */
	assert_int_equal(mem.n, 15);
	sinks_finish(&l);
	assert_true(mem.finished_at < many.finished_at && many.finished_at < one.finished_at);
	sinks_release(&l);
}

/* A ping-pong of two tasks on CPUs 0 and 1, with a bystander, n rounds. */
static int pingpong(struct event *ev, int rounds)
{
	int n = 0;
	uint64_t t = 1000;

	for (int r = 0; r < rounds; r++) {
		ev[n++] = ev_waking(t, 0, 10, 11, 1);
		ev[n++] = ev_switch(t + 100, 1, 0, 0, 11);
		ev[n++] = ev_switch(t + 300, 0, 10, 1, r % 3 ? 0 : 12);
		ev[n++] = ev_waking(t + 500, 1, 11, 10, 0);
		ev[n++] = ev_switch(t + 650, 0, r % 3 ? 0 : 12, 1, 10);
		ev[n++] = ev_switch(t + 800, 1, 11, 1, 0);
		t += 1000;
	}
	return n;
}

static void batched_as_one_by_one(void **state)
{
	static struct event ev[6 * 300];
	static struct wakeup_sink a, b;
	struct topology t;
	struct wakeup_cfg wc = { 0 };
	struct sinks la = { { &a.k }, 1 }, lb = { { &b.k }, 1 };
	struct sink_begin sb = { 0 };
	static const int core[4] = { 0, 1, 0, 1 }, llc[4] = { 0 }, node[4] = { 0 };
	const struct sched_results *ra, *rb;
	int n = pingpong(ev, 300);

	(void)state;
	topology_from_arrays(&t, 4, core, llc, node);
	wc.system_wide = true;
	wakeup_sink_init(&a, &wc, false);
	wakeup_sink_init(&b, &wc, true);
	sb.topo = &t;
	sb.waking_source = true;
	sinks_begin(&la, &sb);
	sinks_begin(&lb, &sb);
	for (int i = 0; i < n; i++) {
		sinks_consume(&la, &ev[i]);
		sinks_consume(&lb, &ev[i]);
	}
	sinks_flush(&la);
	sinks_flush(&lb);
	sinks_finish(&la);
	sinks_finish(&lb);
	ra = wakeup_sink_results(&a, &sb);
	rb = wakeup_sink_results(&b, &sb);
	assert_true(ra->wakeups > 500);
	assert_int_equal(ra->wakeups, rb->wakeups);
	assert_int_equal(ra->delay.count, rb->delay.count);
	assert_memory_equal(ra->by_class, rb->by_class, sizeof(ra->by_class));
	assert_int_equal(ra->ntasks, rb->ntasks);
	assert_int_equal(ra->npairs, rb->npairs);
	sinks_release(&la);
	sinks_release(&lb);
	topology_release(&t);
}

/* A snapshot of the list as the tracer takes it (locus top): under the lock, then not. */
static void snapshot(struct sinks *l, struct wakeup_sink *wk, const struct sink_begin *sb,
		     struct sched_results *dst)
{
	sinks_snapshot(l);
	sched_results_copy_light(dst, wakeup_sink_results(wk, sb));
	sinks_snapshot_tables(l, dst);
}

/*
 * The blame sink beside the wakeup sink it asks (as the tracer adds them): its snapshot is
 * the running totals (locus top's antagonists), none before the first; the last snapshot,
 * after the stream, is what its finished results say, task by task.
 */
static void blame_snapshots(void **state)
{
	static struct event ev[6 * 200];
	static struct wakeup_sink wk;
	static struct blame_sink bl;
	struct topology t;
	struct wakeup_cfg wc = { 0 };
	struct sinks l = { { 0 }, 0 };
	struct sink_begin sb = { 0 };
	static const int core[4] = { 0, 1, 0, 1 }, llc[4] = { 0 }, node[4] = { 0 };
	struct sched_results dst;
	const struct blame_live *live;
	const struct blame_results *r;
	uint64_t mid;
	int n = pingpong(ev, 200);

	(void)state;
	memset(&dst, 0, sizeof(dst));
	topology_from_arrays(&t, 4, core, llc, node);
	wc.system_wide = true;
	blame_sink_init(&bl, &wk);
	bl.no_p99 = true;
	sinks_add(&l, &bl.k);
	wc.verdict = blame_sink_verdict;
	wc.verdict_ctx = &bl;
	wakeup_sink_init(&wk, &wc, true);
	sinks_add(&l, &wk.k);
	sb.topo = &t;
	sb.waking_source = true;
	sinks_begin(&l, &sb);
	assert_null(blame_sink_live(&bl));
	for (int i = 0; i < n / 2; i++)
		sinks_consume(&l, &ev[i]);
	sinks_flush(&l);
	snapshot(&l, &wk, &sb, &dst);
	live = blame_sink_live(&bl);
	assert_non_null(live);
	mid = live->all.wakeups;
	assert_true(mid > 100);
	for (int i = 1; i < live->n; i++) /* by tid, as blame_live_delta wants them */
		assert_true(live->culprits[i - 1].tid < live->culprits[i].tid);
	for (int i = n / 2; i < n; i++)
		sinks_consume(&l, &ev[i]);
	sinks_flush(&l);
	sinks_finish(&l);
	snapshot(&l, &wk, &sb, &dst); /* the final screen's: after the finish */
	live = blame_sink_live(&bl);
	r = blame_sink_results(&bl);
	assert_true(live->all.wakeups > mid);
	assert_int_equal(live->all.wakeups, r->all.wakeups);
	assert_memory_equal(live->all.ns, r->all.ns, sizeof(r->all.ns));
	assert_int_equal(live->n, r->nculprits);
	assert_true(r->nculprits >= 1); /* the bystander, 12, ran instead */
	for (int i = 0; i < r->nculprits; i++) {
		int k = 0;

		while (k < live->n && live->culprits[k].tid != r->culprits[i].tid)
			k++;
		assert_true(k < live->n);
		assert_int_equal(live->culprits[k].ns, r->culprits[i].ns);
		assert_int_equal(live->culprits[k].wakeups, r->culprits[i].wakeups);
	}
	assert_true(r->p99_off && !r->p99_known);
	sched_results_release(&dst);
	sinks_release(&l);
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dispatch),
		cmocka_unit_test(batched_as_one_by_one),
		cmocka_unit_test(blame_snapshots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
