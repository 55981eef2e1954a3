/* sink_writer.c - the perf.data writer behind the sink interface (sink_writer.h). */
#include "sink_writer.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "source.h"

static void wr_consume(struct sink *k, const struct event *e)
{
	(void)k;
	(void)e; /* types 0: it takes whole records, never events */
}

static int wr_raw_open(struct sink *k, const struct sink_raw *r, char *err, size_t len)
{
	struct writer_sink *w = (struct writer_sink *)k;

	if (sched_record_open(&w->rec, r->col, r->mem ? &r->mem->plan : NULL, w->path, &w->meta,
			      err, len) < 0)
		return -1;
	w->col = r->col;
	w->open = true;
	return 0;
}

/* One record of the rings, as the stream reads it, with the file's id of its event. */
static void wr_record(struct sink *k, const void *rec, bool mem, int mem_idx)
{
	struct writer_sink *w = (struct writer_sink *)k;

	if (mem)
		sched_record_mem(&w->rec, rec, mem_idx);
	else
		sched_record_sched(&w->rec, w->col, rec);
}

static void wr_derived(struct sink *k, const struct event *e)
{
	if (e->type == EV_AFFINITY) /* the mask a task started with, or a call set */
		sched_record_affinity(&((struct writer_sink *)k)->rec, e);
}

static void wr_round(struct sink *k)
{
	sched_record_round(&((struct writer_sink *)k)->rec);
}

static void wr_finish(struct sink *k)
{
	struct writer_sink *w = (struct writer_sink *)k;

	if (w->open)
		sched_record_finish(&w->rec);
}

static void wr_release(struct sink *k)
{
	(void)k; /* sched_record_finish closed the file */
}

static const struct sink_ops writer_sink_ops = {
	.name = "recording",
	.every_event = true,
	.consume = wr_consume,
	.finish = wr_finish,
	.release = wr_release,
	.raw_open = wr_raw_open,
	.record = wr_record,
	.derived = wr_derived,
	.round = wr_round,
};

void writer_sink_init(struct writer_sink *w, const char *path, const struct sched_record_meta *m)
{
	memset(w, 0, sizeof(*w));
	w->k.ops = &writer_sink_ops;
	w->path = path;
	w->meta = *m;
}

int writer_sink_add(struct writer_sink *w, const uint8_t *recs, size_t len)
{
	return w->open ? sched_record_add(&w->rec, recs, len) : -EBADF;
}

int writer_sink_error(const struct writer_sink *w)
{
	return w->rec.write_err;
}

uint64_t writer_sink_records(const struct writer_sink *w)
{
	return w->rec.w.records_on_disk;
}

uint64_t writer_sink_bytes(const struct writer_sink *w)
{
	return w->rec.w.data_size;
}

uint64_t writer_sink_mem_samples(const struct writer_sink *w)
{
	return w->rec.mem_samples;
}

int writer_sink_summary(const struct writer_sink *w, const struct source *src, bool quiet)
{
	char size[32], n[32], lost[32];
	struct stat st;

	if (writer_sink_error(w)) {
		locus_err("%s: %s: the file holds the %s whole records written before it (locus "
			  "report reads them)", w->path, strerror(-writer_sink_error(w)),
			  fmt_count(writer_sink_records(w), n, sizeof(n)));
		return -1;
	}
	if (quiet)
		return 0;
	/* as locus report counts them: samples, their records' bytes, the file beside */
	fprintf(stderr, "[ locus record: wrote %s events (%s of records, %s lost) to %s",
		fmt_count(src->events, n, sizeof(n)), fmt_bytes(writer_sink_bytes(w), size, sizeof(size)),
		fmt_count(src->lost, lost, sizeof(lost)), w->path);
	if (stat(w->path, &st) == 0)
		fprintf(stderr, " (%s with its formats and symbols)",
			fmt_bytes((uint64_t)st.st_size, size, sizeof(size)));
	fprintf(stderr, " ]\n");
	if (src->keep_pages)
		fprintf(stderr, "[ locus record: records were lost: -m %d would have kept them (the "
			"ring plus twice its largest overflow) ]\n", src->keep_pages);
	if (src->mem_why[0])
		fprintf(stderr, "[ locus record: no memory samples: %s ]\n", src->mem_why);
	else
		fprintf(stderr, "[ locus record: %s memory samples among them ]\n",
			fmt_count(writer_sink_mem_samples(w), n, sizeof(n)));
	return 0;
}
