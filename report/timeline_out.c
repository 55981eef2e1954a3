/* timeline_out.c - timeline items into a Chrome trace and an SVG of lanes (timeline_out.h). */
#include "timeline_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../analyzers/tl_lanes.h"
#include "../common/outfile.h"
#include "../common/util.h"
#include "sched_report.h"
#include "svg_timeline.h"
#include "tl_queue.h"
#include "trace_json.h"

#define HUGE_PAGE (2u << 20)
#define BLOCK_BYTES (TL_HELD_BLOCK * sizeof(struct lane_item))

/*
 * A block of held items, in huge pages where the kernel has them: faulting its memory in
 * 4 KiB at a time was most of what holding the items cost. Mapped on its own at a huge
 * page's boundary, and unmapped by trace_pass_free.
 */
static struct lane_item *block(void)
{
	size_t over = BLOCK_BYTES + HUGE_PAGE;
	char *m = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t at;

	if (m == MAP_FAILED) { /* as xmalloc says it */
		fprintf(stderr, "locus: out of memory allocating %zu bytes\n", over);
		abort();
	}
	at = ((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (at > (uintptr_t)m)
		munmap(m, at - (uintptr_t)m);
	munmap((char *)at + BLOCK_BYTES, (uintptr_t)m + over - at - BLOCK_BYTES);
	madvise((void *)at, BLOCK_BYTES, MADV_HUGEPAGE);
	return (struct lane_item *)at;
}

/*
 * The index in p->whos of it's task under its name (a new one when it differs from the
 * latest of its tid and pid: a flow has no pid, the periods of its wakee have).
 */
static uint32_t who(struct trace_pass *p, const struct tl_item *it)
{
	uint64_t key = (uint64_t)(uint32_t)it->pid << 32 | (uint32_t)it->tid;
	uint32_t *i = u64map_get(&p->who_idx, key);
	struct lane_who *w;

	if (i) {
		w = &p->whos[*i - 1];
		if (w->workload == it->workload && !memcmp(w->comm, it->comm, sizeof(w->comm)))
			return *i - 1;
	}
	if (p->nwhos == p->cap_whos) {
		p->cap_whos = p->cap_whos ? 2 * p->cap_whos : 1024;
		p->whos = xrealloc(p->whos, p->cap_whos * sizeof(*p->whos));
	}
	w = &p->whos[p->nwhos];
	memset(w, 0, sizeof(*w));
	w->tid = it->tid;
	w->pid = it->pid;
	w->workload = it->workload;
	memcpy(w->comm, it->comm, sizeof(w->comm));
	u64map_put(&p->who_idx, key, (uint32_t)++p->nwhos);
	return (uint32_t)(p->nwhos - 1);
}

_Static_assert(sizeof(struct lane_item) == 32, "a held item is half a cache line");

/* it, as the lanes will read it, at the end of the held items */
static void hold(struct trace_pass *p, const struct tl_item *it)
{
	struct lane_item *h;

	if (p->nheld == p->nblocks * TL_HELD_BLOCK) {
		p->held = xrealloc(p->held, (p->nblocks + 1) * sizeof(*p->held));
		p->held[p->nblocks++] = block();
	}
	h = &p->held[p->nheld / TL_HELD_BLOCK][p->nheld % TL_HELD_BLOCK];
	p->nheld++;
	*h = (struct lane_item){ it->t0, it->t1, who(p, it), it->cpu, it->from_cpu,
				 (uint8_t)it->kind, (uint8_t)it->cls };
}

/* An item into the trace and the lanes' items (on the queue's thread when it has one). */
static void take(void *ctx, const struct tl_item *it)
{
	struct trace_pass *p = ctx;

	if (p->body)
		trace_json_item(&p->tj, it);
	if (!p->svg)
		return;
	switch (it->kind) { /* what the lanes keep of each (tl_lanes_item) */
	case TL_SLICE:
	case TL_FLOW:
		hold(p, it);
		break;
	case TL_MIGRATE:
		p->migrations++;
		p->wl_migrations += it->workload;
		break;
	case TL_PASSED:
		p->passed_seen = true;
		p->passed = it->value;
		break;
	case TL_COUNTER: /* the lanes draw no counter */
		break;
	}
}

void trace_pass_item(void *ctx, const struct tl_item *it)
{
	struct trace_pass *p = ctx;

	if (!p->q)
		take(p, it);
	else if (p->body || it->kind != TL_COUNTER) /* the lanes draw no counter */
		tl_queue_push(p->q, it);
}

void trace_pass_started(void *ctx, uint64_t first_ns)
{
	struct trace_pass *p = ctx;

	p->started = true;
	p->first_ns = first_ns;
}

/* A scratch file for the trace's items, gone when closed. NULL after saying why. */
static FILE *scratch(const char *path)
{
	FILE *f = tmpfile();

	if (!f)
		locus_err("%s: cannot write a scratch file for its events: %s (set TMPDIR)", path,
			  strerror(errno));
	return f;
}

struct trace_pass *trace_pass_open(struct trace_export *x, const char *path)
{
	struct trace_pass *p = xcalloc(1, sizeof(*p));

	p->x = x;
	p->path = path;
	p->svg = x->svg != NULL;
	u64map_init(&p->who_idx);
	if (x->trace) {
		p->body = scratch(x->trace);
		if (!p->body) {
			free(p);
			return NULL;
		}
		trace_json_body(&p->tj, p->body, 0, x->limit);
	}
	p->q = tl_queue_start(take, p);
	return p;
}

/* The lanes, once the span is known: the window, then the items held. */
static void draw_lanes(struct trace_pass *p)
{
	struct tl_lanes_cfg lc = { p->topo, TIMELINE_SVG_WIDTH, 64, TIMELINE_SVG_ARROWS };
	const struct trace_export *x = p->x;
	struct tl_item it = { 0 };

	tl_lanes_init(&p->lanes, &lc);
	if (p->started) {
		uint64_t end = p->first_ns + x->span_ns, t0 = p->first_ns + x->from_ns;

		if (x->to_ns && p->first_ns + x->to_ns < end)
			end = p->first_ns + x->to_ns;
		tl_lanes_window(&p->lanes, p->first_ns, t0, end);
	}
	for (size_t i = 0; i < p->nheld; i++) {
		const struct lane_item *h = &p->held[i / TL_HELD_BLOCK][i % TL_HELD_BLOCK];
		const struct lane_who *w = &p->whos[h->who];

		it.kind = (enum tl_kind)h->kind;
		it.cpu = h->cpu;
		it.from_cpu = h->from_cpu;
		it.t0 = h->t0;
		it.t1 = h->t1;
		it.tid = w->tid;
		it.pid = w->pid;
		memcpy(it.comm, w->comm, sizeof(it.comm));
		it.workload = w->workload;
		it.cls = (enum locality)h->cls;
		tl_lanes_item(&p->lanes, &it);
	}
	/* as tl_lanes_item takes them: every migration counted, the last count kept */
	p->lanes.migrations += p->migrations;
	p->lanes.wl_migrations += p->wl_migrations;
	if (p->passed_seen) {
		memset(&it, 0, sizeof(it));
		it.kind = TL_PASSED;
		it.value = p->passed;
		tl_lanes_item(&p->lanes, &it);
	}
}

static void trace_doc(FILE *f, void *ctx)
{
	struct trace_pass *p = ctx;
	struct trace_export *x = p->x;

	p->tj.ncpus = p->topo->ncpus;
	if (trace_json_deferred_end(&p->tj, f, p->path, x->r, x->events, x->bytes) < 0)
		snprintf(x->err, sizeof(x->err), "the trace's head is over %u bytes",
			 TRACE_JSON_HEAD_MAX);
	x->tbytes = p->tj.bytes;
	x->dropped = p->tj.dropped;
}

static void svg_doc(FILE *f, void *ctx)
{
	struct trace_pass *p = ctx;
	struct svg_timeline_info in = { p->path, p->x->r, p->x->events, p->x->bytes,
					p->tl->missed, p->cap };

	svg_timeline(f, &p->lanes, &in);
}

static void say(const struct trace_pass *p)
{
	const struct trace_export *x = p->x;
	const struct timeline *tl = p->tl;
	char a[32], b[32];

	if (x->trace && x->dropped)
		locus_err("%s: stopped at the limit of %llu MiB (--trace-limit): %llu events left "
			  "out; narrow the window with --from/--to", x->trace,
			  (unsigned long long)(x->limit >> 20), (unsigned long long)x->dropped);
	locus_verbose("%s: %llu flows of the workload the analyzer did not judge, %llu of its "
		      "verdicts on wakeups that made no flow", p->path,
		      (unsigned long long)tl->unjudged, (unsigned long long)tl->judged_unseen);
	if (x->quiet)
		return;
	if (tl->missed)
		fprintf(stderr, "locus: %s switch-ins inferred: the recording lacks them (the "
				"kernel switched but sent no record, beyond any the rings lost): those periods start at the "
				"task's first event on the CPU (none drawn that ended there)\n",
			fmt_count(tl->missed, a, sizeof(a)));
	if (x->trace)
		fprintf(stderr, "locus: %s: %s bytes, %llu running periods, %llu wakeup flows, "
				"%llu migrations, %llu counter values\n",
			x->trace, fmt_count(x->tbytes, a, sizeof(a)), (unsigned long long)x->slices,
			(unsigned long long)x->flows, (unsigned long long)x->migrations,
			(unsigned long long)x->counters);
	if (x->svg)
		fprintf(stderr, "locus: %s: %s of %s, %d lanes (one per %s), %d wakeup arrows of "
				"%s\n",
			x->svg, fmt_ns(p->lanes.t1 - p->lanes.t0, a, sizeof(a)), p->path,
			p->lanes.fold.n, p->lanes.fold.unit, p->lanes.narrows,
			fmt_count(p->lanes.wl_flows, b, sizeof(b)));
}

int trace_pass_emit(struct trace_pass *p, const struct topology *topo, const struct timeline *tl,
		    const struct svg_caption *cap)
{
	struct trace_export *x = p->x;

	tl_queue_finish(p->q); /* every item taken: what follows reads what take wrote */
	p->q = NULL;
	p->topo = topo;
	p->tl = tl;
	p->cap = cap;
	x->err[0] = '\0';
	if (p->svg)
		draw_lanes(p);
	if (x->trace && write_file_atomically(x->trace, trace_doc, p) < 0)
		return -1;
	x->slices = tl->slices;
	x->flows = tl->flows;
	x->migrations = tl->migrations;
	x->counters = tl->counters;
	if (x->err[0]) {
		locus_err("%s: %s", p->path, x->err);
		return -1;
	}
	if (x->svg && write_file_atomically(x->svg, svg_doc, p) < 0)
		return -1;
	say(p);
	return 0;
}

void trace_pass_free(struct trace_pass *p)
{
	if (!p)
		return;
	tl_queue_finish(p->q);
	if (p->body)
		fclose(p->body);
	trace_json_release(&p->tj);
	if (p->svg && p->lanes.px)
		tl_lanes_release(&p->lanes);
	for (size_t i = 0; i < p->nblocks; i++)
		munmap(p->held[i], BLOCK_BYTES);
	free(p->held);
	free(p->whos);
	u64map_release(&p->who_idx);
	free(p);
}
