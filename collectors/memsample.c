/* memsample.c - the memory-sample collector: libperf ring buffers of PEBS or IBS samples. */
#include "memsample.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>

#include "counters.h"
#include "probe.h"
#include "../common/util.h"

/* Open one list; precise_ip steps down while the PMU refuses it (EINVAL/EOPNOTSUPP). */
static int open_list(struct mem_collector *m, int first, int count, bool group, int pages,
		     char *err, size_t len)
{
	for (int precise = 3; precise >= 1; precise--) {
		struct perf_evlist *l = perf_evlist__new();
		int r;

		if (!l)
			return -1;
		for (int i = first; i < first + count; i++) {
			struct perf_event_attr a = m->plan.attr[i];

			if (a.precise_ip)
				a.precise_ip = (unsigned)precise;
			perf_evlist__add(l, perf_evsel__new(&a));
		}
		perf_evlist__set_maps(l, m->cpus, m->threads);
		if (group)
			perf_evlist__set_leader(l);
		r = perf_evlist__open(l);
		if (r == 0 && perf_evlist__mmap(l, pages) == 0) {
			for (int i = first; i < first + count; i++) /* as opened: for the file */
				if (m->plan.attr[i].precise_ip)
					m->plan.attr[i].precise_ip = (unsigned)precise;
			m->lists[m->nlists++] = l;
			return 0;
		}
		perf_evlist__delete(l);
		if (r != -EINVAL && r != -EOPNOTSUPP) {
			snprintf(err, len, "cannot open %s: %s%s", m->plan.name[first],
				 strerror(r ? -r : errno),
				 r == -EACCES ? " (needs root, CAP_PERFMON or perf_event_paranoid<=1)"
					      : "");
			return -1;
		}
	}
	snprintf(err, len, "the PMU refuses %s at every precise level", m->plan.name[first]);
	return -1;
}

void mem_plan_for_record(struct mem_plan *p)
{
	for (int i = 0; i < p->n; i++) {
		p->attr[i].sample_type |= PERF_SAMPLE_IDENTIFIER;
		p->attr[i].sample_id_all = 1;
		p->attr[i].read_format |= PERF_FORMAT_ID;
	}
	p->attr[0].mmap = 1;
	p->attr[0].mmap2 = 1;
	p->attr[0].mmap_data = 1;
}

/* Each event's kernel id on each CPU, to tell the file which event a sample is from. */
static int map_ids(struct mem_collector *m, char *err, size_t len)
{
	uint32_t idx = 0;

	u64map_init(&m->ids);
	for (int l = 0; l < m->nlists; l++) {
		struct perf_evsel *e;

		perf_evlist__for_each_evsel(m->lists[l], e)
		{
			for (int c = 0; c < perf_cpu_map__nr(m->cpus); c++) {
				struct perf_counts_values v = { 0 };

				if (perf_evsel__read(e, c, 0, &v) < 0) {
					snprintf(err, len, "cannot read the id of %s: %s",
						 m->plan.name[idx], strerror(errno));
					return -1;
				}
				u64map_put(&m->ids, v.id, idx);
			}
			idx++;
		}
	}
	return 0;
}

int mem_open(struct mem_collector *m, const int *cpus, int ncpus, int pages, bool record,
	     char *err, size_t len)
{
	int loads;

	memset(m, 0, sizeof(*m));
	counters_lib_init();
	if (mem_plan_build(NULL, &m->plan, err, len) < 0)
		return -1;
	if (record)
		mem_plan_for_record(&m->plan);
	sample_layout_of(&m->layout, &m->plan.attr[0]);
	m->cpus = cpu_map_new(cpus, ncpus);
	m->threads = perf_thread_map__new_dummy();
	if (!m->cpus || !m->threads) {
		snprintf(err, len, "out of memory");
		mem_close(m);
		return -1;
	}
	/* the loads (with their aux leader) form one list, the stores another */
	loads = m->plan.aux_leader ? 2 : 1;
	if (open_list(m, 0, loads, m->plan.aux_leader, pages, err, len) < 0 ||
	    (m->plan.n > loads &&
	     open_list(m, loads, m->plan.n - loads, false, pages, err, len) < 0)) {
		mem_close(m);
		return -1;
	}
	if (record && map_ids(m, err, len) < 0) {
		mem_close(m);
		return -1;
	}
	return 0;
}

void mem_enable(struct mem_collector *m)
{
	for (int i = 0; i < m->nlists; i++)
		perf_evlist__enable(m->lists[i]);
}

void mem_disable(struct mem_collector *m)
{
	for (int i = 0; i < m->nlists; i++)
		perf_evlist__disable(m->lists[i]);
}

/* A memory sample (IP, TID, TIME, ADDR, CPU, WEIGHT, DATA_SRC, PHYS_ADDR) into an event. */
static int parse(const struct mem_collector *m, const union perf_event *ev, struct event *e)
{
	struct pd_sample s;

	if (sample_decode(&m->layout, (const uint8_t *)ev + sizeof(ev->header),
			  ev->header.size - sizeof(ev->header), &s) < 0)
		return -1;
	memset(e, 0, sizeof(*e));
	e->type = EV_MEM;
	e->mem.ip = s.ip;
	e->pid = (int32_t)s.pid;
	e->tid = (int32_t)s.tid;
	e->time_ns = s.time;
	e->mem.addr = s.addr;
	e->cpu = (int32_t)s.cpu;
	e->mem.weight = s.weight & 0xffffffff; /* WEIGHT_STRUCT: the low word is the latency */
	e->mem.data_src = s.data_src;
	e->mem.phys_addr = s.phys_addr;
	return 0;
}

/* Every record of every ring, once, to fn; the lost counts noted on the way. */
static void each_record(struct mem_collector *m, void (*fn)(void *ctx, const union perf_event *ev),
			void *ctx)
{
	for (int i = 0; i < m->nlists; i++) {
		struct perf_mmap *map;

		perf_evlist__for_each_mmap(m->lists[i], map, false)
		{
			union perf_event *ev;

			if (perf_mmap__read_init(map) < 0)
				continue;
			while ((ev = perf_mmap__read_event(map))) {
				if (ev->header.type == PERF_RECORD_LOST)
					m->lost += ev->lost.lost;
				fn(ctx, ev);
				perf_mmap__consume(map);
			}
			perf_mmap__read_done(map);
		}
	}
}

struct read_ctx {
	struct mem_collector *m;
	event_fn fn;
	mem_raw_fn raw;
	void *ctx;
};

static void decoded(void *arg, const union perf_event *ev)
{
	struct read_ctx *r = arg;
	struct event e;

	if (ev->header.type != PERF_RECORD_SAMPLE)
		return;
	if (parse(r->m, ev, &e) == 0) {
		r->m->samples++;
		r->fn(r->ctx, &e);
	} else {
		r->m->undecodable++;
	}
}

void mem_read(struct mem_collector *m, event_fn fn, void *ctx)
{
	struct read_ctx r = { m, fn, NULL, ctx };

	each_record(m, decoded, &r);
}

/* The plan index of the event whose kernel id is id, or -1. */
static int id_index(const struct mem_collector *m, uint64_t id)
{
	const uint32_t *idx = u64map_get(&m->ids, id);

	return idx ? (int)*idx : -1;
}

static void raw_record(void *arg, const union perf_event *ev)
{
	struct read_ctx *r = arg;
	uint64_t id;
	int idx;

	if (sample_record_id(ev->header.type, (const uint8_t *)ev + sizeof(ev->header),
			     ev->header.size - sizeof(ev->header), &id) < 0)
		return;
	idx = id_index(r->m, id);
	if (ev->header.type != PERF_RECORD_SAMPLE) {
		r->raw(r->ctx, ev, idx);
		return;
	}
	if (idx < 0) {
		r->m->undecodable++;
		return;
	}
	r->m->samples++;
	r->raw(r->ctx, ev, idx);
}

void mem_read_raw(struct mem_collector *m, mem_raw_fn fn, void *ctx)
{
	struct read_ctx r = { m, NULL, fn, ctx };

	each_record(m, raw_record, &r);
}

void mem_close(struct mem_collector *m)
{
	u64map_release(&m->ids);
	for (int i = 0; i < m->nlists; i++)
		perf_evlist__delete(m->lists[i]);
	if (m->cpus)
		perf_cpu_map__put(m->cpus);
	if (m->threads)
		perf_thread_map__put(m->threads);
	memset(m, 0, sizeof(*m));
}
