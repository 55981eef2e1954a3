/*
 * pd_consume.h - a perf.data file's records as locus events: scheduler and
 * memory samples decoded, lost counts, round ends and mappings handed to a
 * consumer. The one place that knows the layout of the records a file holds.
 */
#ifndef LOCUS_PD_CONSUME_H
#define LOCUS_PD_CONSUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/event.h"
#include "../model/stack.h"
#include "perfdata.h"
#include "schedstat_record.h"
#include "tp_decode.h"

struct pd_consumer {
	/* A decoded sched event (file order, not yet time order), EV_MEM, EV_LOST,
	 * EV_COMM (a task's name from PERF_RECORD_COMM) or EV_AFFINITY (locus record's
	 * affinity records: the mask valid until pd_reader_release). */
	event_fn event;
	/* A round of the file ended: every event before it is older than any after it. */
	void (*round)(void *ctx);
	/* An MMAP or MMAP2 record: pid's mapping of path. */
	void (*map)(void *ctx, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path);
	void *ctx;
	/* A PERF_RECORD_FORK: process pid forked from ppid (its mappings are ppid's until it
	 * maps its own); NULL: not wanted. */
	void (*fork)(void *ctx, uint32_t pid, uint32_t ppid);
};

struct pd_reader {
	struct tep_handle *tep;
	struct tp_decoder dec;
	bool decoder;		/* the file's tracepoint formats are read */
	uint64_t samples, sched_samples, other_tracepoints, undecodable, mem_samples;
	uint64_t irq_samples;	/* of other_tracepoints, the irq ones (blame reads them) */
	uint64_t first_ns, last_ns;	/* the samples' earliest and latest time (0: none timed) */
	struct ss_records ss;	/* /proc/schedstat snapshots (perf sched stats record, locus) */
	struct stack_table stacks; /* callchains of sched_waking and sched_switch samples
				    * (perf record -g, locus record -g): the events' stack ids
				    * (zero-initialized is empty) */
	uint64_t callchains;	/* samples that carried one (nr > 0) */
	const char *ksyms;	/* the kallsyms the file's TRACING_DATA holds (NULL: none), */
	size_t ksyms_len;	/* within the file's tracing data */
	uint64_t affinity_records;	/* locus record's (EV_AFFINITY): tasks' masks known */
	uint64_t **aff_masks;	/* their masks */
	int naff, cap_aff;
	void (*progress)(const struct pd_file *f, void *ctx); /* every 64k records */
	void *progress_ctx;
};

/*
 * Read every record of f and hand it to c. Returns 0, or -1 with the reason in
 * err (a malformed file, or scheduler samples without tracepoint formats).
 */
int pd_consume(struct pd_reader *rd, struct pd_file *f, const struct pd_consumer *c, char *err,
	       size_t len);
/* Whether wakeups in the file come from sched_waking (false before any sched sample). */
bool pd_reader_waking(const struct pd_reader *rd);
/* Whether it has sched_migrate_task. */
bool pd_reader_migrate(const struct pd_reader *rd);
void pd_reader_release(struct pd_reader *rd);

#endif
