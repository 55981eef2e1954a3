/*
 * replay.h - the file source: a perf.data file through the reorder window into its sinks
 * (sink.h). It owns no analyzer: pipeline/file_session.h builds a report's sinks around it.
 */
#ifndef LOCUS_REPLAY_H
#define LOCUS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../analyzers/cacheline.h"
#include "../collectors/pd_consume.h"
#include "../collectors/perfdata.h"
#include "../collectors/symbols.h"
#include "../collectors/topology.h"
#include "reorder.h"
#include "sink.h"
#include "source.h"

struct replay_opts {
	const char *path;	/* "-" for standard input */
	const char *sysfs_root;	/* topology when the file carries none (NULL: this machine) */
	int32_t pid;		/* follow this task tree only; 0: every task */
	unsigned line_size;	/* cacheline size for memory samples (64 or 128) */
	enum cl_sort sort;	/* rank lines by local, remote or total HITM */
	void (*progress)(const struct pd_file *f, void *ctx); /* called every 64k records */
	void *progress_ctx;
	int32_t more[PD_ADDED_MAX]; /* with pid: more task trees to follow (report -p A,B) */
	int nmore;
	uint64_t from_ns, to_ns; /* analyze only events in this window from the first event
				  * (to 0: the end); forks and exits always, to follow trees */
};

/* A file as a source (source.h): its events go to the sinks (src.sinks), in time order. */
struct replay {
	struct source src;		/* first: the interface */
	struct pd_file f;
	struct pd_reader rd;		/* the file's records as events, and their counts */
	struct reorder ro;
	bool begun;			/* the sinks were told what the file records */
	struct event *early;		/* EV_COMM before the first sched sample (the sinks
					 * begin there) */
	int nearly, cap_early;
	struct topology topo;
	char topo_note[400];		/* where the topology came from */
	struct symbols syms;		/* the file's MMAP and MMAP2 records */
	uint64_t kernel_text;		/* where perf's kernel map says the kernel's text was
					 * ([kernel.kallsyms]_text), 0: no such record */
	const struct replay_opts *o;
};

/* -p A,B,... of locus report: the first in o->pid, the rest in o->more. 0, or -1 when
 * malformed (empty, not pids, more than PD_ADDED_MAX + 1). */
int replay_opts_pids(struct replay_opts *o, const char *list);
/*
 * Open the file and choose the topology; its events will go to sinks (filled by the
 * caller before replay_run). Returns 0, or -1 with the reason in err ("<what is wrong>
 * at offset N" for a malformed file).
 */
int replay_open(struct replay *rp, const struct replay_opts *o, struct sinks *sinks, char *err,
		size_t len);
/* Read every record, then finish the sinks. 0, or -1 with why in err (the sinks unfinished). */
int replay_run(struct replay *rp, char *err, size_t len);
/* What the sinks are told at the first sched event (or at the end, when none came). */
void replay_begin_info(const struct replay *rp, struct sink_begin *b);
/* How the file measures, into the scheduler's results r (after replay_run). */
void replay_stamp(const struct replay *rp, struct sched_results *r);
void replay_release(struct replay *rp);
/* After replay_run: whether the file's end is missing (killed, a full disk), into p. */
void replay_end(const struct replay *rp, struct provenance *p);

#endif
