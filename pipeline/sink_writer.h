/*
 * sink_writer.h - the perf.data writer as a sink (sink.h): a live stream's records
 * into a file as they are (collectors/sched_record.h), read by locus report and perf.
 * It takes whole records, as the stream reads them from its rings (the stream decodes the
 * same records into events for the sinks beside it), and needs every one: BPF is refused.
 */
#ifndef LOCUS_SINK_WRITER_H
#define LOCUS_SINK_WRITER_H

#include "../collectors/sched_record.h"
#include "sink.h"

struct writer_sink {
	struct sink k;		/* first: the interface */
	const char *path;
	struct sched_record_meta meta;
	bool open;		/* rec's file was created */
	struct sched_record rec;
	const struct sched_collector *col;	/* whose rings' records it takes */
};

void writer_sink_init(struct writer_sink *w, const char *path, const struct sched_record_meta *m);
/* Whole records (schedstat snapshots) into the file while no reader runs. 0 or -errno. */
int writer_sink_add(struct writer_sink *w, const uint8_t *recs, size_t len);
/* What was written: the first write error (-errno, 0: none), whole records, their bytes,
 * memory samples among them. */
int writer_sink_error(const struct writer_sink *w);
uint64_t writer_sink_records(const struct writer_sink *w);
uint64_t writer_sink_bytes(const struct writer_sink *w);
uint64_t writer_sink_mem_samples(const struct writer_sink *w);
struct source;
/*
 * What w wrote of src's stream, on stderr: the events, their bytes, what the kernel lost
 * (and the -m that would have kept it), the memory samples or why none were taken; none
 * of it when quiet. A write error instead, said even when quiet, and -1; else 0.
 */
int writer_sink_summary(const struct writer_sink *w, const struct source *src, bool quiet);

#endif
