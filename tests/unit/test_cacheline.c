/* test_cacheline.c - data_src decoding by perf's rules, and the sharing verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "../../analyzers/cacheline.h"

static void notes_example(void **state)
{
	struct data_src d;
	struct mem_stats s = { 0 };
	char buf[64];

	/* 0x629800842: load, L3 hit, snoop HITM, TLB L1 hit: a local HITM */
	data_src_decode(0x629800842ull, &d);
	assert_int_equal(d.op, 0x2);
	assert_int_equal(d.lvl, 0x40 | 0x2);
	assert_true(d.snoop & 0x10);
	assert_int_equal(mem_stats_add(&s, 0x629800842ull, 0x1000), 0);
	assert_int_equal(s.lcl_hitm, 1);
	assert_int_equal(s.rmt_hitm, 0);
	assert_int_equal(s.loads, 1);
	assert_string_equal(data_src_describe(0x629800842ull, buf, sizeof(buf)),
			    "LLC hit, HITM (local)");
}

static void remote_and_stores(void **state)
{
	struct mem_stats s = { 0 };
	/* load, remote cache 1 hop, hit, snoop HITM, remote bit, no hops */
	uint64_t rmt = 0x2 | (uint64_t)(0x400 | 0x2) << 5 | (uint64_t)0x10 << 19 | 1ull << 37;
	uint64_t st_hit = 0x4 | (uint64_t)(0x08 | 0x2) << 5;
	uint64_t st_miss = 0x4 | (uint64_t)(0x08 | 0x4) << 5;

	mem_stats_add(&s, rmt, 0x1000);
	assert_int_equal(s.rmt_hitm, 1);
	assert_int_equal(s.rmt_dram, 1); /* perf counts the remote bit as remote DRAM too */
	mem_stats_add(&s, st_hit, 0x1000);
	mem_stats_add(&s, st_miss, 0x1000);
	assert_int_equal(s.stores, 2);
	assert_int_equal(s.st_l1hit, 1);
	assert_int_equal(s.st_l1miss, 1);
	/* no address, no operation: counted, not placed */
	assert_int_equal(mem_stats_add(&s, rmt, 0), -1);
	assert_int_equal(s.ld_noaddr, 1);
	assert_int_equal(mem_stats_add(&s, 0, 0x1000), -1);
	assert_int_equal(mem_stats_add(&s, ~0ull & ~0x6ull, 0x1000), -1);
	assert_int_equal(s.unparsable, 2);
}

static struct event mem(int tid, int cpu, uint64_t addr, bool store)
{
	struct event e;

	memset(&e, 0, sizeof(e));
	e.type = EV_MEM;
	e.tid = tid;
	e.cpu = cpu;
	e.mem.addr = addr;
	e.mem.ip = 0x400000;
	e.mem.data_src = store ? 0x4 | (uint64_t)(0x08 | 0x2) << 5 : 0x629800842ull;
	e.mem.weight = 100;
	return e;
}

static void verdicts(void **state)
{
	const int core[] = { 0, 1, 2, 3 }, node[] = { 0, 0, 1, 1 };
	struct cacheline_cfg cfg = { NULL, 64, CL_SORT_TOTAL, 0 };
	struct topology t;
	struct cacheline c;
	char text[256];
	struct event ev[] = {
		/* line 0x1000: false sharing between tid 1 (+0x0) and tid 2 (+0x8) */
		mem(1, 0, 0x1000, true), mem(2, 2, 0x1008, true), mem(1, 0, 0x1000, false),
		mem(2, 2, 0x1008, false), mem(2, 2, 0x1008, false),
		/* line 0x2000: one counter written by two threads */
		mem(1, 0, 0x2010, true), mem(3, 1, 0x2010, true), mem(3, 1, 0x2010, false),
		/* line 0x3000: loads only */
		mem(1, 0, 0x3000, false), mem(2, 2, 0x3020, false),
		/* line 0x4000: written by one thread only */
		mem(1, 0, 0x4000, true), mem(1, 0, 0x4008, true),
	};

	topology_from_arrays(&t, 4, core, NULL, node);
	cfg.topo = &t;
	cacheline_init(&c, &cfg);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		cacheline_add(&c, &ev[i]);
	cacheline_finish(&c);
	assert_int_equal(c.nlines, 4);
	/* ranked by HITM: 0x1000 has 3 */
	assert_int_equal(c.lines[0].addr, 0x1000);
	assert_int_equal(c.lines[0].verdict, CL_FALSE_SHARING);
	assert_int_equal(c.lines[0].noff, 2);
	assert_int_equal(c.lines[0].off[1].offset, 8);
	assert_int_equal(c.lines[0].off[1].lat_n, 2);
	cl_verdict_text(&c, &c.lines[0], text, sizeof(text));
	assert_string_equal(text, "false sharing: +0x0 written by tid 1 on node 0 and +0x8 written "
				  "by tid 2 on node 1");
	/* then 0x3000 (2 HITM loads), 0x2000 (1), 0x4000 (none) */
	assert_int_equal(c.lines[1].addr, 0x3000);
	assert_int_equal(c.lines[1].verdict, CL_READ_MOSTLY);
	assert_int_equal(c.lines[2].addr, 0x2000);
	assert_int_equal(c.lines[2].verdict, CL_TRUE_SHARING);
	assert_int_equal(c.lines[3].addr, 0x4000);
	assert_int_equal(c.lines[3].verdict, CL_PRIVATE);
	assert_int_equal(c.lines[0].nodes, 0x3);
	cacheline_release(&c);
	/* with the reports' threshold, lines this thin get no verdict, and say why */
	cfg.min_samples = CL_MIN_SAMPLES;
	cacheline_init(&c, &cfg);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		cacheline_add(&c, &ev[i]);
	cacheline_finish(&c);
	for (int i = 0; i < c.nlines; i++)
		assert_int_equal(c.lines[i].verdict, CL_TOO_FEW);
	cl_verdict_text(&c, &c.lines[0], text, sizeof(text));
	assert_string_equal(text, "no verdict: 5 samples, fewer than the 8 a verdict needs");
	assert_string_equal(cl_verdict_name(CL_TOO_FEW), "too_few_samples");
	cacheline_release(&c);
	topology_release(&t);
}

/*
 * Lines sampled once stay one sample each until a second comes; the ranking is the same:
 * 1,000 noise lines with an L1-hit load each, one with a HITM load, one hot line with 3.
 */
static void lines_sampled_once(void **state)
{
	struct cacheline_cfg cfg = { NULL, 64, CL_SORT_TOTAL, 0 };
	struct cacheline c;
	struct cl_summary top[4];
	uint64_t l1_load = 0x2 | (uint64_t)(0x08 | 0x2) << 5; /* a load, L1 hit, no snoop */
	int ntop;

	(void)state;
	cacheline_init(&c, &cfg);
	for (int i = 0; i < 1000; i++) {
		struct event e = mem(5, 1, 0x100000 + 64 * (uint64_t)(999 - i), false);

		e.mem.data_src = l1_load;
		cacheline_add(&c, &e);
	}
	{
		struct event a = mem(1, 0, 0x9000, false), b = mem(2, 1, 0x9008, true);
		struct event d = mem(1, 0, 0x9000, false), h = mem(7, 1, 0x500000, false);

		cacheline_add(&c, &a); /* a single */
		cacheline_add(&c, &h); /* a single with a HITM */
		cacheline_add(&c, &b); /* the second sample: 0x9000 gets its details */
		cacheline_add(&c, &d);
	}
	assert_int_equal(c.nlines, 1);
	assert_int_equal(c.nsingles, 1001);
	assert_int_equal(cacheline_count(&c), 1002);
	ntop = cacheline_top(&c, top, 4); /* while samples arrive: the singles count too */
	assert_int_equal(ntop, 2);
	assert_int_equal(top[0].addr, 0x9000);
	assert_int_equal(top[1].addr, 0x500000);
	cacheline_finish(&c);
	assert_int_equal(cacheline_count(&c), 1002);
	assert_int_equal(c.nlines, CL_DETAILED);
	assert_int_equal(c.lines[0].addr, 0x9000); /* 2 HITM, 3 samples, both offsets */
	assert_int_equal(c.lines[0].st.samples, 3);
	assert_int_equal(c.lines[0].noff, 2);
	assert_int_equal(c.lines[0].off[0].tids.len, 1);
	assert_int_equal(c.lines[0].off[0].lat_n, 2);
	assert_int_equal(c.lines[1].addr, 0x500000); /* 1 HITM, 1 sample */
	/* then the noise by address, detailed up to CL_DETAILED, the rest as they came */
	assert_int_equal(c.lines[2].addr, 0x100000);
	assert_int_equal(c.lines[CL_DETAILED - 1].addr, 0x100000 + 64 * (CL_DETAILED - 3));
	assert_int_equal(c.singles[0].addr, 0x100000 + 64 * (CL_DETAILED - 2));
	assert_int_equal(c.lines[2].st.loads, 1);
	assert_int_equal(mem_stats_hitm(&c.lines[2].st), 0);
	cacheline_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notes_example),
		cmocka_unit_test(remote_and_stores),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(lines_sampled_once),
	};

	return cmocka_run_group_tests_name("cacheline", tests, NULL, NULL);
}
