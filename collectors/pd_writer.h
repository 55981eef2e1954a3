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

struct pd_writer {
	int fd;
	char path[4096];
	const struct pd_writer_event *evs;
	int nevs;
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

/* Create path and write the attribute table. Returns 0 or -errno. */
int pd_writer_open(struct pd_writer *w, const char *path, const struct pd_writer_event *evs,
		   int nevs);
/* Append one whole record to the data section. Returns 0 or -errno (first failure kept). */
int pd_writer_add(struct pd_writer *w, const void *rec, size_t len);

struct pd_writer_meta {
	const uint8_t *tracing_data;
	size_t tracing_len;
	const struct topology *topo;
	const char *cmdline;	/* the locus command line */
};

/*
 * Write the feature sections and the final header, close the file. After a
 * failed write the header still describes the whole records written before
 * it, so the file stays readable. Returns 0 or -errno of the first failure.
 */
int pd_writer_finish(struct pd_writer *w, const struct pd_writer_meta *meta);

#endif
