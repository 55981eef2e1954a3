/*
 * file_pass.h - a report's session over a perf.data file: the file source (replay.h) and
 * the sinks the command asks for, fed in one pass: the wakeup analyzer, the cacheline
 * analyzer, and, for --trace/--svg-timeline, the timeline beside them.
 */
#ifndef LOCUS_FILE_PASS_H
#define LOCUS_FILE_PASS_H

#include "../model/file_input.h"
#include "replay.h"
#include "sink_blame.h"
#include "sink_cacheline.h"
#include "sink_stacks.h"
#include "sink_timeline.h"
#include "sink_wakeup.h"

struct file_pass {
	struct replay rp;		/* the source */
	struct sinks sinks;		/* in the order they are fed */
	struct timeline_sink tl;	/* with a timeline: first, every event */
	struct wakeup_sink wk;		/* the scheduler's results */
	struct cacheline_sink cl;	/* the memory samples' */
	struct stacks_sink stk;		/* with stacks_on (set before file_pass_run): waker,
					 * blocked and off-wake stacks (the file's callchains) */
	bool stacks_on;
	/* set before file_pass_run: the results of the whole file, whatever the window (an
	 * analyzer of the window beside it judges the timeline's flows) */
	bool whole_results;
	struct wakeup_sink whole;
	bool cl_on, timeline, two;
	/* set before file_pass_run: who delayed the wakee, beside the wakeup analyzer */
	bool blame;
	struct blame_sink bl;
};

/* Open o's file (o is read again by file_pass_run). 0, or -1 with why in err. */
int file_pass_open(struct file_pass *fp, const struct replay_opts *o, char *err, size_t len);
/*
 * The sinks, from o as it is now (the caller may have set its tasks from the file's
 * header), and a timeline beside them when tl is not NULL; then every record. 0, or -1
 * with why in err (a timeline keeps what was read before).
 */
int file_pass_run(struct file_pass *fp, const struct timeline_sink_cfg *tl, char *err, size_t len);
/* After file_pass_open: follow the file's workload (locus record's, with the processes its
 * -p added) in o, as locus run reports; nothing when the file names none. */
void file_pass_follow_workload(struct file_pass *fp, struct replay_opts *o);
/* What a pass feeds besides the wakeup and cacheline analyzers, and whose tasks. */
struct file_pass_asks {
	bool follow;		/* the file's workload, as locus run reports (file_pass_follow_workload) */
	bool stacks;		/* the stacks sink */
	bool stacks_if_recorded; /* it too when the file has callchains */
	bool blame;		/* who delayed the wakee */
	bool whole_results;	/* the whole file's results beside the window's */
};
/*
 * file_pass_open, what a asks, then file_pass_run (with the timeline tl, or NULL); the
 * progress line (o->progress) cleared. 0, or -1 with why in err.
 */
int file_pass_read(struct file_pass *fp, struct replay_opts *o, const struct file_pass_asks *a,
		   const struct timeline_sink_cfg *tl, char *err, size_t len);
/* The scheduler's results (after file_pass_run): of the window, or, with whole_results,
 * of the whole file. */
struct sched_results *file_pass_results(struct file_pass *fp);
/* Who delayed the wakee (after file_pass_run with blame set), or NULL. */
const struct blame_results *file_pass_blame(const struct file_pass *fp);
/*
 * After file_pass_run: what the report says of the file into in (pointing into fp: valid
 * while it is), the schedstat snapshots' difference computed, the pictures' caption. file_input_release frees it.
 */
void file_pass_input(struct file_pass *fp, struct file_input *in);
void file_input_release(struct file_input *in);
void file_pass_release(struct file_pass *fp);
/* A replay_opts progress callback: how much of f was read, on stderr's last line. */
void file_pass_progress(const struct pd_file *f, void *ctx);
/* After file_pass_run: whether the file held anything a report reads (sched events, memory
 * samples, schedstat records). */
bool file_pass_found(const struct file_pass *fp);
/* After file_pass_run: what the pass says on stderr of the file at path: its reordering
 * (-v), the topology's origin (unless quiet), a file with nothing to report. */
void file_pass_notes(const struct file_pass *fp, const char *path, bool quiet);

#endif
