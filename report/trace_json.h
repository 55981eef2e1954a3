/*
 * trace_json.h - a timeline (analyzers/timeline.h) in the Chrome trace-event
 * format that the Perfetto UI and chrome://tracing open: a track per CPU (pid
 * 0, tid = CPU) with a complete event ("X") per running period, a flow
 * ("s" on the waker's CPU, "f" binding to the woken task's next period) per
 * wakeup, an instant ("i") per migration, a counter ("C") of runnable tasks
 * per CPU, a counter of the workload's wakeups that passed over an idle CPU,
 * and metadata ("M") naming the tracks. Times in microseconds with
 * nanosecond decimals, in the recording's own clock.
 */
#ifndef LOCUS_TRACE_JSON_H
#define LOCUS_TRACE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../analyzers/timeline.h"
#include "../model/sched_results.h"

/* Deferred: where an item began in the body, with the counts before it. */
struct trace_json_mark {
	uint64_t at, events, items;
};

/* The most a document's head (otherData: the provenance) takes, for a deferred body. */
#define TRACE_JSON_HEAD_MAX (1u << 20)

/* Bytes an item is formatted into before they reach the file (an item takes < 2 KiB). */
#define TRACE_JSON_BUF (1u << 16)

struct trace_json {
	FILE *f;
	/* the items' bytes not yet written to f: formatted here, written in large blocks
	 * (no allocation: a trace_json dropped unwritten leaks nothing) */
	char buf[TRACE_JSON_BUF];
	size_t nbuf;
	uint64_t base_ns;	/* time 0 of the trace (0: the recording's clock as it is) */
	uint64_t limit;		/* bytes; events beyond it are left out (0: no limit) */
	uint64_t bytes, events, dropped;
	int ncpus;
	/* deferred (trace_json_body): the items written, and where each began that a head of
	 * up to TRACE_JSON_HEAD_MAX bytes could push past the limit */
	bool deferred;
	uint64_t items;
	struct trace_json_mark *marks;
	size_t nmarks, cap_marks;
};

/* Open the document; otherData says how r was measured (the report's provenance). */
void trace_json_begin(struct trace_json *tj, FILE *f, int ncpus, uint64_t limit,
		      const char *title, const struct sched_results *r, uint64_t events,
		      uint64_t bytes);
/* A timeline sink (timeline_cfg.emit). */
void trace_json_item(void *ctx, const struct tl_item *it);
/* The track names, and the document closed (valid JSON even when the limit cut it). */
void trace_json_end(struct trace_json *tj);

/*
 * The same document in one pass whose results come at its end: the items first into
 * body (a scratch file), cut at the limit as if no head came before them; then
 * trace_json_deferred_end writes into out the head of r, the body up to where the head
 * pushes the limit (the same bytes trace_json_begin and the items would have written),
 * and the end. 0, or -1 when the head is over TRACE_JSON_HEAD_MAX (nothing written).
 */
void trace_json_body(struct trace_json *tj, FILE *body, int ncpus, uint64_t limit);
int trace_json_deferred_end(struct trace_json *tj, FILE *out, const char *title,
			    const struct sched_results *r, uint64_t events, uint64_t bytes);
void trace_json_release(struct trace_json *tj);

#endif
