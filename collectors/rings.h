/*
 * rings.h - per-CPU perf ring buffers for a set of events opened on every CPU of a list:
 * each CPU's events write into one ring (the first one's, the others redirected to it),
 * read in batches: the head read once a ring a drain and the tail written back once
 * (libperf's reader touched the ring's control page, which the kernel writes at every
 * record, for every record read: a cache line bounced between the reader and the
 * workload's CPUs).
 */
#ifndef LOCUS_RINGS_H
#define LOCUS_RINGS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ring;

struct rings {
	int ncpus, nattrs;
	int *cpu;		/* ncpus: the CPU of each ring */
	int *fd;		/* ncpus * nattrs: event j of CPU i at [i * nattrs + j], -1 closed */
	struct ring *r;		/* ncpus, mapped once opened */
	size_t data_bytes;	/* of each ring (pages * page size) */
	uint8_t *copy;		/* a record that wraps around a ring's end, made whole */
};

/*
 * Open attrs[0..nattrs) on each CPU of cpus (system-wide), map one ring of pages pages
 * (a power of two) per CPU and send every event of the CPU there. 0, or -1 with errno and
 * what failed in *what ("open" or "map"); what is open is closed again.
 */
int rings_open(struct rings *rs, const int *cpus, int ncpus, struct perf_event_attr *attrs,
	       int nattrs, int pages, const char **what);
void rings_enable(struct rings *rs);
void rings_disable(struct rings *rs);
/* Wait up to timeout_ms for a ring to pass its wakeup watermark (or a signal). */
void rings_poll(struct rings *rs, int timeout_ms);
/*
 * Every record written so far, ring by ring in CPU list order, to fn (the record: valid
 * until fn returns; cpu: its ring's CPU). The space read is given back as it goes, every
 * quarter of a ring at most: few writes the kernel's CPUs see.
 */
void rings_read(struct rings *rs, void (*fn)(void *ctx, int cpu, const void *rec), void *ctx);
void rings_close(struct rings *rs);

#endif
