/* sched_record.h - the sched collector's ring buffers written into a perf.data file. */
#ifndef LOCUS_SCHED_RECORD_H
#define LOCUS_SCHED_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "pd_writer.h"
#include "sched.h"

struct topology;

struct sched_record {
	struct pd_writer w;
	struct pd_writer_event ev[EV_TYPE_NR];
	char names[EV_TYPE_NR][64];
	int write_err;		/* first write error (-errno) */
	uint64_t task_id;	/* the file's id of the event task records come with */
};

/*
 * Create path for the tracepoints s opened (s opened for recording). Returns 0,
 * or -1 with "cannot write PATH: why" in err.
 */
int sched_record_open(struct sched_record *r, const struct sched_collector *s, const char *path,
		      char *err, size_t len);
/* Drain every ring into the file; a round marker follows each pass that wrote records. */
void sched_record_drain(struct sched_record *r, struct sched_collector *s);
/*
 * Formats, topology and command line (with the workload's pid, when > 0), then
 * the final header. Returns 0 or the first -errno.
 */
int sched_record_finish(struct sched_record *r, const struct sched_collector *s,
			const struct topology *topo, const char *cmdline, int32_t workload);

#endif
