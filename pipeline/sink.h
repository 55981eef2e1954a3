/*
 * sink.h - where events go: each consumer of a source's events behind one interface.
 * A source (source.h, replay.h) yields events in time order; a session hands them to a
 * list of sinks built from the command's options in one place (sink_plan.h): the wakeup
 * analyzer (sink_wakeup.h), the cacheline analyzer (sink_cacheline.h), the timeline
 * (sink_timeline.h), who delayed the wakee (sink_blame.h), the stacks (sink_stacks.h), the
 * perf.data writer (sink_writer.h: it takes the stream's records whole, not events). Each
 * sink is told what the stream records before its first event (begin), consumes events,
 * holds nothing back at a round's end (flush), brings its results up to now while
 * collection goes on where it can (snapshot), learns at the source's end what names its
 * results' stacks (end), completes them (finish), and frees them (release). The analyzers
 * behind the sinks stay pure; a sink is a thin adapter.
 *
 * A source that aggregates in the kernel (BPF) yields no events: it fills the results of
 * the sinks it stands in for (stand_in: the wakeup analyzer's, blame's, the stacks'), and
 * a sink that needs every event and has no stand-in (every_event: the timeline, the
 * perf.data writer) refuses it (sinks_refusing).
 */
#ifndef LOCUS_SINK_H
#define LOCUS_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/event.h"

struct topology;
struct sched_results;
struct sched_collector;
struct sched_map;
struct mem_collector;
struct stack_table;
struct symbols;
struct sink;
struct sink_stand_in;

/* What the stream records, known at its first sched event (a pipe's formats come in it). */
struct sink_begin {
	const struct topology *topo;
	bool waking_source;	/* sched_waking recorded (else sched_wakeup) */
	bool migrate_source;	/* sched_migrate_task recorded */
	const int32_t *exclude;	/* the source's own threads (read as they change), or NULL */
	int nexclude;
	/* EV_AFFINITY events give each task's affinity (else it is unknown) */
	bool affinity_events;
	bool irq_source;	/* irq:irq_handler_entry/exit and irq:softirq_entry/exit recorded */
};

/* The rings a live stream reads, for a sink that takes their records whole. */
struct sink_raw {
	struct sched_collector *col;
	struct mem_collector *mem;	/* memory samples' rings, or NULL */
};

/*
 * What a source knows at its end that names what the sinks counted: the callchains of the
 * events' stack ids and the code they ran (a file's symbols, or a live stream's mappings
 * named with this machine's kallsyms).
 */
struct sink_end {
	const struct stack_table *stacks;	/* by the events' stack ids, or NULL */
	struct symbols *syms;			/* a file's MMAP records and kernel symbols, or
						 * NULL: maps below and /proc/kallsyms */
	const struct sched_map *maps;		/* the live stream's MMAP2 and FORK records */
	int nmaps;
};

struct sink_ops {
	const char *name;
	/* it needs every event, and no aggregating source can stand in for it (refuses BPF) */
	bool every_event;
	void (*begin)(struct sink *k, const struct sink_begin *b); /* NULL: nothing to learn */
	void (*consume)(struct sink *k, const struct event *e);
	/* with a buffer (sink.buf): n events in time order, as n consume calls would */
	void (*consume_batch)(struct sink *k, const struct event *ev, int n);
	void (*flush)(struct sink *k);		/* NULL: holds nothing */
	void (*snapshot)(struct sink *k);	/* under the reader's lock; NULL: none */
	/* after snapshot, without the lock: its tables into dst (NULL: none) */
	void (*snapshot_tables)(struct sink *k, struct sched_results *dst);
	/* at the source's end, before finish: what names its stacks (NULL: none to name) */
	void (*end)(struct sink *k, const struct sink_end *e);
	void (*finish)(struct sink *k);		/* after the last event */
	void (*release)(struct sink *k);
	/* An aggregating source fills its results instead of feeding it events: where they
	 * go into si (the sink is then stood in: fed nothing, finished by none), begun with b
	 * where it needs to be (NULL op: no source can stand in for it). */
	void (*stand_in)(struct sink *k, struct sink_stand_in *si, const struct sink_begin *b);
	/* a sink of whole records (the writer; NULL: it takes events): ready for the rings
	 * of r (0, or -1 with why), then each record as the source reads it (a sched ring's,
	 * or mem: a memory ring's, mem_idx its event in the plan, -1 unknown), and the end of
	 * each pass over the rings */
	int (*raw_open)(struct sink *k, const struct sink_raw *r, char *err, size_t len);
	void (*record)(struct sink *k, const void *rec, bool mem, int mem_idx);
	/* with record: an event the source derives from the records as it reads them, to be
	 * kept beside them (EV_AFFINITY: every task's mask at the start, and each change
	 * right after the call's record), in the order they are read */
	void (*derived)(struct sink *k, const struct event *e);
	void (*round)(struct sink *k);
};

/* Events gathered for a sink that takes them in batches (the hot path: a copy an event,
 * one call a batch); handed over at a batch's end and at every flush. */
#define SINK_BATCH 64
struct sink_buf {
	struct event ev[SINK_BATCH];
	int n;
};

struct sink {
	const struct sink_ops *ops;
	struct sink_buf *buf;	/* NULL: one consume call an event */
	uint32_t types;		/* the event types it takes (1u << EV_x) */
	bool whole;		/* a file's events whatever the --from/--to window (it keeps
				 * the window itself) */
	bool begun;
	bool stood_in;		/* an aggregating source fills its results (stand_in) */
};

/* every type but memory samples, the irq tracepoints (only blame takes those), the
 * collector's syscall tracepoints and affinity (only the wakeup analyzer takes it) */
#define SINK_SCHED (~((1u << EV_MEM) | EV_IRQ_TYPES | EV_SYSCALL_TYPES | (1u << EV_AFFINITY)))

#define SINKS_MAX 8
struct sinks {
	struct sink *k[SINKS_MAX];
	int n;
	/* The --from/--to window, from the first timed event (to 0: the end): the events
	 * outside it reach only the sinks that keep the window themselves (whole). */
	uint64_t from_ns, to_ns;
	uint64_t first_ns, last_ns;	/* the first and the last timed event delivered (not a
					 * name, a mask, a lost count, a memory sample or a
					 * sched_setaffinity call), in the window or not */
	bool have_first;
	uint64_t windowed;		/* events left out by the window */
};

/* Add k at the end of l: sinks are given each event in the order they were added. */
void sinks_add(struct sinks *l, struct sink *k);
/* Every sink not begun yet learns what the stream records. */
void sinks_begin(struct sinks *l, const struct sink_begin *b);
/* What the buffers hold to their sinks, then each sink's own flush. */
void sinks_flush(struct sinks *l);
/* Under the reader's lock, then without it: results up to now while collection goes on. */
void sinks_snapshot(struct sinks *l);
void sinks_snapshot_tables(struct sinks *l, struct sched_results *dst);
/* At the source's end: what names the stacks, to each sink that asks (sink_end). */
void sinks_end(struct sinks *l, const struct sink_end *e);
/* Last added first (a sink that consults a later one finishes after it). */
void sinks_finish(struct sinks *l);
void sinks_release(struct sinks *l);
/* The first sink that needs every event and has no stand-in (so refuses an aggregating
 * source), or NULL. */
const struct sink *sinks_refusing(const struct sinks *l);
/* An aggregating source stands in for every sink that allows it: where their results go
 * into si (zeroed first), the wakeup sink begun with b. */
void sinks_stand_in(struct sinks *l, struct sink_stand_in *si, const struct sink_begin *b);
/* The sink that takes whole records, or NULL. */
struct sink *sinks_raw(const struct sinks *l);

/* The hot path: one event to a sink, into its buffer where it has one. */
static inline void sink_take(struct sink *k, const struct event *e)
{
	struct sink_buf *b = k->buf;

	if (!b) {
		k->ops->consume(k, e);
		return;
	}
	b->ev[b->n++] = *e;
	if (b->n == SINK_BATCH) {
		k->ops->consume_batch(k, b->ev, b->n);
		b->n = 0;
	}
}

/* Whether e, a timed event, falls outside the window (forks and exits never do). */
bool sinks_windowed(struct sinks *l, const struct event *e);

/* The window's bookkeeping of one event: whether it falls outside it. */
static inline bool sinks_outside(struct sinks *l, const struct event *e)
{
	/* a name or a mask holds from its time on, whatever the window; a lost count has no
	 * time (0: never the window's origin); a memory sample comes in no order; a
	 * sched_setaffinity call is the collector's (it becomes the mask), which a file's
	 * replay hands on and the live stream does not: never the origin, or the windows of
	 * a recording and of its own pass would differ (the recorder's own visit of the
	 * CPUs is often its file's first record) */
	if (e->type == EV_COMM || e->type == EV_LOST || e->type == EV_MEM ||
	    e->type == EV_AFFINITY || (EV_SYSCALL_TYPES >> e->type & 1))
		return false;
	if (!l->have_first) {
		l->first_ns = e->time_ns;
		l->have_first = true;
	}
	if (e->time_ns > l->last_ns)
		l->last_ns = e->time_ns;
	return (l->from_ns || l->to_ns) && sinks_windowed(l, e);
}

/* One event in time order to every sink that takes its type (outside the window: only to
 * those that keep it themselves); a memory sample, in no order, to those that take it. */
static inline void sinks_consume(struct sinks *l, const struct event *e)
{
	bool out = sinks_outside(l, e);

	for (int i = 0; i < l->n; i++)
		if ((l->k[i]->types & (1u << e->type)) && (!out || l->k[i]->whole))
			sink_take(l->k[i], e);
}

#endif
