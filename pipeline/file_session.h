/*
 * file_session.h - a report's session over a perf.data file: the file source (replay.h) and
 * the sinks the command asks for (sink_plan.h), fed in one pass: the wakeup analyzer, the
 * cacheline analyzer, who delayed the wakee, the stacks, and for --trace/--svg-timeline the
 * timeline beside them.
 */
#ifndef LOCUS_FILE_SESSION_H
#define LOCUS_FILE_SESSION_H

#include "../model/caption.h"
#include "../model/file_input.h"
#include "replay.h"
#include "sink_plan.h"

struct file_session {
	struct replay rp;		/* the source */
	struct sink_plan plan;		/* its sinks, as the report asks (sink_plan_file) */
};

/* Open o's file (o is read again by file_session_run). 0, or -1 with why in err. */
int file_session_open(struct file_session *fp, const struct replay_opts *o, char *err,
		      size_t len);
/*
 * The sinks a asks for, from o as it is now (the caller may have set its tasks from the
 * file's header), and a timeline beside them when tl is not NULL; then every record. 0, or
 * -1 with why in err (a timeline keeps what was read before).
 */
int file_session_run(struct file_session *fp, const struct file_session_asks *a,
		     const struct timeline_sink_cfg *tl, char *err, size_t len);
/* After file_session_open: follow the file's workload (locus record's, with the processes
 * its -p added) in o, as locus run reports; nothing when the file names none. */
void file_session_follow_workload(struct file_session *fp, struct replay_opts *o);
/*
 * file_session_open, what a asks, then file_session_run (with the timeline tl, or NULL);
 * the progress line (o->progress) cleared. 0, or -1 with why in err.
 */
int file_session_read(struct file_session *fp, struct replay_opts *o,
		      const struct file_session_asks *a, const struct timeline_sink_cfg *tl,
		      char *err, size_t len);
/* The scheduler's results (after file_session_run): of the window, or, with whole_results,
 * of the whole file. */
struct sched_results *file_session_results(struct file_session *fp);
/* Who delayed the wakee (after file_session_run with blame asked), or NULL. */
const struct blame_results *file_session_blame(const struct file_session *fp);
/* The memory samples' cachelines (after file_session_run). */
const struct cacheline *file_session_cachelines(struct file_session *fp);
/* The stacks (after file_session_run with them asked, or the file's callchains), or NULL;
 * their table and names in the file_input (file_session_input). */
const struct stacks *file_session_stacks(struct file_session *fp);
/* What the timeline fed in the pass is written with (after file_session_run with one): its
 * items' analyzer, the heads' figures (the whole file's results, its sched events, the
 * bytes read) and, with cap_path, the caption of the file's header. 0, or -1 when the file
 * holds no sched event (no timeline to write). */
int file_session_timeline(struct file_session *fp, const char *cap_path,
			  struct pass_timeline *t);
/*
 * After file_session_run: what the report says of the file into in (pointing into fp:
 * valid while it is), the schedstat snapshots' difference computed, the pictures' caption.
 * file_input_release frees it.
 */
void file_session_input(struct file_session *fp, struct file_input *in);
void file_input_release(struct file_input *in);
void file_session_release(struct file_session *fp);
/* A replay_opts progress callback: how much of f was read, on stderr's last line. */
void file_session_progress(const struct pd_file *f, void *ctx);
/* After file_session_run: whether the file held anything a report reads (sched events,
 * memory samples, schedstat records). */
bool file_session_found(const struct file_session *fp);
/* After file_session_run: what the pass says on stderr of the file at path: its reordering
 * (-v), the topology's origin (unless quiet), a file with nothing to report. */
void file_session_notes(const struct file_session *fp, const char *path, bool quiet);

#endif
