/* perfdata.c - perf.data reader: header, attributes, feature table and the record stream. */
#define _FILE_OFFSET_BITS 64
#include "perfdata.h"

#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "../common/util.h"

#define PERF_MAGIC2 PD_MAGIC
#define HEADER_SIZE PD_HEADER_SIZE
#define PIPE_HEADER_SIZE PD_PIPE_HEADER_SIZE
#define MAX_ATTRS 4096
#define MAX_IDS (1u << 20)
#define MAX_FEATURE (256u << 20)
#define MAX_TRACING_DATA (64u << 20)
#define MAX_DATA_SIZE (1ull << 40)

struct file_section {
	uint64_t offset, size;
};

static int bad(struct pd_file *f, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct pd_file *f, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	char what[240];

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(f->err, sizeof(f->err), "%s at offset %llu", what, (unsigned long long)off);
	return -1;
}

bool pd_has_feature(const struct pd_file *f, int feat)
{
	return feat > 0 && feat < PD_FEAT_BITS && (f->feat[feat / 64] >> (feat % 64)) & 1;
}

static int read_at(struct pd_file *f, uint64_t off, void *buf, size_t n)
{
	if (!f->pipe && fseeko(f->fp, (off_t)off, SEEK_SET) < 0)
		return bad(f, off, "cannot seek: %s", strerror(errno));
	if (fread(buf, 1, n, f->fp) != n)
		return bad(f, off, ferror(f->fp) ? "read error" : "file truncated");
	return 0;
}

/*
 * Add one attribute with its ids. The attr bytes are zero-extended or cut to
 * ours; ids are nids 8-byte values at any alignment (a pipe's attribute
 * record whose attr.size is not a multiple of 8 leaves them unaligned).
 */
static int add_attr(struct pd_file *f, const uint8_t *attr, size_t attr_len, const void *ids,
		    uint32_t nids, uint64_t off)
{
	struct pd_attr *a;

	if (f->nattrs >= MAX_ATTRS)
		return bad(f, off, "more than %d event attributes", MAX_ATTRS);
	if (attr_len < PERF_ATTR_SIZE_VER0)
		return bad(f, off, "event attribute too small (%zu bytes)", attr_len);
	f->attrs = xrealloc(f->attrs, (size_t)(f->nattrs + 1) * sizeof(*f->attrs));
	a = &f->attrs[f->nattrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, attr, attr_len < sizeof(a->attr) ? attr_len : sizeof(a->attr));
	sample_layout_of(&a->layout, &a->attr);
	a->nids = nids;
	if (nids) {
		a->ids = xmalloc(nids * sizeof(uint64_t));
		memcpy(a->ids, ids, nids * sizeof(uint64_t));
	}
	for (uint32_t i = 0; i < nids; i++)
		u64map_put(&f->ids, a->ids[i], (uint32_t)f->nattrs);
	f->nattrs++;
	return 0;
}

static int read_attrs(struct pd_file *f, uint64_t attr_size, struct file_section attrs,
		      uint64_t file_size)
{
	uint64_t n;

	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return bad(f, 16, "bad attribute size %llu", (unsigned long long)attr_size);
	if (attrs.size % attr_size || attrs.offset > file_size || attrs.size > file_size - attrs.offset)
		return bad(f, 24, "bad attribute section");
	n = attrs.size / attr_size;
	if (n > MAX_ATTRS) /* none: perf sched stats record writes only SCHEDSTAT records */
		return bad(f, 24, "bad attribute count %llu", (unsigned long long)n);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off = attrs.offset + i * attr_size;
		uint8_t buf[4096];
		struct file_section ids;
		uint64_t *idv = NULL;
		int r;

		if (read_at(f, off, buf, attr_size) < 0)
			return -1;
		memcpy(&ids, buf + attr_size - 16, 16);
		if (ids.size % 8 || ids.size / 8 > MAX_IDS || ids.offset > file_size ||
		    ids.size > file_size - ids.offset)
			return bad(f, off + attr_size - 16, "bad id section");
		if (ids.size) {
			idv = xmalloc(ids.size);
			if (read_at(f, ids.offset, idv, ids.size) < 0) {
				free(idv);
				return -1;
			}
		}
		r = add_attr(f, buf, attr_size - 16, idv, (uint32_t)(ids.size / 8), off);
		free(idv);
		if (r < 0)
			return -1;
	}
	return 0;
}

static int read_features(struct pd_file *f, uint64_t file_size)
{
	uint64_t off = f->data_off + f->data_size;
	int n = 0;

	for (int feat = 1; feat < PD_FEAT_BITS; feat++) {
		struct file_section sec;
		uint8_t *buf;
		int r;

		if (!pd_has_feature(f, feat))
			continue;
		if (off + (uint64_t)n * 16 + 16 > file_size ||
		    (read_at(f, off + (uint64_t)n * 16, &sec, 16) == 0 &&
		     sec.offset <= file_size && sec.offset > off && sec.size > file_size - sec.offset)) {
			/* cut short after the data (a partial copy): the features from here on
			 * are gone; those read stay */
			f->recover = f->cut_short = f->copy_cut = true;
			f->copy_data_size = f->data_size;
			for (; feat < PD_FEAT_BITS; feat++)
				f->feat[feat / 64] &= ~(1ull << (feat % 64));
			return 0;
		}
		n++;
		if (sec.offset > file_size || sec.size > file_size - sec.offset)
			return bad(f, off + (uint64_t)(n - 1) * 16, "feature %d points outside the file",
				   feat);
		if (sec.size > MAX_FEATURE)
			return bad(f, sec.offset, "feature %d too large", feat);
		buf = xmalloc(sec.size + 1);
		if (read_at(f, sec.offset, buf, sec.size) < 0) {
			free(buf);
			return -1;
		}
		r = pd_parse_feature(f, feat, buf, sec.size, sec.offset);
		free(buf);
		if (r < 0)
			return -1;
	}
	return 0;
}

static void reserve(struct pd_file *f, size_t n)
{
	if (n > f->buf_cap) {
		f->buf_cap = n + 65536;
		f->buf = xrealloc(f->buf, f->buf_cap);
	}
}

static int stream_header(struct pd_file *f);
static int header_record(struct pd_file *f, const struct pd_record *rec);
static int tracing_record(struct pd_file *f, const struct pd_record *rec);

/*
 * A cut file's features: the table after the data is gone. locus record's files hold
 * them before the data too, as the pipe-mode records [from, to) its stream began with
 * (header attribute, tracing data and feature records); perf record's hold none there,
 * and go without (a tracepoint file then cannot be decoded, said where it is needed).
 */
static int copy_features(struct pd_file *f, uint64_t from, uint64_t to)
{
	bool first = true;

	f->pos = from;
	f->end = to;
	if (fseeko(f->fp, (off_t)from, SEEK_SET) < 0)
		return bad(f, from, "cannot seek: %s", strerror(errno));
	while (f->end - f->pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		struct pd_record rec;
		int r = 0;

		if (fread(&h, 1, sizeof(h), f->fp) != sizeof(h) || h.size < sizeof(h) ||
		    h.size > f->end - f->pos)
			break;
		if (h.type != PD_REC_HEADER_ATTR && h.type != PD_REC_HEADER_EVENT_TYPE &&
		    h.type != PD_REC_HEADER_FEATURE && h.type != PD_REC_HEADER_TRACING_DATA)
			break; /* not locus's layout: no features to be had */
		if (first) /* these replace what was read of the table */
			memset(f->feat, 0, sizeof(f->feat));
		first = false;
		reserve(f, h.size);
		memcpy(f->buf, &h, sizeof(h));
		if (fread(f->buf + sizeof(h), 1, h.size - sizeof(h), f->fp) != h.size - sizeof(h))
			break;
		rec = (struct pd_record){ h.type, h.misc, h.size, f->buf, f->pos };
		f->pos += h.size;
		if (h.type == PD_REC_HEADER_FEATURE) /* the attributes are the header's already */
			r = header_record(f, &rec);
		else if (h.type == PD_REC_HEADER_TRACING_DATA)
			r = tracing_record(f, &rec);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* A file's records read in place from a mapping of it (no copy, no call a record), where
 * it can be mapped; else read as a stream. The pages read are let go every MAP_DROP_EVERY
 * bytes (the page cache keeps them; the process's resident memory does not grow with the
 * file). */
#define MAP_DROP_EVERY (8u << 20)
static void map_data(struct pd_file *f)
{
	void *m;

	if (!f->end)
		return;
	m = mmap(NULL, (size_t)f->end, PROT_READ, MAP_PRIVATE, fileno(f->fp), 0);
	if (m == MAP_FAILED)
		return;
	madvise(m, (size_t)f->end, MADV_SEQUENTIAL);
	f->map = m;
	f->map_len = (size_t)f->end;
}

int pd_open(struct pd_file *f, const char *path)
{
	uint8_t h[HEADER_SIZE];
	uint64_t magic, size, attr_size, file_size = UINT64_MAX;
	struct file_section attrs, data;
	struct stat st;

	memset(f, 0, sizeof(*f));
	f->path = path;
	u64map_init(&f->ids);
	f->fp = strcmp(path, "-") ? fopen(path, "rbe") : stdin;
	if (!f->fp) {
		snprintf(f->err, sizeof(f->err), "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fileno(f->fp), &st) == 0 && S_ISDIR(st.st_mode))
		return bad(f, 0, "a directory, not a perf.data file");
	if (fstat(fileno(f->fp), &st) == 0 && S_ISREG(st.st_mode))
		f->file_size = file_size = (uint64_t)st.st_size;
	/* a big read buffer for big files; small files should not pay for it */
	if (file_size > (256u << 10))
		setvbuf(f->fp, NULL, _IOFBF, 1 << 20);
	errno = 0;
	if (fread(h, 1, PIPE_HEADER_SIZE, f->fp) != PIPE_HEADER_SIZE)
		return ferror(f->fp) ? bad(f, 0, "cannot read: %s", strerror(errno ? errno : EIO))
				     : bad(f, 0, "not a perf.data file (too short)");
	memcpy(&magic, h, 8);
	memcpy(&size, h + 8, 8);
	if (magic == __builtin_bswap64(PERF_MAGIC2))
		return bad(f, 0, "perf.data from a machine of the other byte order is not supported");
	if (magic != PERF_MAGIC2)
		return bad(f, 0, "not a perf.data file (bad magic)");
	if (size == PIPE_HEADER_SIZE) {
		f->pipe = true;
		f->recover = true; /* a stream ends where it was cut, as perf reads it */
		f->pos = PIPE_HEADER_SIZE;
		f->end = UINT64_MAX;
		return stream_header(f);
	}
	if (size < HEADER_SIZE || file_size == UINT64_MAX)
		return bad(f, 8, "bad header size %llu", (unsigned long long)size);
	if (fread(h + PIPE_HEADER_SIZE, 1, HEADER_SIZE - PIPE_HEADER_SIZE, f->fp) !=
	    HEADER_SIZE - PIPE_HEADER_SIZE)
		return bad(f, PIPE_HEADER_SIZE, "file truncated in its header");
	memcpy(&attr_size, h + 16, 8);
	memcpy(&attrs, h + 24, 16);
	memcpy(&data, h + 40, 16);
	memcpy(f->feat, h + 72, 32);
	/* a data size no file of records ever had (over a TiB): a header to refuse, not a cut */
	if (data.offset > file_size || data.offset < HEADER_SIZE || data.size > MAX_DATA_SIZE)
		return bad(f, 40, "data section outside the file (offset %llu, size %llu, file %llu)",
			   (unsigned long long)data.offset, (unsigned long long)data.size,
			   (unsigned long long)file_size);
	if (data.size > file_size - data.offset) {
		/* a finished file cut short (a partial copy, a full disk): its data is read
		 * to the last whole record, and the report says so */
		f->recover = f->cut_short = f->copy_cut = true;
		f->copy_data_size = data.size;
		data.size = file_size - data.offset;
	}
	f->data_off = data.offset;
	f->data_size = data.size;
	if (read_attrs(f, attr_size, attrs, file_size) < 0)
		return -1;
	if (f->copy_cut) {
		if (copy_features(f, attrs.offset + attrs.size, data.offset) < 0)
			return -1;
	} else if (!data.size && data.offset >= HEADER_SIZE && file_size > data.offset) {
		/* perf record's header before its end: the data runs to the end of the file,
		 * the features were never written (their bits are perf's plan, not content) */
		f->recover = f->cut_short = true;
		f->data_size = file_size - data.offset;
		memset(f->feat, 0, sizeof(f->feat));
	} else if (read_features(f, file_size) < 0) {
		return -1;
	} else if (f->copy_cut && copy_features(f, attrs.offset + attrs.size, data.offset) < 0) {
		return -1; /* the table cut short: locus's features are before the data too */
	}
	f->pos = f->data_off;
	f->end = f->data_off + f->data_size;
	if (fseeko(f->fp, (off_t)f->pos, SEEK_SET) < 0)
		return bad(f, f->pos, "cannot seek to the data");
	map_data(f);
	return 0;
}

/* Pipe-mode records that carry the header's content. */
static int header_record(struct pd_file *f, const struct pd_record *rec)
{
	const uint8_t *p = rec->data + 8;
	size_t len = rec->size - 8u;

	if (rec->type == PD_REC_HEADER_ATTR) {
		uint32_t asize;

		if (len < PERF_ATTR_SIZE_VER0)
			return bad(f, rec->offset, "attribute record too short");
		memcpy(&asize, p + 4, 4); /* perf_event_attr.size */
		if (asize < PERF_ATTR_SIZE_VER0 || asize > len || (len - asize) % 8)
			return bad(f, rec->offset, "bad attribute record");
		return add_attr(f, p, asize, p + asize, (uint32_t)((len - asize) / 8), rec->offset);
	}
	if (rec->type == PD_REC_HEADER_FEATURE) {
		uint64_t feat;

		if (len < 8)
			return bad(f, rec->offset, "feature record too short");
		memcpy(&feat, p, 8);
		if (feat == 0 || feat >= PD_FEAT_BITS)
			return bad(f, rec->offset, "bad feature id %llu", (unsigned long long)feat);
		f->feat[feat / 64] |= 1ull << (feat % 64);
		return pd_parse_feature(f, (int)feat, p + 8, len - 8, rec->offset + 16);
	}
	return 0;
}

/* HEADER_TRACING_DATA: the formats follow the record, padded to 8 bytes. */
static int tracing_record(struct pd_file *f, const struct pd_record *rec)
{
	uint32_t size;
	size_t padded;

	if (rec->size < 12)
		return bad(f, rec->offset, "tracing data record too short");
	memcpy(&size, rec->data + 8, 4);
	padded = ((size_t)size + 7) & ~(size_t)7;
	if (size > MAX_TRACING_DATA || padded > f->end - f->pos)
		return bad(f, rec->offset, "bad tracing data size %u", size);
	free(f->tracing_data);
	f->tracing_data = xmalloc(padded ? padded : 1);
	if (f->map)
		memcpy(f->tracing_data, f->map + f->pos, padded);
	else if (fread(f->tracing_data, 1, padded, f->fp) != padded)
		return bad(f, f->pos, "file truncated inside the tracing data");
	f->tracing_len = size;
	f->pos += padded;
	f->feat[0] |= 1ull << PD_FEAT_TRACING_DATA;
	return 0;
}

/*
 * Where the data ends in a record cut short: in a file whose end may be missing,
 * the end of what can be read (0); in any other, an error. Garbage stops the data
 * only where the writer never finished (killed: the tail may be anything).
 */
static int cut(struct pd_file *f, uint64_t off, bool garbage, const char *what)
{
	if (f->recover && (!garbage || f->unfinished || !f->pipe)) {
		f->cut_short = true;
		f->cut_at = off;
		f->end = off;
		return 0;
	}
	return bad(f, off, "%s", what);
}

static int mapped_next(struct pd_file *f, struct pd_record *rec);
static int classify(struct pd_file *f, const struct pd_record *rec);

int pd_next(struct pd_file *f, struct pd_record *rec)
{
	struct perf_event_header h;
	uint64_t off = f->pos;
	size_t got;

	if (f->peeked) {
		f->peeked = false;
		*rec = f->peek;
		return 1;
	}
	if (off >= f->end)
		return 0;
	if (f->end - off < sizeof(h) && f->end != UINT64_MAX)
		return cut(f, off, false, "data section ends inside a record header");
	if (f->map)
		return mapped_next(f, rec);
	if ((got = fread_unlocked(&h, 1, sizeof(h), f->fp)) != sizeof(h)) {
		if (f->pipe && !got && feof(f->fp) && !ferror(f->fp) && !f->unfinished)
			return 0; /* a stream's end between records */
		if (ferror(f->fp))
			return bad(f, off, "read error");
		return cut(f, off, false, "file truncated inside a record header");
	}
	if (h.size < sizeof(h) || h.size > f->end - off) {
		char what[80];

		snprintf(what, sizeof(what), h.size < sizeof(h) ? "record of size %u (type %u)" :
			 "record of size %u runs past the data section", h.size, h.type);
		return cut(f, off, h.size < sizeof(h), what);
	}
	reserve(f, h.size);
	memcpy(f->buf, &h, sizeof(h));
	if (fread_unlocked(f->buf + sizeof(h), 1, h.size - sizeof(h), f->fp) != h.size - sizeof(h)) {
		if (ferror(f->fp))
			return bad(f, off, "read error");
		return cut(f, off, false, "file truncated inside a record");
	}
	f->pos += h.size;
	f->records++;
	*rec = (struct pd_record){ h.type, h.misc, h.size, f->buf, off };
	return classify(f, rec);
}

/* The next record of a mapped file, in place (its header whole before the data's end). */
static int mapped_next(struct pd_file *f, struct pd_record *rec)
{
	struct perf_event_header h;
	uint64_t off = f->pos;

	memcpy(&h, f->map + off, sizeof(h));
	if (h.size < sizeof(h) || h.size > f->end - off) {
		char what[80];

		snprintf(what, sizeof(what), h.size < sizeof(h) ? "record of size %u (type %u)" :
			 "record of size %u runs past the data section", h.size, h.type);
		return cut(f, off, h.size < sizeof(h), what);
	}
	f->pos += h.size;
	f->records++;
	*rec = (struct pd_record){ h.type, h.misc, h.size, f->map + off, off };
	if (off - f->map_dropped >= MAP_DROP_EVERY) { /* the pages read so far let go */
		uint64_t upto = off & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);

		madvise((void *)(f->map + f->map_dropped), (size_t)(upto - f->map_dropped),
			MADV_DONTNEED);
		f->map_dropped = upto;
	}
	return classify(f, rec);
}

/* What a record read says of the file (header records, unknown types): 1, or -1. */
static int classify(struct pd_file *f, const struct pd_record *rec)
{
	uint64_t off = rec->offset;
	struct perf_event_header h = { rec->type, rec->misc, rec->size };

	switch (h.type) {
	case PD_REC_HEADER_ATTR:
	case PD_REC_HEADER_FEATURE:
		return header_record(f, rec) < 0 ? -1 : 1;
	case PD_REC_HEADER_TRACING_DATA:
		return tracing_record(f, rec) < 0 ? -1 : 1;
	case PD_REC_COMPRESSED:
		return bad(f, off, "compressed records (perf record -z) are not supported");
	default:
		if (h.type >= PERF_RECORD_MAX && h.type != PD_REC_FINISHED_ROUND &&
		    h.type != PD_REC_SCHEDSTAT_CPU && h.type != PD_REC_SCHEDSTAT_DOMAIN &&
		    !(h.type >= PD_REC_HEADER_EVENT_TYPE && h.type <= PD_REC_FINISHED_INIT)) {
			f->unknown_total++;
			if (h.type < PD_REC_MAX)
				f->unknown[h.type]++;
		}
		return 1;
	}
}

bool pd_is_affinity(const struct pd_record *rec)
{
	return rec->type == PD_REC_HEADER_EVENT_TYPE && rec->size >= 8 + PD_AFFINITY_HEAD &&
	       !memcmp(rec->data + 8, PD_AFFINITY_MAGIC, 16);
}

/*
 * A stream's header records (attributes, formats, features) up to its first data
 * record, which waits in peek: the topology is known before the data is read.
 * locus record's stream that never finished leads with its marker.
 */
static int stream_header(struct pd_file *f)
{
	struct pd_record rec;
	int r;

	while ((r = pd_next(f, &rec)) > 0) {
		if (f->records == 1 && rec.type == PD_REC_HEADER_EVENT_TYPE &&
		    rec.size >= 8 + sizeof(PD_UNFINISHED_MARK) &&
		    !memcmp(rec.data + 8, PD_UNFINISHED_MARK, sizeof(PD_UNFINISHED_MARK)))
			f->unfinished = f->cut_short = true; /* killed, or the machine stopped */
		if ((rec.type != PD_REC_HEADER_ATTR && rec.type != PD_REC_HEADER_EVENT_TYPE &&
		     rec.type != PD_REC_HEADER_TRACING_DATA && rec.type != PD_REC_HEADER_FEATURE) ||
		    pd_is_affinity(&rec)) {
			f->peek = rec;
			f->peeked = true;
			break;
		}
	}
	return r < 0 ? -1 : 0;
}

void pd_close(struct pd_file *f)
{
	if (f->map)
		munmap((void *)f->map, f->map_len);
	if (f->fp && f->fp != stdin)
		fclose(f->fp);
	for (int i = 0; i < f->nattrs; i++)
		free(f->attrs[i].ids);
	free(f->attrs);
	u64map_release(&f->ids);
	free(f->tracing_data);
	free(f->cpus);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

bool pd_has_callchains(const struct pd_file *f)
{
	for (int i = 0; i < f->nattrs; i++)
		if (f->attrs[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

bool pd_is_recording(const char *path)
{
	char buf[8];

	return read_file_head(path, buf, sizeof(buf)) == 8 && !memcmp(buf, "PERFILE2", 8);
}
