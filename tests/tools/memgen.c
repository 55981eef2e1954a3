/*
 * memgen.c - write perf.data files of memory samples with the exact data_src
 * encodings kernels emit, for scenarios a test can check: false sharing across
 * sockets (remote HITM), true sharing (local HITM), a read-mostly line, and noise.
 * Usage: memgen OUT.data SYSFS_FIXTURE [noise_lines]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../collectors/pd_writer.h"
#include "../../collectors/topology.h"

/* perf_mem_data_src as Intel kernels encode them (field shifts from perf_event.h) */
#define OP(x) ((uint64_t)(x) << 0)
#define LVL(x) ((uint64_t)(x) << 5)
#define SNOOP(x) ((uint64_t)(x) << 19)
#define TLB(x) ((uint64_t)(x) << 26)
#define LVLNUM(x) ((uint64_t)(x) << 33)
#define REMOTE(x) ((uint64_t)(x) << 37)

#define TLB_L1_HIT TLB(0x08 | 0x02)
/* load, L3 hit, snoop HITM: 0x629800842 in NOTES (local HITM) */
static const uint64_t LOCAL_HITM = 0x629800842ull;
/* load, remote cache (1 hop) hit, snoop HITM, remote, any cache */
static const uint64_t REMOTE_HITM = OP(0x2) | LVL(0x400 | 0x2) | SNOOP(0x10) | TLB_L1_HIT |
				    LVLNUM(0xb) | REMOTE(1);
static const uint64_t L1_HIT = OP(0x2) | LVL(0x08 | 0x2) | SNOOP(0x02) | TLB_L1_HIT | LVLNUM(0x1);
static const uint64_t L3_HIT = OP(0x2) | LVL(0x40 | 0x2) | SNOOP(0x02) | TLB_L1_HIT | LVLNUM(0x3);
static const uint64_t STORE_L1_HIT = OP(0x4) | LVL(0x08 | 0x2) | TLB_L1_HIT;
static const uint64_t STORE_L1_MISS = OP(0x4) | LVL(0x08 | 0x4) | TLB_L1_HIT;

#define SAMPLE_TYPE                                                                          \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |       \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT |      \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

struct rec {
	struct perf_event_header h;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time, addr;
	uint32_t cpu, res;
	uint64_t period, weight, data_src, phys;
};

static struct pd_writer w;
static uint64_t now = 1000000;

/* A real pair of counters and their writers, so the report can name them. */
struct pair {
	volatile long a, b;
} memgen_pair __attribute__((aligned(64)));

__attribute__((noinline)) void memgen_writer_a(void)
{
	memgen_pair.a++;
}

__attribute__((noinline)) void memgen_writer_b(void)
{
	memgen_pair.b++;
}

/* MMAP2 records for this program's own mappings, as pid 1000, plus its COMM. */
static void self_maps(void)
{
	char exe[4096], line[8192];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "r");
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
	} comm = { { PERF_RECORD_COMM, 0, sizeof(comm) }, 1000, 1000, "memgen" };

	pd_writer_add(&w, &comm, sizeof(comm));
	if (n <= 0 || !f)
		exit(1);
	exe[n] = '\0';
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perm[8], path[4096] = "";
		uint8_t rec[8192];
		size_t len, plen;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start, &end, perm, &off,
			   path) < 4 || strcmp(path, exe))
			continue;
		plen = (strlen(path) + 8) & ~(size_t)7;
		len = 72 + plen;
		memset(rec, 0, len);
		((struct perf_event_header *)rec)->type = PERF_RECORD_MMAP2;
		((struct perf_event_header *)rec)->misc = 2; /* user */
		((struct perf_event_header *)rec)->size = (uint16_t)len;
		*(uint32_t *)(rec + 8) = 1000;
		*(uint32_t *)(rec + 12) = 1000;
		*(uint64_t *)(rec + 16) = start;
		*(uint64_t *)(rec + 24) = end - start;
		*(uint64_t *)(rec + 32) = off;
		*(uint32_t *)(rec + 64) = (perm[0] == 'r' ? 1 : 0) | (perm[1] == 'w' ? 2 : 0) |
					  (perm[2] == 'x' ? 4 : 0);
		*(uint32_t *)(rec + 68) = 2; /* MAP_PRIVATE */
		memcpy(rec + 72, path, strlen(path));
		pd_writer_add(&w, rec, len);
	}
	fclose(f);
}

static void sample(int store, uint32_t tid, uint32_t cpu, uint64_t ip, uint64_t addr,
		   uint64_t ds, uint64_t weight)
{
	struct rec r = { { PERF_RECORD_SAMPLE, 2 /* user */, sizeof(r) },
			 store ? 2 : 1, ip, 1000, tid, now += 1000, addr, cpu, 0, 1, weight, ds,
			 addr - 0x7f0000000000ull + 0x100000000ull };

	pd_writer_add(&w, &r, sizeof(r));
}

int main(int argc, char **argv)
{
	struct pd_writer_event ev[2];
	struct perf_event_attr a;
	struct topology t;
	struct pd_writer_meta m = { NULL, 0, &t, "memgen" };
	char err[256];
	int noise = argc > 3 ? atoi(argv[3]) : 2000;

	if (argc < 3 || topology_load(&t, argv[2], err, sizeof(err)) < 0) {
		fprintf(stderr, "usage: memgen OUT.data SYSFS_FIXTURE [noise_lines]\n");
		return 2;
	}
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.size = sizeof(a);
	a.config = 0x1cd;	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	a.config1 = 30;		/* ldlat */
	a.sample_period = 1;
	a.sample_type = SAMPLE_TYPE;
	a.precise_ip = 3;
	a.sample_id_all = 0; /* non-sample records (MMAP2, COMM) then need no trailer */
	ev[0] = (struct pd_writer_event){ a, 1, "cpu/mem-loads,ldlat=30/P" };
	a.config = 0x82d0;	/* MEM_INST_RETIRED.ALL_STORES */
	a.config1 = 0;
	ev[1] = (struct pd_writer_event){ a, 2, "cpu/mem-stores/P" };
	if (pd_writer_open(&w, argv[1], ev, 2, &m) < 0) {
		perror(argv[1]);
		return 1;
	}
	self_maps();
	/* false sharing on a real global: memgen_pair.a by tid 1101 (node 0), .b by 1102 (node 1) */
	for (int i = 0; i < 60; i++) {
		sample(0, 1101, 1, (uint64_t)memgen_writer_a, (uint64_t)&memgen_pair.a, REMOTE_HITM, 300);
		sample(1, 1101, 1, (uint64_t)memgen_writer_a, (uint64_t)&memgen_pair.a, STORE_L1_MISS, 0);
		sample(0, 1102, 17, (uint64_t)memgen_writer_b, (uint64_t)&memgen_pair.b, REMOTE_HITM, 300);
		sample(1, 1102, 17, (uint64_t)memgen_writer_b, (uint64_t)&memgen_pair.b, STORE_L1_MISS, 0);
	}
	/* false sharing: tid 1001 on CPU 0 (node 0) owns +0x0, tid 1002 on CPU 16 (node 1) +0x8 */
	for (int i = 0; i < 100; i++) {
		sample(0, 1001, 0, 0x401100, 0x7f0000001000, REMOTE_HITM, 310);
		sample(1, 1001, 0, 0x401104, 0x7f0000001000, i % 10 ? STORE_L1_MISS : STORE_L1_HIT, 0);
		sample(0, 1002, 16, 0x401200, 0x7f0000001008, REMOTE_HITM, 290);
		sample(1, 1002, 16, 0x401204, 0x7f0000001008, i % 10 ? STORE_L1_MISS : STORE_L1_HIT, 0);
	}
	/* true sharing: a counter at +0x10 written by four threads on node 0 */
	for (int i = 0; i < 150; i++) {
		uint32_t tid = 1003 + (uint32_t)(i % 4), cpu = 1 + (uint32_t)(i % 4);

		sample(0, tid, cpu, 0x401300, 0x7f0000002010, LOCAL_HITM, 120);
		if (i % 3 == 0)
			sample(1, tid, cpu, 0x401304, 0x7f0000002010, STORE_L1_MISS, 0);
	}
	/* read-mostly: a table read by everyone, written once */
	for (int i = 0; i < 300; i++)
		sample(0, 1001 + (uint32_t)(i % 6), (uint32_t)(i % 8), 0x401400,
		       0x7f0000003000 + (uint64_t)(i % 8) * 8, i % 5 ? L1_HIT : L3_HIT, 8);
	sample(1, 1001, 0, 0x401404, 0x7f0000003000, STORE_L1_HIT, 0);
	/* noise: one L1-hit load on each of many lines */
	for (int i = 0; i < noise; i++)
		sample(0, 1001 + (uint32_t)(i % 6), (uint32_t)(i % 32), 0x401500,
		       0x7f0000100000 + (uint64_t)i * 64 + (uint64_t)(i % 8) * 8, L1_HIT, 6);
	/* hostile: no data address, unknown data_src bits, a huge weight */
	sample(0, 1001, 0, 0x401600, 0, L1_HIT, 5);
	sample(0, 1001, 0, 0x401600, 0x7f0000004000, 0, 5);
	sample(0, 1001, 0, 0x401600, 0x7f0000004000, 0xffffull << 46 | OP(0x10), 5);
	sample(0, 1001, 0, 0x401600, 0x7f0000004000, L1_HIT, ~0ull);
	if (pd_writer_finish(&w) < 0) {
		perror(argv[1]);
		return 1;
	}
	topology_release(&t);
	return 0;
}
