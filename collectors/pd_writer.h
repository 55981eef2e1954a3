/* pd_writer.h - write a perf.data file that perf script and perf report read. */
#ifndef LOCUS_PD_WRITER_H
#define LOCUS_PD_WRITER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct topology;

struct pd_writer_event {
	struct perf_event_attr attr;
	uint64_t id;		/* the sample id its records carry (PERF_SAMPLE_IDENTIFIER) */
	const char *name;	/* "sched:sched_switch" */
};

#define PD_WRITER_FEATS 16

struct pd_writer {
	int fd;
	char path[4096];
	const struct pd_writer_event *evs;
	int nevs;
	uint64_t at;			/* the stream's length while the header is written */
	int nfeat;			/* features in the stream's records, in id order */
	int feat_id[PD_WRITER_FEATS];
	uint64_t feat_off[PD_WRITER_FEATS], feat_len[PD_WRITER_FEATS];
	uint64_t refused;		/* records not written after a write failed */
	uint64_t data_off, data_size;	/* data_size counts whole records only */
	uint8_t *buf;
	size_t buf_len;
	uint64_t records;		/* added */
	uint64_t records_on_disk;	/* whole records in the data section */
	uint64_t buf_records;		/* records in buf */
	size_t last_written;		/* bytes the last write_all wrote before it failed */
	char reserve[4200];		/* ballast file freed for the metadata on a full disk */
	bool failed;			/* a write failed: nothing more is written */
	int err;			/* its errno */
};

struct pd_writer_meta {
	const uint8_t *tracing_data;
	size_t tracing_len;
	const struct topology *topo;
	const char *cmdline;	/* the locus command line */
};

/*
 * Create path and write what perf needs before the first record: the attributes,
 * the tracepoint formats and the features of meta (copied: meta may go after).
 * Until pd_writer_finish the file is a pipe-mode stream that perf script and
 * locus report read up to its last whole record (a recording killed with -9, or
 * on a machine that crashed, keeps everything flushed). Returns 0 or -errno.
 */
int pd_writer_open(struct pd_writer *w, const char *path, const struct pd_writer_event *evs,
		   int nevs, const struct pd_writer_meta *meta);
/* Append one whole record to the data section. Returns 0 or -errno (first failure kept). */
int pd_writer_add(struct pd_writer *w, const void *rec, size_t len);
/* Write what is buffered: the file holds every record added so far. 0 or -errno. */
int pd_writer_sync(struct pd_writer *w);
/*
 * A task's affinity (perfdata.h's record): tid may run on the CPUs of mask (nwords words;
 * NULL: it was gone when asked) from time t (0: since before the recording). 0, -E2BIG
 * beyond PD_AFFINITY_MAX_WORDS, or -errno.
 */
int pd_writer_affinity(struct pd_writer *w, uint64_t t, int32_t tid, const uint64_t *mask,
		       int nwords);

/*
 * Write the feature table and the file header, close the file. After a failed
 * write (a full disk) the header describes the whole records written before
 * it and a note of the file's own (PD_FEAT_LOCUS_END, which perf ignores) says
 * that the end is missing and why. Returns 0 or -errno of the first failure.
 */
int pd_writer_finish(struct pd_writer *w);

#endif
