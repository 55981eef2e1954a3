/*
 * test_sinks.c - the sink list (pipeline/sink.h): each sink is given the events of its
 * types, in order, one by one or in batches (a buffer handed over when full and at every
 * flush), finished last added first; a sink that needs every event is named for refusal;
 * and the wakeup sink's results are the same batched or one by one (the oracle: the same
 * events fed to both in the same test); the --from/--to window reaches only the sinks that
 * keep it themselves; an aggregating source stands in for the sinks that allow it, which
 * are then neither fed nor finished; the sink plan wires live and file sessions alike.
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
#include "../../pipeline/sink_plan.h"
#include "../../pipeline/sink_wakeup.h"
#include "../../pipeline/stand_in.h"
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

static void p_stand_in(struct sink *k, struct sink_stand_in *si, const struct sink_begin *b)
{
	(void)k, (void)si, (void)b;
}

/* needs every event when fed, but an aggregating source can stand in for it */
static const struct sink_ops standable_ops = { .name = "standable", .every_event = true,
					       .consume = p_consume, .consume_batch = p_batch,
					       .finish = p_finish, .release = p_release,
					       .stand_in = p_stand_in };

static void dispatch(void **state)
{
	static struct probe one, many, mem;
	struct sinks l = { .n = 0 };
	int sched = 0;

	(void)state;
	memset(&one, 0, sizeof(one));
	memset(&many, 0, sizeof(many));
	memset(&mem, 0, sizeof(mem));
	one.k = (struct sink){ .ops = &probe_ops, .buf = NULL, .types = SINK_SCHED };
	many.k = (struct sink){ .ops = &probe_ops, .buf = &many.buf, .types = SINK_SCHED };
	mem.k = (struct sink){ .ops = &every_ops, .buf = NULL, .types = 1u << EV_MEM };
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
	struct sinks la = { .k = { &a.k }, .n = 1 }, lb = { .k = { &b.k }, .n = 1 };
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

/* A snapshot of the list as the live session takes it (locus top): under the lock, then not. */
static void snapshot(struct sinks *l, struct wakeup_sink *wk, const struct sink_begin *sb,
		     struct sched_results *dst)
{
	sinks_snapshot(l);
	sched_results_copy_light(dst, wakeup_sink_results(wk, sb));
	sinks_snapshot_tables(l, dst);
}

/*
 * The blame sink beside the wakeup sink it asks (as the sink plan adds them): its snapshot is
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
	struct sinks l = { .n = 0 };
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

/*
 * The window: 100 to 200 ns after the first timed event. The events outside it reach only
 * the sink that keeps it itself; forks, exits and names reach both, whatever their time; a
 * name, a lost count, a memory sample or a sched_setaffinity call (the collector's: a
 * recording's pass never hands one on, its replay does) is never the window's origin nor
 * its end.
 */
static void window(void **state)
{
	static struct probe in, whole;
	struct sinks l = { .from_ns = 100, .to_ns = 200 };
	static const struct { uint64_t t; int type; } evs[] = {
		{ 5, EV_COMM }, { 0, EV_LOST }, { 990, EV_SETAFFINITY }, { 1000, EV_SWITCH },
		{ 1150, EV_WAKING }, { 1160, EV_MEM }, { 1250, EV_SWITCH }, { 1300, EV_FORK },
		{ 1400, EV_SETAFFINITY_RET }, { 9000, EV_MEM },
	};

	(void)state;
	memset(&in, 0, sizeof(in));
	memset(&whole, 0, sizeof(whole));
	in.k = (struct sink){ .ops = &probe_ops, .types = ~0u };
	whole.k = (struct sink){ .ops = &probe_ops, .types = ~0u, .whole = true };
	sinks_add(&l, &in.k);
	sinks_add(&l, &whole.k);
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct event e = ev_base(evs[i].t, 0, 1, evs[i].type);

		sinks_consume(&l, &e);
	}
	assert_int_equal(whole.n, 10);
	assert_int_equal(in.n, 8); /* all but the switches at 0 ns and 250 ns */
	assert_int_equal(in.seen[3], 1150);
	assert_int_equal(in.seen[7], 9000);
	assert_int_equal(l.windowed, 2);
	assert_true(l.have_first);
	assert_int_equal(l.first_ns, 1000);
	assert_int_equal(l.last_ns, 1300);
	sinks_release(&l);
}

/*
 * An aggregating source: refused while a sink needs every event and has no stand-in;
 * else it stands in for each sink that allows it (the wakeup sink begun, its results
 * where the source fills them), and those are neither flushed, snapshot nor finished.
 */
static void stand_in(void **state)
{
	static struct probe every, standable;
	static struct wakeup_sink wk;
	static struct blame_sink bl;
	struct topology t;
	struct wakeup_cfg wc = { 0 };
	struct sinks l = { .n = 0 };
	struct sink_begin sb = { 0 };
	struct sink_stand_in si;
	static const int core[2] = { 0, 1 }, llc[2] = { 0 }, node[2] = { 0 };
	struct event e = ev_base(1000, 0, 1, EV_SWITCH);

	(void)state;
	topology_from_arrays(&t, 2, core, llc, node);
	sb.topo = &t;
	memset(&every, 0, sizeof(every));
	memset(&standable, 0, sizeof(standable));
	every.k = (struct sink){ .ops = &every_ops, .types = SINK_SCHED };
	standable.k = (struct sink){ .ops = &standable_ops, .buf = &standable.buf,
				     .types = SINK_SCHED };
	blame_sink_init(&bl, &wk);
	wakeup_sink_init(&wk, &wc, false);
	sinks_add(&l, &standable.k);
	sinks_add(&l, &bl.k);
	sinks_add(&l, &wk.k);
	assert_null(sinks_refusing(&l));
	sinks_add(&l, &every.k);
	assert_ptr_equal(sinks_refusing(&l), &every.k);
	l.n--; /* without it: every other one stood in for */
	sinks_stand_in(&l, &si, &sb);
	assert_true(standable.k.stood_in && bl.k.stood_in && wk.k.stood_in);
	assert_ptr_equal(si.sched, wakeup_sink_results(&wk, NULL));
	assert_ptr_equal(si.blame, &bl.stand);
	assert_null(si.stacks);
	assert_null(blame_sink_results(&bl)); /* until the source read its split */
	si.blame->on = true;
	assert_ptr_equal(blame_sink_results(&bl), &bl.stand.r);
	sinks_consume(&l, &e); /* into the buffer, as a stream would put it */
	sinks_flush(&l);
	sinks_snapshot(&l);
	sinks_finish(&l);
	assert_int_equal(standable.batches, 0);
	assert_int_equal(standable.finished_at, 0);
	sinks_release(&l);
	topology_release(&t);
}

/* The sink plan: what each session is fed, in order, and which take events one by one. */
static void plan(void **state)
{
	static struct sink_plan p;
	static struct replay rp;
	struct topology t;
	struct source_cfg cfg = { .memory = true, .stream = { .blame = true, .callchain = true },
				  .bpf = { .blame = true, .stacks = true } };
	struct replay_opts o = { .pid = 7, .to_ns = 5000, .line_size = 64 };
	struct file_session_asks a = { .blame = true, .whole_results = true };
	struct timeline_sink_cfg tl = { .from_ns = 0, .to_ns = 5000 };
	static const int core[2] = { 0, 1 }, llc[2] = { 0 }, node[2] = { 0 };

	(void)state;
	topology_from_arrays(&t, 2, core, llc, node);
	cfg.topo = &t;
	sink_plan_live(&p, &cfg, false); /* streamed: blame before the analyzer, stacks after */
	assert_int_equal(p.list.n, 4);
	assert_ptr_equal(p.list.k[0], &p.bl.k);
	assert_ptr_equal(p.list.k[1], &p.wk.k);
	assert_ptr_equal(p.list.k[2], &p.cl.k);
	assert_ptr_equal(p.list.k[3], &p.stk.k);
	assert_null(p.wk.k.buf); /* the others ask it what it tracks: one by one */
	assert_non_null(sink_plan_cachelines(&p));
	sink_plan_release(&p);
	sink_plan_live(&p, &cfg, true); /* aggregated: what BPF stands in for, memory beside */
	assert_int_equal(p.list.n, 4);
	assert_null(sinks_refusing(&p.list));
	sink_plan_release(&p);
	cfg.stream.record_path = "/nonexistent/x.data"; /* recording: the writer alone */
	sink_plan_live(&p, &cfg, false);
	assert_int_equal(p.list.n, 2);
	assert_ptr_equal(p.list.k[0], &p.wr.k);
	assert_ptr_equal(p.list.k[1], &p.wk.k);
	assert_int_equal(p.wk.k.types, 0); /* no timeline asked: the reader only copies */
	sink_plan_release(&p);
	rp.o = &o; /* a file's: the timeline first, the whole file's results beside */
	topology_from_arrays(&rp.topo, 2, core, llc, node);
	sink_plan_file(&p, &rp, &a, &tl);
	assert_int_equal(p.list.n, 5);
	assert_ptr_equal(p.list.k[0], &p.tl.k);
	assert_ptr_equal(p.list.k[1], &p.bl.k);
	assert_ptr_equal(p.list.k[2], &p.wk.k);
	assert_ptr_equal(p.list.k[3], &p.whole.k);
	assert_ptr_equal(p.list.k[4], &p.cl.k);
	assert_true(p.tl.k.whole && p.whole.k.whole && !p.wk.k.whole);
	assert_int_equal(p.list.to_ns, 5000);
	sink_plan_release(&p);
	topology_release(&rp.topo);
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dispatch),
		cmocka_unit_test(batched_as_one_by_one),
		cmocka_unit_test(blame_snapshots),
		cmocka_unit_test(window),
		cmocka_unit_test(stand_in),
		cmocka_unit_test(plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
