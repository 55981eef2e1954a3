/* trace_json.c - the Chrome trace-event format from a timeline (trace_json.h). */
#include "trace_json.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "prov_report.h"

#define TRACK_PID 0	/* every CPU track lives in one pseudo-process, "CPUs" */

static const char *const end_name[] = { "sleep", "preempted", "exited", "running at end",
					 "not recorded", "renamed" };
static const char *const start_arg[] = { "", ",\"start\":\"first event (switch-in not recorded)\"",
					  ",\"start\":\"exec\"", ",\"start\":\"renamed\"" };

/* At most max bytes of s as a JSON string body: quotes, backslashes and controls escaped. */
static void str_json(char *out, size_t len, const char *s, size_t max)
{
	size_t o = 0;

	for (size_t i = 0; i < max && s[i] && o + 7 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

/* ns from the base as microseconds with three decimals */
static void us(char *out, size_t len, uint64_t base, uint64_t t)
{
	uint64_t d = t > base ? t - base : 0;

	snprintf(out, len, "%" PRIu64 ".%03" PRIu64, d / 1000, d % 1000);
}

static void put(struct trace_json *tj, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct trace_json *tj, const char *fmt, ...)
{
	va_list ap;
	int n;

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
	char top[2 * TASK_COMM_LEN + 8];

	put(tj, ",\"blame\":{");
	for (int c = 0; c < BC_NR; c++)
		put(tj, "%s\"%s_ns\":%" PRIu64, c ? "," : "", blame_cause_name((enum blame_cause)c),
		    b->ns[c]);
	if (b->top_tid) {
		str_json(top, sizeof(top), b->top_comm, TASK_COMM_LEN);
		put(tj, ",\"most\":\"%s\",\"most_tid\":%d,\"most_ns\":%" PRIu64, top,
		    (int)b->top_tid, b->top_ns);
	}
	put(tj, "}");
}

void trace_json_item(void *ctx, const struct tl_item *it)
{
	struct trace_json *tj = ctx;
	char a[40], b[40], comm[TASK_COMM_LEN * 6 + 1];

	if (tj->limit && tj->bytes >= tj->limit) {
		tj->dropped++;
		return;
	}
	if (tj->deferred && tj->limit && tj->bytes + TRACE_JSON_HEAD_MAX >= tj->limit)
		mark(tj);
	tj->items++;
	us(a, sizeof(a), tj->base_ns, it->t0);
	str_json(comm, sizeof(comm), it->comm, TASK_COMM_LEN);
	switch (it->kind) {
	case TL_SLICE:
		us(b, sizeof(b), it->t0, it->t1);
		put(tj, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"name\":\"%s\","
			"\"args\":{\"tid\":%d,\"pid\":%d,\"end\":\"%s\"%s%s}},\n",
		    TRACK_PID, it->cpu, a, b, comm, it->tid, it->pid, end_name[it->end],
		    it->clipped ? ",\"clipped\":true" : "",
		    it->inferred ? start_arg[TL_START_FIRST_EVENT] : start_arg[it->start]);
		break;
	case TL_FLOW:
		us(b, sizeof(b), tj->base_ns, it->t1);
		put(tj, "{\"ph\":\"s\",\"id\":%" PRIu64 ",\"pid\":%d,\"tid\":%d,\"ts\":%s,"
			"\"name\":\"wakeup\",\"cat\":\"wakeup\",\"args\":{\"wakee\":\"%s\",\"tid\":%d,"
			"\"class\":\"%s\",\"delay_ns\":%" PRIu64 ",\"idle_passed\":\"%s\"",
		    it->id, TRACK_PID, it->from_cpu, a, comm, it->tid, locality_name(it->cls),
		    it->t1 - it->t0, passed_name(it->passed));
		if (it->blame.on)
			flow_blame(tj, &it->blame);
		put(tj, "}},\n");
		put(tj, "{\"ph\":\"f\",\"bp\":\"e\",\"id\":%" PRIu64 ",\"pid\":%d,\"tid\":%d,"
			"\"ts\":%s,\"name\":\"wakeup\",\"cat\":\"wakeup\"},\n",
		    it->id, TRACK_PID, it->cpu, b);
		tj->events++;
		break;
	case TL_MIGRATE:
		put(tj, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"name\":\"migrate\","
			"\"args\":{\"tid\":%d,\"from\":%d,\"to\":%d,\"class\":\"%s\"}},\n",
		    TRACK_PID, it->cpu, a, it->tid, it->from_cpu, it->cpu, locality_name(it->cls));
		break;
	case TL_COUNTER:
		put(tj, "{\"ph\":\"C\",\"pid\":%d,\"ts\":%s,\"name\":\"runnable CPU %d\","
			"\"args\":{\"runnable\":%" PRId64 "}},\n",
		    TRACK_PID, a, it->cpu, it->value);
		break;
	case TL_PASSED:
		put(tj, "{\"ph\":\"C\",\"pid\":%d,\"ts\":%s,\"name\":\"wakeups passing over an "
			"idle CPU\",\"args\":{\"wakeups\":%" PRId64 "}},\n",
		    TRACK_PID, a, it->value);
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
}

void trace_json_body(struct trace_json *tj, FILE *body, int ncpus, uint64_t limit)
{
	memset(tj, 0, sizeof(*tj));
	tj->f = body;
	tj->ncpus = ncpus;
	tj->limit = limit;
	tj->deferred = true;
}

/* The body's first bytes into out. */
static void copy(FILE *body, FILE *out, uint64_t n)
{
	char buf[65536];

	rewind(body);
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
