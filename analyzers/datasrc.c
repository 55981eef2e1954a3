/* datasrc.c - decode perf_mem_data_src and count samples exactly as perf c2c does. */
#include "datasrc.h"

#include <stddef.h>
#include <stdio.h>

void data_src_decode(uint64_t v, struct data_src *d)
{
	d->op = (uint32_t)(v & 0x1f);
	d->lvl = (uint32_t)((v >> 5) & 0x3fff);
	d->snoop = (uint32_t)((v >> 19) & 0x1f);
	d->lock = (uint32_t)((v >> 24) & 0x3);
	d->dtlb = (uint32_t)((v >> 26) & 0x7f);
	d->lvl_num = (uint32_t)((v >> 33) & 0xf);
	d->remote = (uint32_t)((v >> 37) & 0x1);
	d->snoopx = (uint32_t)((v >> 38) & 0x3);
	d->blk = (uint32_t)((v >> 40) & 0x7);
	d->hops = (uint32_t)((v >> 43) & 0x7);
}

int mem_stats_add(struct mem_stats *s, uint64_t v, uint64_t addr)
{
	struct data_src d;
	/* a remote level with no hop count (Skylake's unknown remote level) counts as remote */
	int mrem;

	data_src_decode(v, &d);
	mrem = d.remote && !d.hops;
	s->samples++;
	if (d.lock & DS_LOCK_LOCKED)
		s->locks++;
	if (d.op & DS_OP_LOAD) {
		s->loads++;
		if (!addr) {
			s->ld_noaddr++;
			return -1;
		}
		if (d.lvl & DS_LVL_HIT) {
			if (d.lvl & DS_LVL_UNC)
				s->ld_uncache++;
			if (d.lvl & DS_LVL_IO)
				s->ld_io++;
			if (d.lvl & DS_LVL_LFB)
				s->ld_fbhit++;
			if (d.lvl & DS_LVL_L1)
				s->ld_l1hit++;
			if (d.lvl & DS_LVL_L2) {
				s->ld_l2hit++;
				if (d.snoopx & DS_SNOOPX_PEER)
					s->lcl_peer++;
			}
			if (d.lvl & DS_LVL_L3) {
				if (d.snoop & DS_SNOOP_HITM)
					s->lcl_hitm++;
				else
					s->ld_llchit++;
				if (d.snoopx & DS_SNOOPX_PEER)
					s->lcl_peer++;
			}
			if (d.lvl & DS_LVL_LOC_RAM)
				s->lcl_dram++;
			if ((d.lvl & (DS_LVL_REM_RAM1 | DS_LVL_REM_RAM2)) || mrem)
				s->rmt_dram++;
		}
		if ((d.lvl & (DS_LVL_REM_CCE1 | DS_LVL_REM_CCE2)) || mrem) {
			if (d.snoop & DS_SNOOP_HIT) {
				s->rmt_hit++;
			} else if (d.snoop & DS_SNOOP_HITM) {
				s->rmt_hitm++;
			} else if (d.snoopx & DS_SNOOPX_PEER) {
				s->rmt_hit++;
				s->rmt_peer++;
			}
		}
		if (d.lvl & DS_LVL_MISS)
			s->ld_miss++;
		return 0;
	}
	if (d.op & DS_OP_STORE) {
		s->stores++;
		if (!addr) {
			s->st_noaddr++;
			return -1;
		}
		if (d.lvl & DS_LVL_HIT) {
			if (d.lvl & DS_LVL_UNC)
				s->st_uncache++;
			if (d.lvl & DS_LVL_L1)
				s->st_l1hit++;
		}
		if ((d.lvl & DS_LVL_MISS) && (d.lvl & DS_LVL_L1))
			s->st_l1miss++;
		if (d.lvl & DS_LVL_NA)
			s->st_na++;
		return 0;
	}
	s->unparsable++;
	return -1;
}

void mem_stats_merge(struct mem_stats *dst, const struct mem_stats *src)
{
	uint64_t *d = (uint64_t *)dst;
	const uint64_t *s = (const uint64_t *)src;

	for (size_t i = 0; i < sizeof(*dst) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

const char *data_src_describe(uint64_t v, char *buf, size_t len)
{
	struct mem_stats s = { 0 };

	mem_stats_add(&s, v, 1);
	if (s.lcl_hitm)
		snprintf(buf, len, "LLC hit, HITM (local)");
	else if (s.rmt_hitm)
		snprintf(buf, len, "remote cache, HITM");
	else if (s.rmt_hit)
		snprintf(buf, len, "remote cache hit");
	else if (s.ld_l1hit)
		snprintf(buf, len, "L1 hit");
	else if (s.ld_fbhit)
		snprintf(buf, len, "LFB hit");
	else if (s.ld_l2hit)
		snprintf(buf, len, "L2 hit");
	else if (s.ld_llchit)
		snprintf(buf, len, "LLC hit");
	else if (s.lcl_dram)
		snprintf(buf, len, "local DRAM");
	else if (s.rmt_dram)
		snprintf(buf, len, "remote DRAM");
	else if (s.st_l1hit)
		snprintf(buf, len, "store, L1 hit");
	else if (s.st_l1miss)
		snprintf(buf, len, "store, L1 miss");
	else if (s.stores)
		snprintf(buf, len, "store");
	else if (s.loads)
		snprintf(buf, len, "load");
	else
		snprintf(buf, len, "unparsable");
	return buf;
}
