/*
 * schedstat_record.h - /proc/schedstat snapshots as perf.data records, in the
 * layout `perf sched stats record` writes (tools/lib/perf/include/perf/event.h):
 *
 *   PERF_RECORD_SCHEDSTAT_CPU (85): header, u64 timestamp (jiffies), u32 cpu,
 *     u16 version, 2 bytes of padding, then the CPU line's counters: six u32
 *     (yld_count .. ttwu_local) and three u64 (rq_cpu_time, run_delay, pcount);
 *   PERF_RECORD_SCHEDSTAT_DOMAIN (86): header, u64 timestamp, u32 cpu, u16
 *     version, u16 domain (its level), then the domain line's counters after
 *     the mask, every one a u32, in the file's column order for the version.
 *
 * Each record is the size of perf's union of the three versions, 8-aligned (72
 * and 208 bytes). A file holds a snapshot when recording starts and one when
 * it stops; a CPU seen again starts the next snapshot.
 */
#ifndef LOCUS_SCHEDSTAT_RECORD_H
#define LOCUS_SCHEDSTAT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "../model/schedstat.h"

#define SS_REC_CPU 85
#define SS_REC_DOMAIN 86
#define SS_REC_CPU_SIZE 72
#define SS_REC_DOMAIN_SIZE 208

/* The snapshots read from a file's records: the first and the last. */
struct ss_records {
	struct schedstat snap[2];
	int n;			/* snapshots begun (0 to 2; later ones replace the second) */
	uint64_t records;	/* records read */
	uint64_t bad;		/* records refused (too short, another version, no CPU first) */
	char why[160];		/* the first refusal */
};

/* One record, header included (size: as the header says). */
void ss_records_add(struct ss_records *sr, const uint8_t *rec, size_t size);
/*
 * The run's deltas, first snapshot to last. Returns 0, or -1 with why (one
 * snapshot only, refused records, counters that do not match).
 */
int ss_records_delta(const struct ss_records *sr, struct schedstat *out, char *why, size_t len);
void ss_records_release(struct ss_records *sr);

/* s as records (CPU lines each followed by their domains) into a malloc'ed *buf; its size. */
size_t ss_records_encode(const struct schedstat *s, uint8_t **buf);

#endif
