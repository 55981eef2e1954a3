/* tracing_data.c - TRACING_DATA: the tracepoint formats inside perf.data, bounds-checked. */
#include "tracing_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#include "../common/bytebuf.h"
#include "../common/util.h"

static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* A format text may not be larger than this; real ones are a few KiB. */
#define MAX_FORMAT (1u << 20)

struct cursor {
	const uint8_t *p;
	size_t len, off;
	char *err;
	size_t errlen;
};

static int fail(struct cursor *c, const char *what)
{
	snprintf(c->err, c->errlen, "tracing data: %s at offset %zu", what, c->off);
	return -1;
}

static int take(struct cursor *c, void *out, size_t n, const char *what)
{
	if (n > c->len - c->off)
		return fail(c, what);
	if (out)
		memcpy(out, c->p + c->off, n);
	c->off += n;
	return 0;
}

static int take_str(struct cursor *c, char *out, size_t max, const char *what)
{
	const uint8_t *nul = memchr(c->p + c->off, '\0', c->len - c->off);
	size_t n;

	if (!nul)
		return fail(c, what);
	n = (size_t)(nul - (c->p + c->off));
	if (n + 1 > max)
		return fail(c, what);
	memcpy(out, c->p + c->off, n + 1);
	c->off += n + 1;
	return 0;
}

/* A u64-sized section; returns its start and skips it. */
static int section64(struct cursor *c, const uint8_t **start, uint64_t *size, const char *what)
{
	if (take(c, size, 8, what) < 0)
		return -1;
	if (*size > c->len - c->off)
		return fail(c, what);
	*start = c->p + c->off;
	c->off += *size;
	return 0;
}

static int skip32(struct cursor *c, const char *what)
{
	uint32_t n;

	if (take(c, &n, 4, what) < 0)
		return -1;
	return take(c, NULL, n, what);
}

/*
 * Give one format to libtraceevent. Only the fields are needed: the print
 * format is replaced by an empty one, since libtraceevent's print-format
 * parser crashes on some corrupted input, and text that is not printable
 * ASCII is refused. A format that does not parse is skipped, as perf does.
 */
static void parse_format(struct tep_handle *tep, const uint8_t *data, size_t size, const char *sys)
{
	static const char empty_print[] = "\nprint fmt: \"\"\n";
	char *text, *print;

	for (size_t i = 0; i < size; i++)
		if ((data[i] < 0x20 && data[i] != '\n' && data[i] != '\t') || data[i] > 0x7e)
			return;
	text = xmalloc(size + sizeof(empty_print) + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	print = strstr(text, "\nprint fmt:");
	if (!print)
		print = text + size;
	memcpy(print, empty_print, sizeof(empty_print));
	tep_parse_event(tep, text, strlen(text), sys);
	free(text);
}

struct tep_handle *tracing_data_parse(const uint8_t *blob, size_t len, char *err, size_t errlen)
{
	const char *k;
	size_t klen;

	return tracing_data_parse_ksyms(blob, len, &k, &klen, err, errlen);
}

struct tep_handle *tracing_data_parse_ksyms(const uint8_t *blob, size_t len, const char **ksyms,
					    size_t *ksyms_len, char *err, size_t errlen)
{
	struct cursor c = { blob, len, 0, err, errlen };
	struct tep_handle *tep = NULL;
	char version[16], name[64], sys[128];
	uint8_t big, long_size;
	uint32_t page_size, nr, nsys;
	const uint8_t *data;
	uint64_t size;

	if (take(&c, name, sizeof(magic), "truncated magic") < 0)
		return NULL;
	if (memcmp(name, magic, sizeof(magic))) {
		fail(&c, "bad magic");
		return NULL;
	}
	if (take_str(&c, version, sizeof(version), "bad version string") < 0 ||
	    take(&c, &big, 1, "truncated header") < 0 ||
	    take(&c, &long_size, 1, "truncated header") < 0 ||
	    take(&c, &page_size, 4, "truncated header") < 0)
		return NULL;
	if (long_size != 4 && long_size != 8) {
		fail(&c, "bad long size");
		return NULL;
	}
	tep = tep_alloc();
	if (!tep) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									   : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)page_size);
	if (take_str(&c, name, sizeof(name), "no header_page") < 0)
		goto bad;
	if (strcmp(name, "header_page")) {
		fail(&c, "no header_page");
		goto bad;
	}
	if (section64(&c, &data, &size, "truncated header_page") < 0)
		goto bad;
	tep_parse_header_page(tep, (char *)data, (unsigned long)size, long_size);
	if (take_str(&c, name, sizeof(name), "no header_event") < 0)
		goto bad;
	if (strcmp(name, "header_event")) {
		fail(&c, "no header_event");
		goto bad;
	}
	if (section64(&c, &data, &size, "truncated header_event") < 0)
		goto bad;
	/* ftrace's own formats: not needed for sched events */
	if (take(&c, &nr, 4, "truncated ftrace formats") < 0)
		goto bad;
	for (uint32_t i = 0; i < nr; i++)
		if (section64(&c, &data, &size, "truncated ftrace format") < 0)
			goto bad;
	if (take(&c, &nsys, 4, "truncated event systems") < 0)
		goto bad;
	for (uint32_t s = 0; s < nsys; s++) {
		if (take_str(&c, sys, sizeof(sys), "bad system name") < 0 ||
		    take(&c, &nr, 4, "truncated event count") < 0)
			goto bad;
		for (uint32_t i = 0; i < nr; i++) {
			if (section64(&c, &data, &size, "truncated event format") < 0)
				goto bad;
			if (size > MAX_FORMAT) {
				fail(&c, "event format too large");
				goto bad;
			}
			parse_format(tep, data, (size_t)size, sys);
		}
	}
	/* kallsyms and printk formats follow; absent in truncated files we accept */
	*ksyms = NULL;
	*ksyms_len = 0;
	if (c.off < c.len) {
		uint32_t n;

		if (take(&c, &n, 4, "truncated kallsyms") < 0)
			goto bad;
		if (n && c.len - c.off >= n) {
			*ksyms = (const char *)c.p + c.off;
			*ksyms_len = n;
		}
		if (take(&c, NULL, n, "truncated kallsyms") < 0)
			goto bad;
	}
	if (c.off < c.len && skip32(&c, "truncated printk formats") < 0)
		goto bad;
	return tep;
bad:
	tep_free(tep);
	return NULL;
}

/* A file's content as a u64-sized section. */
static int put_file(struct bytebuf *b, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char buf[8192];
	size_t at, n;

	if (!f) {
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	at = b->len;
	bytebuf_u64(b, 0);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		bytebuf_put(b, buf, n);
	fclose(f);
	{
		uint64_t size = b->len - at - 8;

		memcpy(b->p + at, &size, 8);
	}
	return 0;
}

/* Whether an event ("name" of sched, or "system/name") is in system sys. */
static bool in_system(const char *event, const char *sys)
{
	const char *slash = strchr(event, '/');

	if (!slash)
		return !strcmp(sys, "sched");
	return strlen(sys) == (size_t)(slash - event) && !strncmp(event, sys, strlen(sys));
}

uint8_t *tracing_data_build(const char *dir, const char *const *events, int nevents, size_t *len,
			    char *err, size_t errlen)
{
	return tracing_data_build_ksyms(dir, events, nevents, NULL, len, err, errlen);
}

/* A file's content as a u32-sized section (empty when it cannot be read). */
static void put_file32(struct bytebuf *b, const char *path)
{
	FILE *f = path ? fopen(path, "re") : NULL;
	char buf[8192];
	size_t at = b->len, n;
	uint32_t size;

	bytebuf_u32(b, 0);
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && b->len - at - 4 + n < UINT32_MAX)
		bytebuf_put(b, buf, n);
	fclose(f);
	size = (uint32_t)(b->len - at - 4);
	memcpy(b->p + at, &size, 4);
}

uint8_t *tracing_data_build_ksyms(const char *dir, const char *const *events, int nevents,
				  const char *ksyms, size_t *len, char *err, size_t errlen)
{
	struct bytebuf b = { 0 };
	char path[512];
	uint8_t byte;

	bytebuf_put(&b, magic, sizeof(magic));
	bytebuf_put(&b, "0.6", 4);
	byte = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	bytebuf_put(&b, &byte, 1);
	byte = (uint8_t)sizeof(long);
	bytebuf_put(&b, &byte, 1);
	bytebuf_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	bytebuf_put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if (put_file(&b, path, err, errlen) < 0)
		goto bad;
	bytebuf_put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	if (put_file(&b, path, err, errlen) < 0)
		goto bad;
	bytebuf_u32(&b, 0); /* no ftrace formats */
	{ /* the systems in order of first appearance, each with its events */
		char sys[8][32];
		int nsys = 0;

		for (int i = 0; i < nevents; i++) {
			const char *slash = strchr(events[i], '/');
			char name[32];
			int k = 0;

			snprintf(name, sizeof(name), "%.*s", slash ? (int)(slash - events[i]) : 5,
				 slash ? events[i] : "sched");
			while (k < nsys && strcmp(sys[k], name))
				k++;
			if (k == nsys && nsys < 8)
				snprintf(sys[nsys++], sizeof(sys[0]), "%s", name);
		}
		bytebuf_u32(&b, (uint32_t)nsys);
		for (int k = 0; k < nsys; k++) {
			uint32_t n = 0;

			bytebuf_put(&b, sys[k], strlen(sys[k]) + 1);
			for (int i = 0; i < nevents; i++)
				n += in_system(events[i], sys[k]);
			bytebuf_u32(&b, n);
			for (int i = 0; i < nevents; i++) {
				const char *ev = strchr(events[i], '/');

				if (!in_system(events[i], sys[k]))
					continue;
				snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys[k],
					 ev ? ev + 1 : events[i]);
				if (put_file(&b, path, err, errlen) < 0)
					goto bad;
			}
		}
	}
	put_file32(&b, ksyms); /* kallsyms */
	bytebuf_u32(&b, 0); /* printk formats */
	bytebuf_u64(&b, 0); /* saved cmdlines (0.6) */
	*len = b.len;
	return b.p;
bad:
	free(b.p);
	return NULL;
}
