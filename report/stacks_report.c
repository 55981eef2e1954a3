/* stacks_report.c - folded stacks, and the top stacks in text and JSON (stacks_report.h). */
#define _GNU_SOURCE /* qsort_r */
#include "stacks_report.h"

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytebuf.h"
#include "../common/folded.h"
#include "../common/util.h"

#define FRAMES_MAX 1024 /* a stack's frames written at most (the kernel's limit is 127) */
#define TEXT_FRAMES 8	/* and in the text report, leaf first (--folded has them all) */
#define STACKS_TEXT_WIDTH 80 /* a stack's frames folded to this many columns */

/* Stack id's frames leaf first, without the context markers: how many (at most max). */
static uint32_t frames_of(const struct stack_table *t, uint32_t id, uint64_t *addr,
			  uint8_t *kern, uint32_t max, int32_t *pid)
{
	uint32_t nr = 0, n = 0;
	const uint64_t *ips = stack_get(t, id, &nr, pid);
	uint8_t kernel = 0;

	for (uint32_t i = 0; ips && i < nr && n < max; i++) {
		if (ips[i] >= (uint64_t)PERF_CONTEXT_MAX) { /* a marker: whose frames follow */
			kernel = ips[i] == (uint64_t)PERF_CONTEXT_KERNEL ||
				 ips[i] == (uint64_t)PERF_CONTEXT_GUEST_KERNEL;
			continue;
		}
		addr[n] = ips[i];
		kern[n++] = kernel;
	}
	return n;
}

static void put_frame(struct bytebuf *b, const struct stacks_frames *fr, int32_t pid,
		      uint64_t addr, int kernel)
{
	char buf[512];
	const char *name = NULL;

	if (fr->addresses) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
		name = buf;
	} else if (fr->namer) {
		name = fr->namer->name(fr->namer->ctx, pid, addr, kernel, buf, sizeof(buf));
	}
	if (!name) {
		name = "[unknown]";
		kernel = 0;
	}
	bytebuf_put(b, name, strlen(name));
	if (kernel && !fr->addresses)
		bytebuf_put(b, "_[k]", 4);
}

/*
 * Whether the frame is the tracepoint's own iterator (__traceiter_sched_waking): the
 * kernel calls a tracepoint through it only while more than one probe is attached (another
 * perf or BPF user), else straight through its static call, so the same code path records
 * with and without it. Dropped at the leaf, where it stands, so both fold to one stack.
 */
static bool tracing_leaf(const struct stacks_frames *fr, int32_t pid, uint64_t addr, int kernel)
{
	static const char iter[] = "__traceiter_";
	char buf[512];
	const char *name;

	if (!kernel || fr->addresses || !fr->namer)
		return false;
	name = fr->namer->name(fr->namer->ctx, pid, addr, kernel, buf, sizeof(buf));
	return name && !strncmp(name, iter, sizeof(iter) - 1);
}

/* Stack id's frames into b: root first (leaf_first 0) or leaf first, ';' between them. */
static void put_stack(struct bytebuf *b, const struct stacks_frames *fr, uint32_t id,
		      int leaf_first, const char *sep, uint32_t max)
{
	uint64_t addr[FRAMES_MAX];
	uint8_t kern[FRAMES_MAX];
	int32_t pid = 0;
	uint32_t n = frames_of(fr->tab, id, addr, kern, max, &pid), leaf = 0;

	while (leaf + 1 < n && tracing_leaf(fr, pid, addr[leaf], kern[leaf]))
		leaf++; /* frames_of gives the leaf first */
	memmove(addr, addr + leaf, (n - leaf) * sizeof(addr[0]));
	memmove(kern, kern + leaf, (n - leaf) * sizeof(kern[0]));
	n -= leaf;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t at = leaf_first ? i : n - 1 - i;

		if (i)
			bytebuf_put(b, sep, strlen(sep));
		put_frame(b, fr, pid, addr[at], kern[at]);
	}
}

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct stacks_line *)a)->text, ((const struct stacks_line *)b)->text);
}

void stacks_folded_lines(const struct stacks *s, enum stacks_kind k, int by_time,
			 const struct stacks_frames *fr, struct stacks_lines *out)
{
	const struct stacks_view *v = &s->v[k];
	struct stacks_line *ln = xcalloc(v->n ? v->n : 1, sizeof(*ln));
	size_t n = 0, kept = 0;

	for (uint32_t i = 0; i < v->n; i++) {
		const struct stacks_row *r = &v->row[i];
		struct bytebuf b = { 0 };

		put_stack(&b, fr, r->stack, 0, ";", FRAMES_MAX);
		if (k == STACKS_OFFWAKE) {
			bytebuf_put(&b, ";--;", 4);
			put_stack(&b, fr, r->waker, 1, ";", FRAMES_MAX);
		}
		bytebuf_put(&b, "", 1);
		if (!fr->addresses && !fr->keep_unknown) /* two walks of one path: one stack */
			folded_fold_unknown((char *)b.p);
		ln[n++] = (struct stacks_line){ (char *)b.p, by_time ? r->time_ns / 1000 : r->count };
	}
	qsort(ln, n, sizeof(*ln), by_text);
	for (size_t i = 0; i < n;) { /* the same frames (other classes, processes) summed */
		uint64_t w = 0;
		size_t j = i;

		for (; j < n && !strcmp(ln[j].text, ln[i].text); j++)
			w += ln[j].weight;
		for (size_t d = i + 1; d < j; d++)
			free(ln[d].text);
		if (w)
			ln[kept++] = (struct stacks_line){ ln[i].text, w };
		else
			free(ln[i].text);
		i = j;
	}
	out->line = ln;
	out->n = kept;
}

void stacks_lines_release(struct stacks_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i].text);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

long stacks_write_folded(FILE *f, const struct stacks *s, enum stacks_kind k, int by_time,
			 const struct stacks_frames *fr)
{
	struct stacks_lines l;

	long n;

	stacks_folded_lines(s, k, by_time, fr, &l);
	for (size_t i = 0; i < l.n; i++)
		fprintf(f, "%s %" PRIu64 "\n", l.line[i].text, l.line[i].weight);
	n = (long)l.n;
	stacks_lines_release(&l);
	return ferror(f) ? -1 : n;
}

struct merged {
	char *key;		/* class, then every frame: rows of other processes merge */
	struct stacks_row r;	/* the first row's stacks, the sums */
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct merged *)a)->key, ((const struct merged *)b)->key);
}

static int by_weight_desc(const void *a, const void *b, void *arg)
{
	const struct stacks_row *x = &((const struct merged *)a)->r;
	const struct stacks_row *y = &((const struct merged *)b)->r;
	uint64_t vx = *(int *)arg ? x->time_ns : x->count, vy = *(int *)arg ? y->time_ns : y->count;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return strcmp(((const struct merged *)a)->key, ((const struct merged *)b)->key);
}

/* View k's rows with the same class and frames summed (a stack of each of 40 processes is
 * one), most first; *n of them, the caller frees the array with merged_free. */
static struct merged *merged_rows(const struct stacks *s, enum stacks_kind k, int by_time,
				  const struct stacks_frames *fr, uint32_t *n)
{
	const struct stacks_view *v = &s->v[k];
	struct merged *m = xcalloc(v->n ? v->n : 1, sizeof(*m));
	uint32_t kept = 0;

	for (uint32_t i = 0; i < v->n; i++) {
		struct bytebuf b = { 0 };
		char cls[8];

		snprintf(cls, sizeof(cls), "%d\t", v->row[i].cls);
		bytebuf_put(&b, cls, strlen(cls));
		put_stack(&b, fr, v->row[i].stack, 0, ";", FRAMES_MAX);
		bytebuf_put(&b, "\t", 1);
		put_stack(&b, fr, v->row[i].waker, 0, ";", FRAMES_MAX);
		bytebuf_put(&b, "", 1);
		m[i] = (struct merged){ (char *)b.p, v->row[i] };
	}
	qsort(m, v->n, sizeof(*m), by_key);
	for (uint32_t i = 0; i < v->n;) {
		uint32_t j = i + 1;

		for (; j < v->n && !strcmp(m[j].key, m[i].key); j++) {
			m[i].r.count += m[j].r.count;
			m[i].r.time_ns += m[j].r.time_ns;
			m[i].r.timed += m[j].r.timed;
			free(m[j].key);
		}
		m[kept++] = m[i];
		i = j;
	}
	qsort_r(m, kept, sizeof(*m), by_weight_desc, &by_time);
	*n = kept;
	return m;
}

static void merged_free(struct merged *m, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(m[i].key);
	free(m);
}

static const char *const kind_title[STACKS_KINDS] = {
	"waker stacks (what code woke a task), by wakeups",
	"blocked stacks (why a task slept: voluntary switch-outs), by time off CPU",
	"off-wake stacks (the blocked stack, then its waker's), by time off CPU",
};

static const char *class_label(const struct topology *t, int cls)
{
	if (cls == STACKS_NO_WAKEUP)
		return "no wakeup seen";
	if (cls == STACKS_NOT_RUN)
		return "did not run after";
	return topology_class_label(t, (enum locality)cls);
}

/* A stack as text, leaf first, its first TEXT_FRAMES frames (the caller frees it). */
static char *stack_text(const struct stacks_frames *fr, uint32_t id)
{
	struct bytebuf b = { 0 };

	put_stack(&b, fr, id, 1, " <- ", TEXT_FRAMES);
	bytebuf_put(&b, "", 1);
	return (char *)b.p;
}

/* A row: its weight and class on a line, then its stack (and waker's) folded under it. */
static void row_text(FILE *f, const struct stacks_frames *fr, const struct topology *topo,
		     const struct stacks_row *r, enum stacks_kind k)
{
	char a[32], b[32], *t = stack_text(fr, r->stack);

	if (k != STACKS_WAKERS) /* the time off CPU, then the sleeps */
		fprintf(f, "    %11s %8s  %s\n", fmt_ns(r->time_ns, b, sizeof(b)),
			fmt_count(r->count, a, sizeof(a)), class_label(topo, r->cls));
	else
		fprintf(f, "    %10s  %s\n", fmt_count(r->count, a, sizeof(a)),
			class_label(topo, r->cls));
	fprint_folded(f, "          ", t, 10, STACKS_TEXT_WIDTH);
	free(t);
	if (k == STACKS_OFFWAKE) {
		t = stack_text(fr, r->waker);
		fprint_folded(f, "          woken by ", t, 19, STACKS_TEXT_WIDTH);
		free(t);
	}
}

/* The BPF collector's sample: what each count is, what was dropped and why. */
static void sampled_text(FILE *f, const struct stacks_sampled *p)
{
	char a[32], b[32], c[32], e[32], g[32], h[32], i[32], t[600];

	snprintf(t, sizeof(t), "sampled in the kernel (BPF): the waker's stack at 1 in %u wakeups "
		 "(%.2f%%: of the timed ones, at random), the blocked stack at 1 in %u voluntary "
		 "switch-outs (%.2f%%) with the waker that ended its sleep; each count below is a "
		 "sample", p->every_waker, 100.0 / p->every_waker, p->every_blocked,
		 100.0 / p->every_blocked);
	fprint_folded(f, "  ", t, 2, STACKS_TEXT_WIDTH);
	snprintf(t, sizeof(t), "%s waker, %s blocked, %s off-wake samples taken; dropped: %s "
		 "stack table full, %s stack walks failed, %s counts table full, %s switch-ins "
		 "unseen", fmt_count(p->taken_waker, a, sizeof(a)),
		fmt_count(p->taken_blocked, b, sizeof(b)), fmt_count(p->taken_offwake, c, sizeof(c)),
		fmt_count(p->enomem, e, sizeof(e)),
		fmt_count(p->eother, g, sizeof(g)), fmt_count(p->full, h, sizeof(h)),
		fmt_count(p->lost, i, sizeof(i)));
	fprint_folded(f, "  ", t, 2, STACKS_TEXT_WIDTH);
	if (p->tgids_gone)
		fprintf(f, "  user frames of %s of %s processes unnamed: gone before their maps "
			"were read\n", fmt_count(p->tgids_gone, a, sizeof(a)),
			fmt_count(p->tgids, b, sizeof(b)));
}

void stacks_report_text(FILE *f, const struct stacks *s, const struct stacks_frames *fr,
			int top)
{
	char a[32], b[32], c[32], d[32];

	fputc('\n', f);
	fprint_folded(f, "Stacks ", s->in_scope ? "(callchains of sched_waking and sched_switch; "
		      "wakeups and sleeps of the tasks followed):" : "(callchains of sched_waking "
		      "and sched_switch; every task in the file):", 2, STACKS_TEXT_WIDTH);
	if (s->sampled.every_waker)
		sampled_text(f, &s->sampled);
	else
		fprintf(f, "  %s wakings, %s without a callchain; %s voluntary switch-outs, %s "
			"without\n", fmt_count(s->wakings, a, sizeof(a)),
			fmt_count(s->wakings_nostack, b, sizeof(b)),
			fmt_count(s->switches_voluntary, c, sizeof(c)),
			fmt_count(s->switches_nostack, d, sizeof(d)));
	for (int k = 0; k < STACKS_KINDS; k++) {
		const struct stacks_view *v = &s->v[k];
		int by_time = k != STACKS_WAKERS;
		uint32_t nm;
		struct merged *m = merged_rows(s, (enum stacks_kind)k, by_time, fr, &nm);
		uint64_t cls_count[STACKS_CLASSES] = { 0 };

		char head[400], by[400];
		size_t at = 0;

		snprintf(head, sizeof(head), "%s: %s in %s stacks and classes%s%s%s%s%s", kind_title[k],
			 fmt_count(v->count, a, sizeof(a)), fmt_count(nm, d, sizeof(d)),
			 by_time ? ", " : "", by_time ? fmt_ns(v->time_ns, c, sizeof(c)) : "",
			 by_time ? " off CPU over " : "",
			 by_time ? fmt_count(v->timed, b, sizeof(b)) : "", by_time ? " timed" : "");
		fputc('\n', f);
		fprint_folded(f, "  ", head, 4, STACKS_TEXT_WIDTH);
		for (uint32_t i = 0; i < v->n; i++)
			cls_count[v->row[i].cls] += v->row[i].count;
		by[0] = '\0';
		for (int cl = 0; cl < STACKS_CLASSES && at < sizeof(by); cl++)
			if (cls_count[cl])
				at += (size_t)snprintf(by + at, sizeof(by) - at, "%s%s %s",
						       at ? "; " : "", class_label(s->topo, cl),
						       fmt_count(cls_count[cl], a, sizeof(a)));
		fprint_folded(f, "    by class (the CPU it ran on, seen from its waker's): ", by, 6,
			      STACKS_TEXT_WIDTH);
		for (uint32_t i = 0; i < nm && (int)i < top; i++)
			row_text(f, fr, s->topo, &m[i].r, (enum stacks_kind)k);
		if (nm > (uint32_t)top && top >= 0)
			fprintf(f, "    ... %s more stacks and classes (the JSON and --folded have "
				"every one)\n", fmt_count(nm - (uint32_t)top, a, sizeof(a)));
		merged_free(m, nm);
	}
}

static void json_frames(struct json *j, const char *key, const struct stacks_frames *fr,
			uint32_t id)
{
	uint64_t addr[FRAMES_MAX];
	uint8_t kern[FRAMES_MAX];
	int32_t pid = 0;
	uint32_t n = frames_of(fr->tab, id, addr, kern, FRAMES_MAX, &pid);

	json_array(j, key); /* leaf first, as perf script lists them */
	for (uint32_t i = 0; i < n; i++) {
		struct bytebuf b = { 0 };
		char hex[32];

		put_frame(&b, fr, pid, addr[i], kern[i]);
		bytebuf_put(&b, "", 1);
		json_object(j, NULL);
		snprintf(hex, sizeof(hex), "0x%" PRIx64, addr[i]);
		json_string(j, "addr", hex);
		json_string(j, "name", (const char *)b.p);
		json_bool(j, "kernel", kern[i]);
		json_object_end(j);
		free(b.p);
	}
	json_array_end(j);
}

void stacks_report_json(struct json *j, const struct stacks *s, const struct stacks_frames *fr,
			int top)
{
	json_object(j, "stacks");
	json_string(j, "scope", s->in_scope ? "followed" : "all");
	json_uint(j, "wakings", s->wakings);
	json_uint(j, "wakings_without_callchain", s->wakings_nostack);
	json_uint(j, "voluntary_switches", s->switches_voluntary);
	json_uint(j, "voluntary_switches_without_callchain", s->switches_nostack);
	if (s->sampled.every_waker) {
		const struct stacks_sampled *p = &s->sampled;

		json_object(j, "sampled"); /* the BPF collector's: counts are samples */
		json_uint(j, "waker_every", p->every_waker);
		json_uint(j, "blocked_every", p->every_blocked);
		json_uint(j, "taken_waker", p->taken_waker);
		json_uint(j, "taken_blocked", p->taken_blocked);
		json_uint(j, "taken_offwake", p->taken_offwake);
		json_uint(j, "dropped_stacks_full", p->enomem);
		json_uint(j, "dropped_walk_failed", p->eother);
		json_uint(j, "dropped_table_full", p->full);
		json_uint(j, "switch_in_unseen", p->lost);
		json_uint(j, "processes", p->tgids);
		json_uint(j, "processes_gone_before_maps", p->tgids_gone);
		json_object_end(j);
	}
	for (int k = 0; k < STACKS_KINDS; k++) {
		const struct stacks_view *v = &s->v[k];
		uint32_t nm;
		struct merged *m = merged_rows(s, (enum stacks_kind)k, k != STACKS_WAKERS, fr, &nm);
		uint64_t cc[STACKS_CLASSES] = { 0 }, ct[STACKS_CLASSES] = { 0 };

		json_object(j, stacks_kind_name((enum stacks_kind)k));
		json_uint(j, "count", v->count);
		json_uint(j, "rows", nm);
		if (k != STACKS_WAKERS) {
			json_uint(j, "time_ns", v->time_ns);
			json_uint(j, "timed", v->timed);
		}
		for (uint32_t i = 0; i < v->n; i++) {
			cc[v->row[i].cls] += v->row[i].count;
			ct[v->row[i].cls] += v->row[i].time_ns;
		}
		json_object(j, "by_class");
		for (int c = 0; c < STACKS_CLASSES; c++) {
			json_object(j, stacks_class_name(c));
			json_uint(j, "count", cc[c]);
			if (k != STACKS_WAKERS)
				json_uint(j, "time_ns", ct[c]);
			json_object_end(j);
		}
		json_object_end(j);
		json_array(j, "top");
		for (uint32_t i = 0; i < nm && (int)i < top; i++) {
			const struct stacks_row *r = &m[i].r;

			json_object(j, NULL);
			json_string(j, "class", stacks_class_name(r->cls));
			json_uint(j, "count", r->count);
			if (k != STACKS_WAKERS) {
				json_uint(j, "time_ns", r->time_ns);
				json_uint(j, "timed", r->timed);
			}
			json_frames(j, "frames", fr, r->stack);
			if (k == STACKS_OFFWAKE)
				json_frames(j, "waker_frames", fr, r->waker);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
		merged_free(m, nm);
	}
	json_object_end(j);
}
