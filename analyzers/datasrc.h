/* datasrc.h - perf_mem_data_src decoding and the counting rules perf c2c uses. */
#ifndef LOCUS_DATASRC_H
#define LOCUS_DATASRC_H

#include <stddef.h>
#include <stdint.h>

/* Field values (include/uapi/linux/perf_event.h; some are missing from 6.1's copy). */
#define DS_OP_LOAD 0x02
#define DS_OP_STORE 0x04
#define DS_LVL_NA 0x01
#define DS_LVL_HIT 0x02
#define DS_LVL_MISS 0x04
#define DS_LVL_L1 0x08
#define DS_LVL_LFB 0x10
#define DS_LVL_L2 0x20
#define DS_LVL_L3 0x40
#define DS_LVL_LOC_RAM 0x80
#define DS_LVL_REM_RAM1 0x100
#define DS_LVL_REM_RAM2 0x200
#define DS_LVL_REM_CCE1 0x400
#define DS_LVL_REM_CCE2 0x800
#define DS_LVL_IO 0x1000
#define DS_LVL_UNC 0x2000
#define DS_SNOOP_NONE 0x02
#define DS_SNOOP_HIT 0x04
#define DS_SNOOP_MISS 0x08
#define DS_SNOOP_HITM 0x10
#define DS_LOCK_LOCKED 0x02
#define DS_SNOOPX_FWD 0x01
#define DS_SNOOPX_PEER 0x02

struct data_src {
	uint32_t op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops;
};

void data_src_decode(uint64_t v, struct data_src *d);

/* Counts in perf c2c's terms: what a set of memory samples did. */
struct mem_stats {
	uint64_t samples;
	uint64_t loads, stores, locks;
	uint64_t lcl_hitm, rmt_hitm;	/* loads that hit a modified line in another core */
	uint64_t lcl_peer, rmt_peer;	/* Arm SPE and AMD: from a peer cache */
	uint64_t ld_l1hit, ld_fbhit, ld_l2hit, ld_llchit;
	uint64_t lcl_dram, rmt_dram, rmt_hit;
	uint64_t ld_uncache, ld_io, ld_miss, ld_noaddr;
	uint64_t st_l1hit, st_l1miss, st_na, st_uncache, st_noaddr;
	uint64_t unparsable;		/* neither a load nor a store */
};

/*
 * Count one sample by perf c2c's rules. Returns 0, or -1 when it cannot be
 * placed on a cacheline (no data address, or neither load nor store).
 */
int mem_stats_add(struct mem_stats *s, uint64_t data_src, uint64_t addr);
void mem_stats_merge(struct mem_stats *dst, const struct mem_stats *src);

static inline uint64_t mem_stats_hitm(const struct mem_stats *s)
{
	return s->lcl_hitm + s->rmt_hitm;
}

/* A short description: "L3 hit, HITM (local)", "remote DRAM", "store L1 miss". */
const char *data_src_describe(uint64_t data_src, char *buf, size_t len);

#endif
