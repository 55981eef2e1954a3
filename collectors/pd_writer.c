/* pd_writer.c - perf.data writer: attributes, buffered data, features, header last. */
#define _FILE_OFFSET_BITS 64
#include "pd_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../common/bytebuf.h"
#include "../common/util.h"
#include "perfdata.h"
#include "topology.h"

#define BUF_SIZE (256u << 10)
#define NAME_ALIGN 64

static int write_all(struct pd_writer *w, const void *p, size_t n)
{
	const uint8_t *b = p;

	w->last_written = 0;
	while (n) {
		ssize_t r = write(w->fd, b, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			w->failed = true;
			w->err = r < 0 ? errno : EIO;
			return -w->err;
		}
		b += r;
		n -= (size_t)r;
		w->last_written += (size_t)r;
	}
	return 0;
}

/* A ballast file beside the output: on a full disk, deleting it makes room for the metadata. */
#define RESERVE_SIZE (256u << 10)

static void make_reserve(struct pd_writer *w)
{
	int fd;

	snprintf(w->reserve, sizeof(w->reserve), "%s.reserve", w->path);
	fd = open(w->reserve, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || posix_fallocate(fd, 0, RESERVE_SIZE) != 0) {
		if (fd >= 0)
			unlink(w->reserve);
		w->reserve[0] = '\0'; /* no room even for that: go without */
	}
	if (fd >= 0)
		close(fd);
}

static void drop_reserve(struct pd_writer *w)
{
	if (w->reserve[0])
		unlink(w->reserve);
	w->reserve[0] = '\0';
}

static int pwrite_all(struct pd_writer *w, const void *p, size_t n, uint64_t off)
{
	if (lseek(w->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	return write_all(w, p, n);
}

static int flush(struct pd_writer *w)
{
	if (w->buf_len && !w->failed) {
		if (write_all(w, w->buf, w->buf_len) == 0) {
			w->data_size += w->buf_len;
			w->records_on_disk += w->buf_records;
		} else {
			/* a short write: the data section ends at the last whole record written */
			size_t pos = 0;

			while (pos + sizeof(struct perf_event_header) <= w->last_written) {
				const struct perf_event_header *h = (const void *)(w->buf + pos);

				if (!h->size || pos + h->size > w->last_written)
					break;
				pos += h->size;
				w->records_on_disk++;
			}
			w->data_size += pos;
		}
	}
	w->buf_len = 0;
	w->buf_records = 0;
	return w->failed ? -w->err : 0;
}

int pd_writer_add(struct pd_writer *w, const void *rec, size_t len)
{
	if (w->failed) {
		w->refused++;
		return -w->err;
	}
	if (w->buf_len + len > BUF_SIZE && flush(w) < 0)
		return -w->err;
	memcpy(w->buf + w->buf_len, rec, len);
	w->buf_len += len;
	w->records++;
	w->buf_records++;
	return 0;
}

/* perf_header_string: u32 length padded to 64, NUL-padded text */
static void fstr(struct bytebuf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	uint8_t zero[NAME_ALIGN] = { 0 };

	bytebuf_u32(b, (uint32_t)padded);
	bytebuf_put(b, s, n);
	bytebuf_put(b, zero, padded - n);
}

/* CPUs of the topology whose key(cpu) == key, as a list string. */
static void group_list(const struct topology *t, int which, int key, char *buf, size_t len)
{
	int *cpus = xcalloc((size_t)t->ncpus, sizeof(int)), n = 0;

	for (int c = 0; c < t->ncpus; c++) {
		const struct cpu_topo *ct = &t->cpu[c];
		int k = which == 0 ? ct->package : which == 1 ? ct->core : which == 2 ? ct->node : ct->llc;

		if (ct->present && k == key)
			cpus[n++] = c;
	}
	fmt_cpu_list(cpus, n, buf, len);
	free(cpus);
}

/* Distinct keys in CPU order. */
static int keys(const struct topology *t, int which, int *out)
{
	int n = 0;

	for (int c = 0; c < t->ncpus; c++) {
		const struct cpu_topo *ct = &t->cpu[c];
		int k = which == 0 ? ct->package : which == 1 ? ct->core : which == 2 ? ct->node : ct->llc;
		bool seen = false;

		if (!ct->present)
			continue;
		for (int i = 0; i < n && !seen; i++)
			seen = out[i] == k;
		if (!seen)
			out[n++] = k;
	}
	return n;
}

static void cpu_topology(struct bytebuf *b, const struct topology *t)
{
	int *k = xcalloc((size_t)t->ncpus + 1, sizeof(int)), n;
	char list[16384];

	n = keys(t, 0, k);
	bytebuf_u32(b, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		group_list(t, 0, k[i], list, sizeof(list));
		fstr(b, list);
	}
	n = keys(t, 1, k);
	bytebuf_u32(b, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		group_list(t, 1, k[i], list, sizeof(list));
		fstr(b, list);
	}
	for (int c = 0; c < t->ncpus; c++) {
		bytebuf_u32(b, (uint32_t)t->cpu[c].core);
		bytebuf_u32(b, (uint32_t)t->cpu[c].package);
	}
	n = keys(t, 0, k); /* one die per package */
	bytebuf_u32(b, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		group_list(t, 0, k[i], list, sizeof(list));
		fstr(b, list);
	}
	for (int c = 0; c < t->ncpus; c++)
		bytebuf_u32(b, (uint32_t)t->cpu[c].die);
	free(k);
}

static void numa_topology(struct bytebuf *b, const struct topology *t)
{
	int *k = xcalloc((size_t)t->ncpus + 1, sizeof(int)), n = keys(t, 2, k);
	char list[16384];

	bytebuf_u32(b, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		bytebuf_u32(b, (uint32_t)k[i]);
		bytebuf_u64(b, 0); /* memory sizes: not recorded */
		bytebuf_u64(b, 0);
		group_list(t, 2, k[i], list, sizeof(list));
		fstr(b, list);
	}
	free(k);
}

static void cache(struct bytebuf *b, const struct topology *t)
{
	int *k = xcalloc((size_t)t->ncpus + 1, sizeof(int)), n = keys(t, 3, k);
	char list[16384];

	bytebuf_u32(b, 1);
	bytebuf_u32(b, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		bytebuf_u32(b, (uint32_t)t->llc_level);
		bytebuf_u32(b, 64);
		bytebuf_u32(b, 0);
		bytebuf_u32(b, 0);
		fstr(b, "Unified");
		fstr(b, "0K");
		group_list(t, 3, k[i], list, sizeof(list));
		fstr(b, list);
	}
	free(k);
}

static void event_desc(struct bytebuf *b, const struct pd_writer *w)
{
	bytebuf_u32(b, (uint32_t)w->nevs);
	bytebuf_u32(b, sizeof(struct perf_event_attr));
	for (int i = 0; i < w->nevs; i++) {
		struct perf_event_attr a = w->evs[i].attr;

		a.size = sizeof(a);
		bytebuf_put(b, &a, sizeof(a));
		bytebuf_u32(b, 1);
		fstr(b, w->evs[i].name);
		bytebuf_u64(b, w->evs[i].id);
	}
}

/* Build the payload of one feature; false when it is not written. */
static bool feature(struct bytebuf *b, int feat, const struct pd_writer *w,
		    const struct pd_writer_meta *m)
{
	const struct topology *t = m->topo;
	struct utsname u;

	uname(&u);
	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		if (!m->tracing_data)
			return false;
		bytebuf_put(b, m->tracing_data, m->tracing_len);
		return true;
	case PD_FEAT_HOSTNAME:
		fstr(b, u.nodename);
		return true;
	case PD_FEAT_OSRELEASE:
		fstr(b, u.release);
		return true;
	case PD_FEAT_ARCH:
		fstr(b, u.machine);
		return true;
	case PD_FEAT_NRCPUS:
		if (!t)
			return false;
		bytebuf_u32(b, (uint32_t)t->ncpus);
		bytebuf_u32(b, (uint32_t)t->nonline);
		return true;
	case PD_FEAT_CMDLINE:
		bytebuf_u32(b, 1);
		fstr(b, m->cmdline ? m->cmdline : "locus");
		return true;
	case PD_FEAT_EVENT_DESC:
		event_desc(b, w);
		return true;
	case PD_FEAT_CPU_TOPOLOGY:
		if (!t)
			return false;
		cpu_topology(b, t);
		return true;
	case PD_FEAT_NUMA_TOPOLOGY:
		if (!t)
			return false;
		numa_topology(b, t);
		return true;
	case PD_FEAT_CACHE:
		if (!t || !t->llc_known)
			return false;
		cache(b, t);
		return true;
	}
	return false;
}

/*
 * The file is a pipe-mode stream until pd_writer_finish makes it a perf.data file
 * with its header: perf 6.1 reads no file-mode file whose data size is 0, nor one
 * whose tracepoint formats are missing from its header, but it reads a stream up to
 * its last whole record, and so does locus report. The stream's first record (one
 * perf ignores, HEADER_EVENT_TYPE) holds the room the final header takes, the
 * marker that says the recording has not finished, then the ids and the attribute
 * table of the final header; the attributes, the tracepoint formats and the
 * features follow as pipe-mode records, the file header's feature sections point
 * into them. So the file is whole up to its last flush at any moment.
 */
static int put_record(struct pd_writer *w, uint32_t type, const void *body, size_t len,
		      size_t pad_to)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + len + pad_to) };
	uint8_t zero[8] = { 0 };

	if (write_all(w, &h, sizeof(h)) < 0 || write_all(w, body, len) < 0 ||
	    write_all(w, zero, pad_to) < 0)
		return -w->err;
	w->at += h.size;
	return 0;
}

/* The first record: the header's room (the marker meanwhile), ids, the attribute table. */
static int lead_record(struct pd_writer *w)
{
	struct bytebuf b = { 0 };
	char mark[PD_HEADER_SIZE - PD_PIPE_HEADER_SIZE - 8] = { 0 };
	int rc;

	snprintf(mark, sizeof(mark), "%s", PD_UNFINISHED_MARK);
	bytebuf_put(&b, mark, sizeof(mark));
	for (int i = 0; i < w->nevs; i++)
		bytebuf_u64(&b, w->evs[i].id);
	for (int i = 0; i < w->nevs; i++) {
		struct perf_event_attr a = w->evs[i].attr;

		a.size = sizeof(a);
		bytebuf_put(&b, &a, sizeof(a));
		bytebuf_u64(&b, PD_HEADER_SIZE + (uint64_t)i * 8); /* its id */
		bytebuf_u64(&b, 8);
	}
	rc = b.len + 8 > 0xffff ? -E2BIG : put_record(w, PD_REC_HEADER_EVENT_TYPE, b.p, b.len, 0);
	free(b.p);
	return rc;
}

/* Attributes as pipe-mode records: perf script of the stream names the events by them. */
static int attr_records(struct pd_writer *w)
{
	for (int i = 0; i < w->nevs; i++) {
		uint8_t rec[sizeof(struct perf_event_attr) + 8];
		struct perf_event_attr a = w->evs[i].attr;

		a.size = sizeof(a);
		memcpy(rec, &a, sizeof(a));
		memcpy(rec + sizeof(a), &w->evs[i].id, 8);
		if (put_record(w, PD_REC_HEADER_ATTR, rec, sizeof(rec), 0) < 0)
			return -w->err;
	}
	return 0;
}

/* HEADER_TRACING_DATA: 12 bytes, the formats padded to 8, a 12-byte record perf ignores. */
static int tracing_record(struct pd_writer *w, const uint8_t *td, size_t len)
{
	uint32_t aligned = (uint32_t)((len + 7) & ~(size_t)7);
	struct {
		struct perf_event_header h;
		uint32_t size;
	} __attribute__((packed)) rec = { { PD_REC_HEADER_TRACING_DATA, 0, 12 }, aligned };
	uint8_t zero[8] = { 0 };

	if (write_all(w, &rec, sizeof(rec)) < 0 || write_all(w, td, len) < 0 ||
	    write_all(w, zero, aligned - len) < 0)
		return -w->err;
	w->feat_off[w->nfeat] = w->at + sizeof(rec);
	w->feat_len[w->nfeat] = len;
	w->feat_id[w->nfeat++] = PD_FEAT_TRACING_DATA;
	w->at += sizeof(rec) + aligned;
	/* back to 8-byte alignment: records are read in place from the file's pages */
	return put_record(w, PD_REC_HEADER_EVENT_TYPE, zero, 4, 0);
}

int pd_writer_open(struct pd_writer *w, const char *path, const struct pd_writer_event *evs,
		   int nevs, const struct pd_writer_meta *meta)
{
	static const int feats[] = { PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_ARCH,
				     PD_FEAT_NRCPUS, PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC,
				     PD_FEAT_CPU_TOPOLOGY, PD_FEAT_NUMA_TOPOLOGY, PD_FEAT_CACHE };
	const uint64_t pipe[2] = { PD_MAGIC, PD_PIPE_HEADER_SIZE };

	memset(w, 0, sizeof(*w));
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->evs = evs;
	w->nevs = nevs;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0)
		return -errno;
	w->buf = xmalloc(BUF_SIZE);
	make_reserve(w);
	if (write_all(w, pipe, sizeof(pipe)) < 0)
		return -w->err;
	w->at = sizeof(pipe);
	if (lead_record(w) < 0 || attr_records(w) < 0)
		return -w->err;
	if (meta->tracing_data && tracing_record(w, meta->tracing_data, meta->tracing_len) < 0)
		return -w->err;
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		struct bytebuf b = { 0 };
		uint64_t id = (uint64_t)feats[i];
		size_t pad;
		int rc = 0;

		bytebuf_u64(&b, id);
		if (feature(&b, feats[i], w, meta) && b.len + 8 + 7 <= 0xffff) {
			pad = (8 - b.len % 8) % 8;
			w->feat_off[w->nfeat] = w->at + 16;
			w->feat_len[w->nfeat] = b.len - 8;
			w->feat_id[w->nfeat++] = feats[i];
			rc = put_record(w, PD_REC_HEADER_FEATURE, b.p, b.len, pad);
		}
		free(b.p); /* a feature too large for a record: the file goes without it */
		if (rc < 0)
			return rc;
	}
	w->data_off = w->at;
	return 0;
}

int pd_writer_sync(struct pd_writer *w)
{
	return flush(w);
}

int pd_writer_affinity(struct pd_writer *w, uint64_t t, int32_t tid, const uint64_t *mask,
		       int nwords)
{
	uint8_t rec[8 + PD_AFFINITY_HEAD + 8 * PD_AFFINITY_MAX_WORDS];
	uint32_t head[2] = { 1, (uint32_t)nwords }, flags = mask ? 0 : PD_AFFINITY_GONE;
	size_t size = 8 + PD_AFFINITY_HEAD + (mask ? (size_t)nwords * 8 : 0);
	struct perf_event_header h = { PD_REC_HEADER_EVENT_TYPE, 0, (uint16_t)size };

	if (nwords < 1 || nwords > PD_AFFINITY_MAX_WORDS)
		return -E2BIG;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, PD_AFFINITY_MAGIC, 16);
	memcpy(rec + 24, head, 8);
	memcpy(rec + 32, &t, 8);
	memcpy(rec + 40, &tid, 4);
	memcpy(rec + 44, &flags, 4);
	if (mask)
		memcpy(rec + 48, mask, (size_t)nwords * 8);
	return pd_writer_add(w, rec, size);
}

/* The note of a recording whose end is missing (PD_FEAT_LOCUS_END): why, and how much. */
static void end_note(struct bytebuf *b, const struct pd_writer *w, int err)
{
	bytebuf_u32(b, 1); /* version */
	bytebuf_u32(b, (uint32_t)err);
	bytebuf_u64(b, w->records_on_disk);
	bytebuf_u64(b, w->records - w->records_on_disk + w->refused);
}

int pd_writer_finish(struct pd_writer *w)
{
	struct bytebuf tail = { 0 }, note = { 0 };
	uint64_t bits[4] = { 0 }, h[PD_HEADER_SIZE / 8] = { 0 }, off;
	int first_err, nfeat = w->nfeat;

	flush(w);
	first_err = w->failed ? -w->err : 0;
	drop_reserve(w); /* its space now holds the metadata */
	if (first_err && ftruncate(w->fd, (off_t)(w->data_off + w->data_size)) < 0)
		first_err = first_err ? first_err : -errno; /* features go after the last record */
	if (first_err) { /* the end is missing, and the file says so */
		end_note(&note, w, -first_err);
		w->feat_id[nfeat++] = PD_FEAT_LOCUS_END;
	}
	/* features after the data: a section table, then what the stream did not hold */
	off = w->data_off + w->data_size + (uint64_t)nfeat * 16;
	for (int i = 0; i < nfeat; i++) {
		bool late = w->feat_id[i] == PD_FEAT_LOCUS_END;

		bytebuf_u64(&tail, late ? off : w->feat_off[i]);
		bytebuf_u64(&tail, late ? note.len : w->feat_len[i]);
		bits[w->feat_id[i] / 64] |= 1ull << (w->feat_id[i] % 64);
	}
	if (note.len)
		bytebuf_put(&tail, note.p, note.len);
	w->failed = false; /* features may still fit where a data buffer did not */
	if (pwrite_all(w, tail.p, tail.len, w->data_off + w->data_size) < 0) {
		/* no room even for the note: the file stays the stream, which reads as one
		 * whose end is missing (a header would call it whole) */
		if (!first_err)
			first_err = -w->err;
		if (ftruncate(w->fd, (off_t)(w->data_off + w->data_size)) < 0)
			first_err = first_err ? first_err : -errno;
		goto out;
	}
	memcpy(h, "PERFILE2", 8);
	h[1] = PD_HEADER_SIZE;
	h[2] = sizeof(struct perf_event_attr) + 16;
	h[3] = PD_HEADER_SIZE + (uint64_t)w->nevs * 8;
	h[4] = (uint64_t)w->nevs * (sizeof(struct perf_event_attr) + 16);
	h[5] = w->data_off;
	h[6] = w->data_size;
	memcpy(h + 9, bits, sizeof(bits));
	w->failed = false;
	/* the last write: until it lands the file is the stream, readable as one */
	if (pwrite_all(w, h, sizeof(h), 0) < 0 && !first_err)
		first_err = -w->err;
out:
	free(tail.p);
	free(note.p);
	if (close(w->fd) < 0 && !first_err)
		first_err = -errno;
	w->fd = -1;
	free(w->buf);
	w->buf = NULL;
	return first_err;
}
