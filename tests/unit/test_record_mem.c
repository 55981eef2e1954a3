/*
 * test_record_mem.c - locus record's memory samples: plans from the fixture
 * PMU trees (Skylake-X, Sapphire Rapids, Zen 3), raw records in the layout the
 * kernel writes for them (PERF_SAMPLE_IDENTIFIER first, sample_id_all last),
 * written by the recorder and read back by the perf.data reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../collectors/pd_consume.h"
#include "../../collectors/pmu_event.h"
#include "../../collectors/sched_record.h"
#include "../../collectors/topology.h"

#define NSAMPLES 50
#define KERNEL_ID 0x5eed0000ull	/* what the kernel numbered the events: never in the file */

struct got {
	struct event mem[NSAMPLES + 1];
	int nmem;
	uint64_t lost;
	int maps;
	char map_path[64];
	uint64_t map_start;
};

static void on_event(void *ctx, const struct event *e)
{
	struct got *g = ctx;

	if (e->type == EV_MEM && g->nmem <= NSAMPLES)
		g->mem[g->nmem++] = *e;
	else if (e->type == EV_LOST)
		g->lost += e->lost.lost;
}

static void on_map(void *ctx, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *path)
{
	struct got *g = ctx;

	(void)pid;
	(void)len;
	(void)pgoff;
	g->maps++;
	g->map_start = start;
	snprintf(g->map_path, sizeof(g->map_path), "%s", path);
}

/* A sample as the kernel writes it: IDENTIFIER, IP, TID, TIME, ADDR, CPU, WEIGHT, DATA_SRC, PHYS. */
static size_t sample(uint8_t *buf, int i, int idx)
{
	uint64_t w[10] = { KERNEL_ID + (uint64_t)idx, 0x401100 + (uint64_t)i * 4,
			   (uint64_t)(1000 + i) << 32 | 1000, 5000000 + (uint64_t)i * 10,
			   0x7f0000001000 + (uint64_t)(i % 5) * 64 + (uint64_t)(i % 3) * 8,
			   (uint64_t)(i % 2), 40 + (uint64_t)i, 0x68100142ull + (uint64_t)(i % 2),
			   0x1234000 + (uint64_t)i };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 + 9 * 8 };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, w, 9 * 8);
	return h.size;
}

/* Non-sample records end with sample_id_all's pid/tid, time, cpu, IDENTIFIER. */
static void trailer(uint8_t *end, int idx)
{
	uint64_t t[4] = { 1000ull << 32 | 1000, 4000000, 0, KERNEL_ID + (uint64_t)idx };

	memcpy(end - 32, t, sizeof(t));
}

static size_t mmap2(uint8_t *buf)
{
	static const char path[] = "/usr/bin/workload";
	size_t body = 8 + 8 + 8 + 8 + 8 + 4 + 4 + 8 + 8 + 4 + 4 + 24; /* fields, then the name */
	struct perf_event_header h = { PERF_RECORD_MMAP2, 0, (uint16_t)(body + 32) };
	uint32_t ids[2] = { 1000, 1000 };
	uint64_t where[3] = { 0x400000, 0x10000, 0 };

	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, ids, sizeof(ids));
	memcpy(buf + 16, where, sizeof(where));
	memcpy(buf + body - 24, path, sizeof(path));
	trailer(buf + h.size, 0);
	return h.size;
}

static size_t lost(uint8_t *buf, uint64_t n)
{
	struct perf_event_header h = { PERF_RECORD_LOST, 0, 8 + 16 + 32 };
	uint64_t v[2] = { KERNEL_ID, n };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, v, sizeof(v));
	trailer(buf + h.size, 1);
	return h.size;
}

/* A recorder that opened sched_switch from the fixture tracefs (no kernel needed to write). */
static void fake_sched(struct sched_collector *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->tracefs, sizeof(s->tracefs), "tests/fixtures/tracefs-tree");
	s->nopened = 1;
	s->opened[0] = EV_SWITCH;
	s->attrs[0].type = PERF_TYPE_TRACEPOINT;
	s->attrs[0].size = sizeof(s->attrs[0]);
	s->attrs[0].config = 372;
	s->attrs[0].sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	s->attrs[0].sample_period = 1;
	s->attrs[0].sample_id_all = 1;
	sample_layout_of(&s->layout, &s->attrs[0]); /* as sched_open does */
}

static void write_and_read(const char *fixture, int expect_events)
{
	struct sched_collector s;
	struct sched_record *r = calloc(1, sizeof(*r));
	struct mem_plan plan;
	struct topology topo;
	struct pd_file f;
	struct pd_reader rd = { 0 };
	struct got g = { 0 };
	struct pd_consumer c = { .event = on_event, .map = on_map, .ctx = &g };
	char path[] = "/tmp/locus-test-record-mem-XXXXXX", err[320];
	static const int core[2] = { 0, 1 }, llc[2] = { 0, 0 }, node[2] = { 0, 0 };
	uint8_t buf[512];
	int fd = mkstemp(path);
	struct sched_record_meta meta = { .topo = &topo, .cmdline = "locus record -- workload",
					  .workload = 1000, .added = { 77, 78 }, .nadded = 2 };

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mem_plan_build(fixture, &plan, err, sizeof(err)), 0);
	assert_int_equal(plan.n, expect_events);
	mem_plan_for_record(&plan);
	fake_sched(&s);
	topology_from_arrays(&topo, 2, core, llc, node);
	assert_int_equal(sched_record_open(r, &s, &plan, path, &meta, err, sizeof(err)), 0);
	mmap2(buf);
	sched_record_mem(r, buf, 0);
	for (int i = 0; i < NSAMPLES; i++) {
		int idx = i % plan.n; /* every event of the plan */

		sample(buf, i, idx);
		sched_record_mem(r, buf, idx);
	}
	lost(buf, 7);
	sched_record_mem(r, buf, -1);
	assert_int_equal(r->mem_samples, NSAMPLES);
	assert_int_equal(sched_record_finish(r), 0);

	/* read back: one attribute per event, named as the plan names it */
	assert_int_equal(pd_open(&f, path), 0);
	assert_int_equal(f.nattrs, 1 + plan.n);
	for (int i = 0; i < plan.n; i++) {
		assert_string_equal(f.attrs[1 + i].name, plan.name[i]);
		assert_int_equal(f.attrs[1 + i].attr.config, plan.attr[i].config);
		assert_true(f.attrs[1 + i].attr.sample_type & PERF_SAMPLE_IDENTIFIER);
	}
	assert_int_equal(f.workload_pid, 1000);
	/* the processes -p added, stored beside the workload's pid and read back */
	assert_int_equal(f.nadded, 2);
	assert_int_equal(f.added_pids[0], 77);
	assert_int_equal(f.added_pids[1], 78);
	assert_string_equal(f.cmdline, "locus record -- workload");
	assert_int_equal(pd_consume(&rd, &f, &c, err, sizeof(err)), 0);
	assert_int_equal(rd.mem_samples, NSAMPLES);
	assert_int_equal(g.nmem, NSAMPLES);
	for (int i = 0; i < NSAMPLES; i++) {
		const struct event *e = &g.mem[i];

		assert_int_equal(e->mem.ip, 0x401100 + (uint64_t)i * 4);
		assert_int_equal(e->tid, 1000 + i);
		assert_int_equal(e->time_ns, 5000000 + (uint64_t)i * 10);
		assert_int_equal(e->mem.addr, 0x7f0000001000 + (uint64_t)(i % 5) * 64 +
						      (uint64_t)(i % 3) * 8);
		assert_int_equal(e->cpu, i % 2);
		assert_int_equal(e->mem.weight, 40 + (uint64_t)i);
		assert_int_equal(e->mem.data_src, 0x68100142ull + (uint64_t)(i % 2));
		assert_int_equal(e->mem.phys_addr, 0x1234000 + (uint64_t)i);
	}
	pd_close(&f);
	/* the samples say which event took them: the file's ids, not the kernel's */
	assert_int_equal(pd_open(&f, path), 0);
	{
		struct pd_record rec;
		struct pd_sample smp;
		int n = 0;

		while (pd_next(&f, &rec) > 0) {
			if (rec.type != PERF_RECORD_SAMPLE)
				continue;
			assert_int_equal(pd_parse_sample(&f, &rec, &smp), 0);
			assert_ptr_equal(smp.attr, &f.attrs[1 + n % plan.n]);
			n++;
		}
		assert_int_equal(n, NSAMPLES);
		pd_close(&f);
	}
	assert_int_equal(g.lost, 7);
	assert_int_equal(g.maps, 1);
	assert_string_equal(g.map_path, "/usr/bin/workload");
	assert_int_equal(g.map_start, 0x400000);
	pd_reader_release(&rd);
	topology_release(&topo);
	free(r);
	unlink(path);
}

static void skylake_x(void **state)
{
	write_and_read("tests/fixtures/pmu/skx", 2);
}

static void sapphire_rapids(void **state)
{
	write_and_read("tests/fixtures/pmu/spr", 3);
}

static void zen3(void **state)
{
	write_and_read("tests/fixtures/pmu/zen3", 1);
}

/* The recording flags: IDENTIFIER and sample_id_all everywhere, mmaps reported once. */
static void plan_for_record(void **state)
{
	struct mem_plan p;
	char err[256];

	assert_int_equal(mem_plan_build("tests/fixtures/pmu/spr", &p, err, sizeof(err)), 0);
	mem_plan_for_record(&p);
	for (int i = 0; i < p.n; i++) {
		assert_true(p.attr[i].sample_type & PERF_SAMPLE_IDENTIFIER);
		assert_true(p.attr[i].sample_type & PERF_SAMPLE_DATA_SRC);
		assert_int_equal(p.attr[i].sample_id_all, 1);
		assert_int_equal(p.attr[i].mmap, i == 0);
		assert_int_equal(p.attr[i].mmap_data, i == 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_for_record), cmocka_unit_test(skylake_x),
		cmocka_unit_test(sapphire_rapids), cmocka_unit_test(zen3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
