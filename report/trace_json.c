/* trace_json.c - the Chrome trace-event format from a timeline (trace_json.h). */
#define _GNU_SOURCE /* copy_file_range */
#include "trace_json.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "prov_report.h"

#define TRACK_PID 0	/* every CPU track lives in one pseudo-process, "CPUs" */

static const char *const end_name[] = { "sleep", "preempted", "exited", "running at end",
					 "not recorded", "renamed" };
static const char *const start_arg[] = { "", ",\"start\":\"first event (switch-in not recorded)\"",
					  ",\"start\":\"exec\"", ",\"start\":\"renamed\"" };

/*
 * At most max bytes of s as a JSON string body at out (room for len bytes, the NUL
 * included): quotes, backslashes and controls escaped. Its length.
 */
static size_t str_json_at(char *out, size_t len, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < max && s[i] && o + 7 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			memcpy(out + o, "\\u00", 4);
			out[o + 4] = hex[c >> 4];
			out[o + 5] = hex[c & 15];
			o += 6;
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return o;
}

static void str_json(char *out, size_t len, const char *s, size_t max)
{
	str_json_at(out, len, s, max);
}

/* The buffered bytes into the file. */
static void flush_buf(struct trace_json *tj)
{
	if (tj->nbuf)
		fwrite(tj->buf, 1, tj->nbuf, tj->f);
	tj->nbuf = 0;
}

/*
 * Appending to the buffer: the caller made room first (room()), an item at a time, so
 * none of these checks the end. Each counts what it adds in tj->bytes.
 */
static void room(struct trace_json *tj, size_t n)
{
	if (tj->nbuf + n > sizeof(tj->buf))
		flush_buf(tj);
}

static void mem(struct trace_json *tj, const char *s, size_t n)
{
	memcpy(tj->buf + tj->nbuf, s, n);
	tj->nbuf += n;
	tj->bytes += n;
}

#define LIT(tj, s) mem((tj), "" s, sizeof(s) - 1)

static void str(struct trace_json *tj, const char *s)
{
	mem(tj, s, strlen(s));
}

/* v in decimal, as %" PRIu64 " prints it */
static void u64(struct trace_json *tj, uint64_t v)
{
	char d[24];
	int i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	mem(tj, d + i, sizeof(d) - (size_t)i);
}

static void i64(struct trace_json *tj, int64_t v)
{
	if (v < 0) {
		LIT(tj, "-");
		u64(tj, (uint64_t)0 - (uint64_t)v);
	} else {
		u64(tj, (uint64_t)v);
	}
}

/* ns from the base as microseconds with three decimals */
static void us(struct trace_json *tj, uint64_t base, uint64_t t)
{
	uint64_t d = t > base ? t - base : 0;
	unsigned f = (unsigned)(d % 1000);
	char frac[4] = { '.', (char)('0' + f / 100), (char)('0' + f / 10 % 10),
			 (char)('0' + f % 10) };

	u64(tj, d / 1000);
	mem(tj, frac, sizeof(frac));
}

/* s (at most max bytes) as a JSON string body, escaped into at most len bytes as
 * str_json does */
static void jstr(struct trace_json *tj, const char *s, size_t max, size_t len)
{
	size_t n = str_json_at(tj->buf + tj->nbuf, len, s, max);

	tj->nbuf += n;
	tj->bytes += n;
}

static void put(struct trace_json *tj, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The rare bytes (head, end): printf'd straight to the file, after the buffered ones. */
static void put(struct trace_json *tj, const char *fmt, ...)
{
	va_list ap;
	int n;

	flush_buf(tj);
	va_start(ap, fmt);
	n = vfprintf(tj->f, fmt, ap);
	va_end(ap);
	if (n > 0)
		tj->bytes += (uint64_t)n;
}

void trace_json_begin(struct trace_json *tj, FILE *f, int ncpus, uint64_t limit,
		      const char *title, const struct sched_results *r, uint64_t events,
		      uint64_t bytes)
{
	char t[256];
	struct json j;
	long at;

	memset(tj, 0, sizeof(*tj));
	tj->f = f;
	tj->ncpus = ncpus;
	tj->limit = limit;
	str_json(t, sizeof(t), title, sizeof(t));
	put(tj, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"locus\",\"title\":\"%s\",\"locus\":", t);
	at = ftell(f);
	json_init(&j, f);
	json_object(&j, NULL);
	prov_report_json(&j, r, events, bytes);
	json_object_end(&j);
	if (at >= 0 && ftell(f) > at)
		tj->bytes += (uint64_t)(ftell(f) - at);
	put(tj, "},\n\"traceEvents\":[\n");
}

/* A flow's idle CPU passed over: the closest one's class, or why none (timeline.h). */
static const char *passed_name(int passed)
{
	switch (passed) {
	case TL_IDLE_NONE:
		return "none";
	case TL_IDLE_NOT_ALLOWED:
		return "not allowed";
	case TL_IDLE_UNJUDGED:
		return "not judged";
	default:
		return locality_name((enum locality)passed);
	}
}

/* Deferred: where this item begins, should the head push it past the limit. */
static void mark(struct trace_json *tj)
{
	if (tj->nmarks == tj->cap_marks) {
		tj->cap_marks = tj->cap_marks ? 2 * tj->cap_marks : 256;
		tj->marks = realloc(tj->marks, tj->cap_marks * sizeof(*tj->marks));
		if (!tj->marks)
			abort();
	}
	tj->marks[tj->nmarks++] = (struct trace_json_mark){ tj->bytes, tj->events, tj->items };
}

/* A flow's wait split by who delayed the wakee (--sections blame), as flow arguments. */
static void flow_blame(struct trace_json *tj, const struct tl_blame *b)
{
	LIT(tj, ",\"blame\":{");
	for (int c = 0; c < BC_NR; c++) {
		if (c)
			LIT(tj, ",");
		LIT(tj, "\"");
		str(tj, blame_cause_name((enum blame_cause)c));
		LIT(tj, "_ns\":");
		u64(tj, b->ns[c]);
	}
	if (b->top_tid) {
		LIT(tj, ",\"most\":\"");
		jstr(tj, b->top_comm, TASK_COMM_LEN, 2 * TASK_COMM_LEN + 8);
		LIT(tj, "\",\"most_tid\":");
		i64(tj, b->top_tid);
		LIT(tj, ",\"most_ns\":");
		u64(tj, b->top_ns);
	}
	LIT(tj, "}");
}

/* The common start of an item: {"ph":"<ph>","pid":0,"tid":<tid>,"ts":<t0> */
static void item_head(struct trace_json *tj, const char *ph, int tid, uint64_t t)
{
	LIT(tj, "{\"ph\":\"");
	str(tj, ph);
	LIT(tj, "\",\"pid\":");
	i64(tj, TRACK_PID);
	LIT(tj, ",\"tid\":");
	i64(tj, tid);
	LIT(tj, ",\"ts\":");
	us(tj, tj->base_ns, t);
}

static void slice_item(struct trace_json *tj, const struct tl_item *it)
{
	item_head(tj, "X", it->cpu, it->t0);
	LIT(tj, ",\"dur\":");
	us(tj, it->t0, it->t1);
	LIT(tj, ",\"name\":\"");
	jstr(tj, it->comm, TASK_COMM_LEN, TASK_COMM_LEN * 6 + 1);
	LIT(tj, "\",\"args\":{\"tid\":");
	i64(tj, it->tid);
	LIT(tj, ",\"pid\":");
	i64(tj, it->pid);
	LIT(tj, ",\"end\":\"");
	str(tj, end_name[it->end]);
	LIT(tj, "\"");
	if (it->clipped)
		LIT(tj, ",\"clipped\":true");
	str(tj, it->inferred ? start_arg[TL_START_FIRST_EVENT] : start_arg[it->start]);
	LIT(tj, "}},\n");
}

static void flow_item(struct trace_json *tj, const struct tl_item *it)
{
	LIT(tj, "{\"ph\":\"s\",\"id\":");
	u64(tj, it->id);
	LIT(tj, ",\"pid\":");
	i64(tj, TRACK_PID);
	LIT(tj, ",\"tid\":");
	i64(tj, it->from_cpu);
	LIT(tj, ",\"ts\":");
	us(tj, tj->base_ns, it->t0);
	LIT(tj, ",\"name\":\"wakeup\",\"cat\":\"wakeup\",\"args\":{\"wakee\":\"");
	jstr(tj, it->comm, TASK_COMM_LEN, TASK_COMM_LEN * 6 + 1);
	LIT(tj, "\",\"tid\":");
	i64(tj, it->tid);
	LIT(tj, ",\"class\":\"");
	str(tj, locality_name(it->cls));
	LIT(tj, "\",\"delay_ns\":");
	u64(tj, it->t1 - it->t0);
	LIT(tj, ",\"idle_passed\":\"");
	str(tj, passed_name(it->passed));
	LIT(tj, "\"");
	if (it->blame.on)
		flow_blame(tj, &it->blame);
	LIT(tj, "}},\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":");
	u64(tj, it->id);
	LIT(tj, ",\"pid\":");
	i64(tj, TRACK_PID);
	LIT(tj, ",\"tid\":");
	i64(tj, it->cpu);
	LIT(tj, ",\"ts\":");
	us(tj, tj->base_ns, it->t1);
	LIT(tj, ",\"name\":\"wakeup\",\"cat\":\"wakeup\"},\n");
}

static void migrate_item(struct trace_json *tj, const struct tl_item *it)
{
	LIT(tj, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":");
	i64(tj, TRACK_PID);
	LIT(tj, ",\"tid\":");
	i64(tj, it->cpu);
	LIT(tj, ",\"ts\":");
	us(tj, tj->base_ns, it->t0);
	LIT(tj, ",\"name\":\"migrate\",\"args\":{\"tid\":");
	i64(tj, it->tid);
	LIT(tj, ",\"from\":");
	i64(tj, it->from_cpu);
	LIT(tj, ",\"to\":");
	i64(tj, it->cpu);
	LIT(tj, ",\"class\":\"");
	str(tj, locality_name(it->cls));
	LIT(tj, "\"}},\n");
}

static void counter_item(struct trace_json *tj, const struct tl_item *it)
{
	LIT(tj, "{\"ph\":\"C\",\"pid\":");
	i64(tj, TRACK_PID);
	LIT(tj, ",\"ts\":");
	us(tj, tj->base_ns, it->t0);
	if (it->kind == TL_COUNTER) {
		LIT(tj, ",\"name\":\"runnable CPU ");
		i64(tj, it->cpu);
		LIT(tj, "\",\"args\":{\"runnable\":");
	} else {
		LIT(tj, ",\"name\":\"wakeups passing over an idle CPU\",\"args\":{\"wakeups\":");
	}
	i64(tj, it->value);
	LIT(tj, "}},\n");
}

/* Formatted by hand into tj->buf (printf was most of a trace's cost): the same bytes. */
void trace_json_item(void *ctx, const struct tl_item *it)
{
	struct trace_json *tj = ctx;

	if (tj->limit && tj->bytes >= tj->limit) {
		tj->dropped++;
		return;
	}
	if (tj->deferred && tj->limit && tj->bytes + TRACE_JSON_HEAD_MAX >= tj->limit)
		mark(tj);
	tj->items++;
	room(tj, 2048);
	switch (it->kind) {
	case TL_SLICE:
		slice_item(tj, it);
		break;
	case TL_FLOW:
		flow_item(tj, it);
		tj->events++;
		break;
	case TL_MIGRATE:
		migrate_item(tj, it);
		break;
	case TL_COUNTER:
	case TL_PASSED:
		counter_item(tj, it);
		break;
	}
	tj->events++;
}

void trace_json_end(struct trace_json *tj)
{
	put(tj, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":\"CPUs\"}}",
	    TRACK_PID);
	for (int c = 0; c < tj->ncpus; c++) {
		put(tj, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\","
			"\"args\":{\"name\":\"CPU %d\"}}",
		    TRACK_PID, c, c);
		put(tj, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\","
			"\"args\":{\"sort_index\":%d}}",
		    TRACK_PID, c, c);
	}
	put(tj, "\n]}\n");
	flush_buf(tj);
}

void trace_json_body(struct trace_json *tj, FILE *body, int ncpus, uint64_t limit)
{
	memset(tj, 0, sizeof(*tj));
	tj->f = body;
	tj->ncpus = ncpus;
	tj->limit = limit;
	tj->deferred = true;
}

/*
 * The body's first n bytes into out (both flushed). Into a regular file, the kernel
 * copies them (copy_file_range: no read into and write out of this process); else, or
 * should it refuse, through a buffer.
 */
static void copy(FILE *body, FILE *out, uint64_t n)
{
	char buf[65536];
	loff_t in_at = 0;
	struct stat st;

	if (fflush(out) == 0 && fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at;

		while (n) {
			ssize_t got = copy_file_range(fileno(body), &in_at, fileno(out), NULL,
						      n, 0);

			if (got <= 0)
				break;
			n -= (uint64_t)got;
		}
		at = lseek(fileno(out), 0, SEEK_CUR); /* stdio learns where the kernel left it */
		if (at >= 0)
			fseeko(out, at, SEEK_SET);
	}
	if (fseeko(body, (off_t)in_at, SEEK_SET) < 0)
		return;
	while (n) {
		size_t want = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		size_t got = fread(buf, 1, want, body);

		if (!got)
			break;
		fwrite(buf, 1, got, out);
		n -= got;
	}
}

int trace_json_deferred_end(struct trace_json *tj, FILE *out, const char *title,
			    const struct sched_results *r, uint64_t events, uint64_t bytes)
{
	struct trace_json head;
	uint64_t cut = tj->bytes;

	trace_json_begin(&head, out, tj->ncpus, 0, title, r, events, bytes);
	if (head.bytes > TRACE_JSON_HEAD_MAX)
		return -1;
	/* the first item the head pushes to the limit, and every one after it, is left out */
	for (size_t i = 0; tj->limit && i < tj->nmarks; i++) {
		if (head.bytes + tj->marks[i].at < tj->limit)
			continue;
		cut = tj->marks[i].at;
		tj->dropped += tj->items - tj->marks[i].items;
		tj->events = tj->marks[i].events;
		break;
	}
	flush_buf(tj);
	fflush(tj->f);
	copy(tj->f, out, cut);
	tj->f = out;
	tj->bytes = head.bytes + cut;
	trace_json_end(tj);
	return 0;
}

void trace_json_release(struct trace_json *tj)
{
	free(tj->marks);
	tj->marks = NULL;
	tj->nmarks = tj->cap_marks = 0;
}
