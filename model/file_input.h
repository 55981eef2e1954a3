/*
 * file_input.h - what a report says of the recording it read: its counts, header, scope,
 * window, schedstat snapshots and end, how its addresses are named and a picture's caption (filled after the
 * pass by pipeline/file_session.h, written by report/report_doc.h).
 */
#ifndef LOCUS_FILE_INPUT_H
#define LOCUS_FILE_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "caption.h"
#include "provenance.h"
#include "schedstat.h"
#include "stack.h"
#include "symbolize.h"
#include "topology.h"

struct file_input {
	const char *path;
	bool pipe;			/* perf's pipe mode */
	uint64_t records, bytes;	/* records read, and their bytes */
	uint64_t file_bytes;		/* the file's size (0: a stream) */
	uint64_t samples, sched_samples, mem_samples, undecodable, callchains;
	uint64_t other_tracepoints;	/* samples of tracepoints the scheduler does not use, */
	uint64_t irq_samples;		/* of which the irq ones (blame reads them) */
	uint64_t unknown_total;		/* records of types not handled, */
	const uint64_t *unknown;	/* by type, nunknown types */
	int nunknown;
	const char *hostname, *osrelease, *cmdline;	/* "" when the file has none */
	int32_t workload_pid;		/* locus record's workload, or 0 */
	const int32_t *added_pids;	/* the processes record -p added to it */
	int nadded;
	int32_t pid;			/* the report's -p: the task trees it follows (0: all) */
	const int32_t *more;
	int nmore;
	uint64_t from_ns, to_ns;	/* the window (both 0: none; to 0: to the end) */
	uint64_t windowed;		/* events it left out */
	uint64_t ss_records;		/* /proc/schedstat records, */
	int ss_snapshots;		/* in this many snapshots; */
	bool ss_ok;			/* with ss_records: their difference in ss_delta, */
	struct schedstat ss_delta;
	char ss_why[256];		/* else why not */
	struct provenance end;		/* whether the file's end is missing */
	const char *topo_note;		/* where the topology came from */
	const struct topology *topo;
	struct symbolizer syms;		/* the file's memory samples' addresses */
	struct stack_namer namer;	/* its callchains' frames */
	const struct stack_table *stacks;
	struct svg_caption cap;		/* what a picture of it says (command, kernel, host, date) */
};

#endif
