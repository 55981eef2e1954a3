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

/* Room for n more bytes in the buffer (an item takes < 2 KiB). */
static void room(struct trace_json *tj, size_t n)
{
	if (tj->nbuf + n > sizeof(tj->buf))
		flush_buf(tj);
}

/*
 * An item's bytes go through a cursor into the buffer, each helper returning where it
 * stopped (the caller made room first: none checks the end); the item's length is counted
 * once, at its end.
 */
static char *mem(char *o, const char *s, size_t n)
{
	memcpy(o, s, n);
	return o + n;
}

#define LIT(o, s) mem((o), "" s, sizeof(s) - 1)

static char *str(char *o, const char *s)
{
	return mem(o, s, strlen(s));
}

static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
			       "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
			       "8081828384858687888990919293949596979899";

/* The decimal digits of v (1 for 0). */
static int digits(uint64_t v)
{
	int n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* v in decimal, as %" PRIu64 " prints it: written from its last digit, two at a time */
static char *u64(char *o, uint64_t v)
{
	char *end = o + digits(v), *p = end;

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(p - 2, pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return end;
}

static char *i64(char *o, int64_t v)
{
	if (v < 0) {
		*o++ = '-';
		return u64(o, (uint64_t)0 - (uint64_t)v);
	}
	return u64(o, (uint64_t)v);
}

/* ns from the base as microseconds with three decimals */
static char *us(char *o, uint64_t base, uint64_t t)
{
	uint64_t d = t > base ? t - base : 0;
	unsigned f = (unsigned)(d % 1000);

	o = u64(o, d / 1000);
	o[0] = '.';
	o[1] = (char)('0' + f / 100);
	memcpy(o + 2, pairs + 2 * (f % 100), 2);
	return o + 4;
}

/* s (at most max bytes) as a JSON string body, escaped into at most len bytes as
 * str_json does */
static char *jstr(char *o, const char *s, size_t max, size_t len)
{
	return o + str_json_at(o, len, s, max);
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
static char *flow_blame(char *o, const struct tl_blame *b)
{
	o = LIT(o, ",\"blame\":{");
	for (int c = 0; c < BC_NR; c++) {
		if (c)
			o = LIT(o, ",");
		o = LIT(o, "\"");
		o = str(o, blame_cause_name((enum blame_cause)c));
		o = LIT(o, "_ns\":");
		o = u64(o, b->ns[c]);
	}
	if (b->top_tid) {
		o = LIT(o, ",\"most\":\"");
		o = jstr(o, b->top_comm, TASK_COMM_LEN, 2 * TASK_COMM_LEN + 8);
		o = LIT(o, "\",\"most_tid\":");
		o = i64(o, b->top_tid);
		o = LIT(o, ",\"most_ns\":");
		o = u64(o, b->top_ns);
	}
	return LIT(o, "}");
}

/* The pid of every track, TRACK_PID, as the items print it */
#define PID_0 ",\"pid\":0"
_Static_assert(TRACK_PID == 0, "PID_0 is TRACK_PID");

static char *slice_item(char *o, uint64_t base, const struct tl_item *it)
{
	o = LIT(o, "{\"ph\":\"X\"" PID_0 ",\"tid\":");
	o = i64(o, it->cpu);
	o = LIT(o, ",\"ts\":");
	o = us(o, base, it->t0);
	o = LIT(o, ",\"dur\":");
	o = us(o, it->t0, it->t1);
	o = LIT(o, ",\"name\":\"");
	o = jstr(o, it->comm, TASK_COMM_LEN, TASK_COMM_LEN * 6 + 1);
	o = LIT(o, "\",\"args\":{\"tid\":");
	o = i64(o, it->tid);
	o = LIT(o, ",\"pid\":");
	o = i64(o, it->pid);
	o = LIT(o, ",\"end\":\"");
	o = str(o, end_name[it->end]);
	o = LIT(o, "\"");
	if (it->clipped)
		o = LIT(o, ",\"clipped\":true");
	o = str(o, it->inferred ? start_arg[TL_START_FIRST_EVENT] : start_arg[it->start]);
	return LIT(o, "}},\n");
}

static char *flow_item(char *o, uint64_t base, const struct tl_item *it)
{
	o = LIT(o, "{\"ph\":\"s\",\"id\":");
	o = u64(o, it->id);
	o = LIT(o, PID_0 ",\"tid\":");
	o = i64(o, it->from_cpu);
	o = LIT(o, ",\"ts\":");
	o = us(o, base, it->t0);
	o = LIT(o, ",\"name\":\"wakeup\",\"cat\":\"wakeup\",\"args\":{\"wakee\":\"");
	o = jstr(o, it->comm, TASK_COMM_LEN, TASK_COMM_LEN * 6 + 1);
	o = LIT(o, "\",\"tid\":");
	o = i64(o, it->tid);
	o = LIT(o, ",\"class\":\"");
	o = str(o, locality_name(it->cls));
	o = LIT(o, "\",\"delay_ns\":");
	o = u64(o, it->t1 - it->t0);
	o = LIT(o, ",\"idle_passed\":\"");
	o = str(o, passed_name(it->passed));
	o = LIT(o, "\"");
	if (it->blame.on)
		o = flow_blame(o, &it->blame);
	o = LIT(o, "}},\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":");
	o = u64(o, it->id);
	o = LIT(o, PID_0 ",\"tid\":");
	o = i64(o, it->cpu);
	o = LIT(o, ",\"ts\":");
	o = us(o, base, it->t1);
	return LIT(o, ",\"name\":\"wakeup\",\"cat\":\"wakeup\"},\n");
}

static char *migrate_item(char *o, uint64_t base, const struct tl_item *it)
{
	o = LIT(o, "{\"ph\":\"i\",\"s\":\"t\"" PID_0 ",\"tid\":");
	o = i64(o, it->cpu);
	o = LIT(o, ",\"ts\":");
	o = us(o, base, it->t0);
	o = LIT(o, ",\"name\":\"migrate\",\"args\":{\"tid\":");
	o = i64(o, it->tid);
	o = LIT(o, ",\"from\":");
	o = i64(o, it->from_cpu);
	o = LIT(o, ",\"to\":");
	o = i64(o, it->cpu);
	o = LIT(o, ",\"class\":\"");
	o = str(o, locality_name(it->cls));
	return LIT(o, "\"}},\n");
}

static char *counter_item(char *o, uint64_t base, const struct tl_item *it)
{
	o = LIT(o, "{\"ph\":\"C\"" PID_0 ",\"ts\":");
	o = us(o, base, it->t0);
	if (it->kind == TL_COUNTER) {
		o = LIT(o, ",\"name\":\"runnable CPU ");
		o = i64(o, it->cpu);
		o = LIT(o, "\",\"args\":{\"runnable\":");
	} else {
		o = LIT(o, ",\"name\":\"wakeups passing over an idle CPU\",\"args\":{\"wakeups\":");
	}
	o = i64(o, it->value);
	return LIT(o, "}},\n");
}

/* Formatted by hand into tj->buf (printf was most of a trace's cost): the same bytes. */
void trace_json_item(void *ctx, const struct tl_item *it)
{
	struct trace_json *tj = ctx;
	char *at, *o;

	if (tj->limit && tj->bytes >= tj->limit) {
		tj->dropped++;
		return;
	}
	if (tj->deferred && tj->limit && tj->bytes + TRACE_JSON_HEAD_MAX >= tj->limit)
		mark(tj);
	tj->items++;
	room(tj, 2048);
	at = o = tj->buf + tj->nbuf;
	switch (it->kind) {
	case TL_SLICE:
		o = slice_item(o, tj->base_ns, it);
		break;
	case TL_FLOW:
		o = flow_item(o, tj->base_ns, it);
		tj->events++;
		break;
	case TL_MIGRATE:
		o = migrate_item(o, tj->base_ns, it);
		break;
	case TL_COUNTER:
	case TL_PASSED:
		o = counter_item(o, tj->base_ns, it);
		break;
	}
	tj->nbuf += (size_t)(o - at);
	tj->bytes += (uint64_t)(o - at);
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
