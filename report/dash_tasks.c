/* dash_tasks.c - the tasks pane: top waker -> wakee pairs, then hot cachelines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "dash_panes.h"
#include "names.h"

static const char *const class_short[LOC_NR] = { "CPU", "SMT", "LLC", "node", "remote" };

/* Wakeups of a pair that crossed an LLC (other node included). */
static uint64_t far(const struct pair_stat *p)
{
	return p->by_class[LOC_NODE] + p->by_class[LOC_REMOTE];
}

static int by_far_share(const void *a, const void *b)
{
	const struct pair_stat *x = *(const struct pair_stat *const *)a;
	const struct pair_stat *y = *(const struct pair_stat *const *)b;
	double fx = (double)far(x) / (double)(x->count ? x->count : 1);
	double fy = (double)far(y) / (double)(y->count ? y->count : 1);

	if (fx != fy)
		return fx < fy ? 1 : -1;
	return (x->count < y->count) - (x->count > y->count);
}

static int by_waker(const void *a, const void *b)
{
	const struct pair_stat *x = *(const struct pair_stat *const *)a;
	const struct pair_stat *y = *(const struct pair_stat *const *)b;

	if (x->waker_tid != y->waker_tid)
		return (x->waker_tid > y->waker_tid) - (x->waker_tid < y->waker_tid);
	return (x->wakee_tid > y->wakee_tid) - (x->wakee_tid < y->wakee_tid);
}

static void pair_row(struct canvas *c, int x, int y, int w, const struct dash_view *v,
		     const struct pair_stat *p)
{
	char who[96], a[48], b[48], rate[24], share[24];
	int best = 0, nw = w - 26, room = nw - 3, la, lb;

	for (int k = 1; k < LOC_NR; k++)
		if (p->by_class[k] > p->by_class[best])
			best = k;
	/* both names whole when they fit; else each gets half, and what one leaves the other */
	task_label(a, sizeof(a), p->waker_comm, p->waker_tid, 0);
	task_label(b, sizeof(b), p->wakee_comm, p->wakee_tid, 0);
	la = (int)strlen(a);
	lb = (int)strlen(b);
	if (la + lb > room) {
		if (la <= room / 2)
			lb = room - la;
		else if (lb <= room / 2)
			la = room - lb;
		else
			la = room / 2, lb = room - room / 2;
		task_label(a, sizeof(a), p->waker_comm, p->waker_tid, la);
		task_label(b, sizeof(b), p->wakee_comm, p->wakee_tid, lb);
	}
	snprintf(who, sizeof(who), "%s > %s", a, b);
	canvas_text(c, x, y, nw, CV_NORMAL, who);
	canvas_printf(c, x + nw, y, 9, CV_BOLD, "%9s", dash_fmt_rate(v, p->count, rate,
								   sizeof(rate)));
	canvas_printf(c, x + nw + 10, y, 16, CV_CLASS0 + best, "%-6s %s", class_short[best],
		      fmt_share((double)p->by_class[best], (double)p->count, 0, share,
				sizeof(share)));
}

static int pairs(struct canvas *c, struct dash_rect r, int rows, const struct dash_view *v)
{
	const struct sched_results *s = v->r;
	/* cross-LLC: other node included; where the LLC is unknown, other core */
	const char *const order[] = { "by wakeups", topology_knows(v->topo, LOC_LLC) ?
						    "by cross-LLC share" : "by cross-core share",
				      "by waker" };
	int sort = v->ui->sort[PANE_TASKS] % 3, n = s->npairs, first;
	const struct pair_stat **p;

	char b[24];

	if (rows < 1)
		return 0;
	/* the pair table's bound once a pair was evicted or filtered: each count is within it
	 * of the truth (the whole run's: over at most; an interval's: under at most,
	 * sched_delta.c) */
	canvas_printf(c, r.x + 1, r.y + 1, r.w - 2, CV_DIM, "%-*s %9s %s%s%s",
		      r.w - 28 - (s->pairs_bound ? 20 : 0),
		      "waker > wakee", "wakeups/s", order[sort], s->pairs_bound ? ", counts within " : "",
		      s->pairs_bound ? fmt_short((double)s->pairs_bound, b, sizeof(b)) : "");
	if (!n) {
		canvas_text(c, r.x + 1, r.y + 2, r.w - 2, CV_DIM, "no wakeups between tracked tasks");
		return 2;
	}
	p = xcalloc((size_t)n, sizeof(*p));
	for (int i = 0; i < n; i++)
		p[i] = &s->pairs[i];
	if (sort)
		qsort(p, (size_t)n, sizeof(*p), sort == 1 ? by_far_share : by_waker);
	first = dash_first_row(v->ui->scroll[PANE_TASKS], n, rows - 1);
	for (int i = first; i < n && i - first < rows - 1; i++)
		pair_row(c, r.x + 1, r.y + 2 + i - first, r.w - 2, v, p[i]);
	free(p);
	return rows;
}

static void lines(struct canvas *c, int x, int y, int w, int rows, const struct dash_view *v)
{
	char a[24], b[24], d[24];

	canvas_text(c, x, y, w, CV_TITLE, "hot cachelines (HITM loads, stores)");
	for (int i = 0; i < v->nlines && i < rows - 1; i++) {
		const struct cl_summary *l = &v->lines[i];

		canvas_printf(c, x, y + 1 + i, w, CV_NORMAL,
			      "%#014llx HITM %s (remote %s) stores %s, %d offsets, %llu writers",
			      (unsigned long long)l->addr, fmt_count(l->hitm, a, sizeof(a)),
			      fmt_count(l->remote_hitm, b, sizeof(b)),
			      fmt_count(l->stores, d, sizeof(d)), l->noffsets,
			      (unsigned long long)l->writers);
	}
}

void pane_tasks(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus)
{
	int rows = r.h - 2, prow;

	canvas_box(c, r.x, r.y, r.w, r.h, "3 tasks: who wakes whom", focus);
	if (v->lines) {
		prow = rows / 2 > 2 ? rows / 2 : rows - 1;
		if (!dash_not_traced(c, r.x + 1, r.y + 1, r.w - 2, prow, v))
			pairs(c, r, prow, v);
		if (rows - prow >= 2)
			lines(c, r.x + 1, r.y + 1 + prow, r.w - 2, rows - prow, v);
		return;
	}
	if (!dash_not_traced(c, r.x + 1, r.y + 1, r.w - 2, rows - 1, v))
		pairs(c, r, rows - 1, v);
	canvas_printf(c, r.x + 1, r.y + r.h - 2, r.w - 2, CV_DIM, "cachelines: not supported: %s",
		      v->mem_why ? v->mem_why : "memory sampling is off");
}
