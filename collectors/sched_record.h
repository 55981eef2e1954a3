/* sched_record.h - the sched collector's ring buffers written into a perf.data file. */
#ifndef LOCUS_SCHED_RECORD_H
#define LOCUS_SCHED_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "memsample.h"
#include "perfdata.h"
#include "pd_writer.h"
#include "sched.h"

struct topology;

struct sched_record {
	struct pd_writer w;
	struct pd_writer_event ev[EV_TYPE_NR + 3];	/* the tracepoints, then memory events */
	char names[EV_TYPE_NR][64];
	int nmem;		/* memory events in the file */
	uint64_t mem_id;	/* the file's id of the first */
	uint64_t mem_samples;	/* memory samples written */
	int write_err;		/* first write error (-errno) */
	uint64_t task_id;	/* the file's id of the event task records come with */
	uint64_t pass_records;	/* the rings' records taken since the last round */
};

/* Whole records (each with its perf_event_header) into the file, as they are. 0 or -errno. */
int sched_record_add(struct sched_record *r, const uint8_t *recs, size_t len);

/* What the file says of the recording besides its events. */
struct sched_record_meta {
	const struct topology *topo;
	const char *cmdline;	/* the locus command line */
	int32_t workload;	/* the workload's pid, stored with it (0: none) */
	int32_t added[PD_ADDED_MAX];	/* running processes traced with the workload (-p),
					 * stored too */
	int nadded;
};

/*
 * Create path for the tracepoints s opened (s opened for recording) and, with
 * mem (a plan prepared by mem_plan_for_record, or NULL), the memory events; the
 * formats, topology and command line go first, so a recording that never
 * finishes is still read. Returns 0, or -1 with "cannot write PATH: why" in err.
 */
int sched_record_open(struct sched_record *r, const struct sched_collector *s,
		      const struct mem_plan *mem, const char *path,
		      const struct sched_record_meta *meta, char *err, size_t len);
/*
 * One raw record of s's rings (as sched_read_raw hands it) into the file: a sample with the
 * file's id of its tracepoint, a task, comm, mapping or lost record with the switch
 * event's; any other left out. (The mask a sched_setaffinity call set is the stream's to
 * derive, and sched_record_affinity's to write.)
 */
void sched_record_sched(struct sched_record *r, const struct sched_collector *s, const void *rec);
/*
 * One raw record of a memory ring (idx: its event in the plan, -1 unknown)
 * into the file, with the file's id in place of the kernel's.
 */
void sched_record_mem(struct sched_record *r, const void *rec, int idx);
/*
 * A task's affinity as the stream derives it from the rings (sched_affinity_start, each
 * sched_setaffinity call that changed a mask: right after the call's sample) into the file,
 * as locus report reads it back (EV_AFFINITY).
 */
void sched_record_affinity(struct sched_record *r, const struct event *a);
/* A pass over every ring ended: a round marker after the records it took, then the file
 * synced (a recording killed now keeps it). */
void sched_record_round(struct sched_record *r);
/* The feature table and the file header. Returns 0 or the first -errno. */
int sched_record_finish(struct sched_record *r);

#endif
