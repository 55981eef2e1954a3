/* dash_blame.c - the antagonists pane: the tasks that delayed woken tasks most over the
 * span (the last interval, or since the start), and the span's wait split by cause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "dash_panes.h"

#define TASKS_MAX 8	/* rows wanted for the tasks (the focused pane scrolls to the rest) */
#define ITEMS_MAX 10

/* The span's wait and its causes as items a line holds whole. Their number. */
static int cause_items(const struct blame_live *b, char it[ITEMS_MAX][64])
{
	const struct blame_split *s = &b->all;
	char t[32], n[32], x[6][16];
	int k = 0;

#define SH(v, i) fmt_share((double)(v), (double)s->wait_ns, 1, x[i], sizeof(x[i]))
	snprintf(it[k++], 64, "%s wakeup%s waited %s:", fmt_count(s->wakeups, n, sizeof(n)),
		 s->wakeups == 1 ? "" : "s", dash_fmt_ns(s->wait_ns, t, sizeof(t)));
	snprintf(it[k++], 64, "ran instead %s", SH(s->ns[BC_RUNNING] + s->ns[BC_AHEAD], 0));
	if (b->irq_source) {
		snprintf(it[k++], 64, "hardirq %s", SH(s->ns[BC_HARDIRQ], 1));
		snprintf(it[k++], 64, "softirq %s", SH(s->ns[BC_SOFTIRQ], 2));
	} else {
		snprintf(it[k++], 64, "irq: not recorded (in the tasks')");
	}
	snprintf(it[k++], 64, "elsewhere %s", SH(s->ns[BC_ELSEWHERE], 3));
	snprintf(it[k++], 64, "its CPU idle %s", SH(s->ns[BC_IDLE], 4));
	snprintf(it[k++], 64, "unattributed %s", SH(s->ns[BC_UNKNOWN], 5));
	/* beside the split: the part of it while an allowed CPU idled */
	snprintf(it[k++], 64, "| %s of the wait while an allowed CPU idled",
		 SH(s->idle_passed_ns, 0));
#undef SH
	if (b->in_kernel) { /* the BPF collector's split: what it is, what it has not */
		if (b->sample_every > 1)
			snprintf(it[k++], 64, "| split in the kernel: 1 in %u wakeups (sampled)",
				 b->sample_every);
		else
			snprintf(it[k++], 64, "| split in the kernel: every wakeup");
		snprintf(it[k++], 64, "| not in the kernel's split: irq names, chains, p99");
	}
	return k;
}

/* The items in rows of width w from (x, y), at most rows of them (c NULL: only counted).
 * The rows used. */
static int place(struct canvas *c, int x, int y, int w, int rows, char it[][64], int n)
{
	int row = 0, at = 0;

	for (int i = 0; i < n; i++) {
		const char *s = it[i];
		int len = (int)strlen(s);

		if (at && at + 2 + len > w) {
			if (row + 1 == rows)
				break; /* the rest left out */
			row++;
			at = 0;
		}
		if (!at && !strncmp(s, "| ", 2)) { /* "beside": a row's first item has no left */
			s += 2;
			len -= 2;
		}
		at += at ? 2 : 0;
		if (c)
			canvas_text(c, x + at, y + row, w - at, i ? CV_NORMAL : CV_BOLD, s);
		at += len;
	}
	return at ? row + 1 : row;
}

/* The rows canvas_wrap takes for s at width w (it breaks at spaces). */
static int wrap_rows(const char *s, int w)
{
	int rows = 0;

	if (w < 4)
		return 1;
	while (*s == ' ')
		s++;
	for (; *s; rows++) {
		int len = (int)strlen(s), cut = len;

		if (len > w) {
			for (cut = w; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = w;
		}
		s += cut;
		while (*s == ' ')
			s++;
	}
	return rows;
}

int dash_blame_want(const struct dash_view *v, int w)
{
	char it[ITEMS_MAX][64];
	char why[320];
	int split, tasks;

	if (!v->ui->blame_pane || v->ui->blame_hidden)
		return 0;
	if (v->why_not || !v->blame) { /* the reason, wrapped */
		if (v->why_not)
			snprintf(why, sizeof(why), "not traced: %s", v->why_not);
		else
			snprintf(why, sizeof(why), "%s", v->blame_why ? v->blame_why : "?");
		return wrap_rows(why, w - 2);
	}
	if (!v->blame->all.wakeups)
		return 1; /* none ran: said in a row */
	split = place(NULL, 0, 0, w - 2, ITEMS_MAX, it, cause_items(v->blame, it));
	tasks = v->blame->n < TASKS_MAX ? v->blame->n : TASKS_MAX;
	return split + 1 + tasks; /* a heading and the tasks, or a row saying there are none */
}

static int by_wakeups(const void *a, const void *b)
{
	const struct blame_culprit *x = *(const struct blame_culprit *const *)a;
	const struct blame_culprit *y = *(const struct blame_culprit *const *)b;

	if (x->wakeups != y->wakeups)
		return x->wakeups < y->wakeups ? 1 : -1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* One task: name, tid, the wait it inflicted, its share of the span's, wakeups it delayed,
 * and how much of its time it was picked ahead of the wakee (else already running). */
static void task_row(struct canvas *c, int x, int y, int w, const struct blame_live *b,
		     const struct blame_culprit *k)
{
	char t[32], s[16], n[32], a[16];

	canvas_printf(c, x, y, w, CV_NORMAL, "%-16.16s %8d %10s %6s %9s %6s",
		      k->comm[0] ? k->comm : "?", (int)k->tid, dash_fmt_ns(k->ns, t, sizeof(t)),
		      fmt_share((double)k->ns, (double)b->all.wait_ns, 1, s, sizeof(s)),
		      fmt_count(k->wakeups, n, sizeof(n)),
		      fmt_share((double)k->ahead_ns, (double)k->ns, 0, a, sizeof(a)));
}

static void tasks(struct canvas *c, struct dash_rect r, int y, int rows, const struct dash_view *v)
{
	const struct blame_live *b = v->blame;
	const struct blame_culprit **row = xcalloc((size_t)b->n, sizeof(*row));
	int n = b->n, sort = v->ui->sort[PANE_BLAME] % 2, first;

	/* the column the rows are sorted by is marked (key s: the other) */
	canvas_printf(c, r.x + 1, y, r.w - 2, CV_DIM, "%-16s %8s %10s %6s %9s %6s", "task", "tid",
		      sort ? "inflicted" : "inflicted*", "share", sort ? "delayed*" : "delayed",
		      "ahead");
	for (int i = 0; i < n; i++)
		row[i] = &b->culprits[i]; /* by the wait inflicted, most first */
	if (sort)
		qsort(row, (size_t)n, sizeof(row[0]), by_wakeups);
	first = dash_first_row(v->ui->scroll[PANE_BLAME], n, rows - 1);
	for (int i = first; i < n && i - first < rows - 1; i++)
		task_row(c, r.x + 1, y + 1 + i - first, r.w - 2, b, row[i]);
	free(row);
}

/* The task that delayed them most, in one row (where the heading and a table do not fit). */
static void top_row(struct canvas *c, int x, int y, int w, const struct blame_live *b)
{
	const struct blame_culprit *k = &b->culprits[0];
	char t[32], s[16], n[32], all[32], m[32], line[200];
	int len;

	len = snprintf(line, sizeof(line), "most: %s/%d %s (%s of %s), delayed %s of %s wakeups",
		       k->comm[0] ? k->comm : "?", (int)k->tid, dash_fmt_ns(k->ns, t, sizeof(t)),
		       fmt_share((double)k->ns, (double)b->all.wait_ns, 1, s, sizeof(s)),
		       dash_fmt_ns(b->all.wait_ns, all, sizeof(all)),
		       fmt_count(k->wakeups, n, sizeof(n)), fmt_count(b->all.wakeups, m, sizeof(m)));
	if (len > w && len > 8)
		line[len - 8] = '\0'; /* " wakeups" left out: the counts stay whole */
	canvas_text(c, x, y, w, CV_NORMAL, line);
}

void pane_blame(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus)
{
	char it[ITEMS_MAX][64];
	int rows = r.h - 2, x = r.x + 1, w = r.w - 2, give, used;

	canvas_box(c, r.x, r.y, r.w, r.h, "5 antagonists: who delayed woken tasks", focus);
	if (rows < 1 || dash_not_traced(c, x, r.y + 1, w, rows, v))
		return;
	if (!v->blame) {
		canvas_wrap(c, x, r.y + 1, w, rows, CV_DIM, v->blame_why ? v->blame_why : "?");
		return;
	}
	if (!v->blame->all.wakeups) {
		canvas_text(c, x, r.y + 1, w, CV_DIM, v->ui->cumulative ? "no woken task ran yet" :
			    "no woken task ran in this interval");
		return;
	}
	if (rows == 1 && v->blame->n) { /* one row: the task that delayed them most */
		top_row(c, x, r.y + 1, w, v->blame);
		return;
	}
	/* the split, then the tasks: where rows are short, a row for a heading and a task */
	give = rows - 2 < 1 ? 1 : rows - 2;
	used = place(c, x, r.y + 1, w, give, it, cause_items(v->blame, it));
	if (used >= rows)
		return;
	if (!v->blame->n)
		canvas_text(c, x, r.y + 1 + used, w, CV_DIM,
			    "no other task ran on a woken task's CPU while it waited");
	else if (rows - used == 1)
		top_row(c, x, r.y + 1 + used, w, v->blame);
	else
		tasks(c, r, r.y + 1 + used, rows - used, v);
}
