/* replay.h - the file source: a perf.data file through the reorder window into the analyzers. */
#ifndef LOCUS_REPLAY_H
#define LOCUS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../analyzers/cacheline.h"
#include "../analyzers/reorder.h"
#include "../collectors/pd_consume.h"
#include "../collectors/perfdata.h"
#include "../collectors/symbols.h"
#include "../collectors/topology.h"
#include "source.h"

struct replay_opts {
	const char *path;	/* "-" for standard input */
	const char *sysfs_root;	/* topology when the file carries none (NULL: this machine) */
	int32_t pid;		/* follow this task tree only; 0: every task */
	unsigned line_size;	/* cacheline size for memory samples (64 or 128) */
	enum cl_sort sort;	/* rank lines by local, remote or total HITM */
	void (*progress)(const struct pd_file *f, void *ctx); /* called every 64k records */
	void *progress_ctx;
	event_sink tap;		/* also given every sched event in time order, before the
				 * analyzer and whatever the window (NULL: none) */
	void *tap_ctx;
	/* told the analyzer's idle-CPU verdicts (wakeup_cfg.verdict; NULL: none) */
	void (*verdict)(void *ctx, const struct idle_told *v);
	void *verdict_ctx;
	int32_t more[PD_ADDED_MAX]; /* with pid: more task trees to follow (report -p A,B) */
	int nmore;
	uint64_t from_ns, to_ns; /* analyze only events in this window from the first event
				  * (to 0: the end); forks and exits always, to follow trees */
};

/* A file as a source (source.h): its analyzer's results are in src.an.r. */
struct replay {
	struct source src;		/* first: the interface */
	struct pd_file f;
	struct pd_reader rd;		/* the file's records as events, and their counts */
	struct reorder ro;
	struct wakeup_batch batch;	/* time-ordered events on their way to the analyzer */
	bool analyzer;
	struct event *early;		/* EV_COMM before the first sched sample (the analyzer
					 * starts there) */
	int nearly, cap_early;
	struct topology topo;
	char topo_note[400];		/* where the topology came from */
	struct cacheline cl;		/* memory samples (perf c2c / mem record, locus) */
	struct symbols syms;		/* the file's MMAP and MMAP2 records */
	const struct replay_opts *o;
	uint64_t first_ns;		/* the first sched event's time (the window's origin) */
	bool have_first;
	uint64_t last_ns;		/* the last one's, in the window or not */
	uint64_t windowed;		/* events left out by the window */
};

/*
 * Open the file and choose the topology. Returns 0, or -1 with the reason in
 * err ("<what is wrong> at offset N" for a malformed file).
 */
int replay_open(struct replay *rp, const struct replay_opts *o, char *err, size_t len);
/* Read every record and finish the analysis (drain, then finish). 0, or -1 with why in err. */
int replay_run(struct replay *rp, char *err, size_t len);
void replay_release(struct replay *rp);
/* After replay_run: whether the file's end is missing (killed, a full disk), into p. */
void replay_end(const struct replay *rp, struct provenance *p);

#endif
