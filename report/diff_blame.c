/* diff_blame.c - locus diff's account of a p99 change from the two runs' blame: what moved
 * in the p99 wakeups' wait, per wakeup, by cause and by the tasks that ran instead. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "sched_report.h"
#include "sweep_report.h"

#define MOVERS 3

static const char *const cause_words[SWEEP_BLAME_CAUSES] = {
	NULL, NULL, /* ran instead: named by task */
	"hardirq", "softirq", "waited elsewhere first", "its CPU idle", "unattributed",
};

struct mover {
	char what[64];
	double delta_ns;	/* per p99 wakeup, new minus base */
};

/* Signed time: "+35.0 us", "-1.20 ms". */
static const char *fmt_delta(double ns, char *buf, size_t len)
{
	double a = fabs(ns);
	const char *sign = ns < 0 ? "-" : "+";

	if (a >= 1e6)
		snprintf(buf, len, "%s%.2f ms", sign, a / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%s%.1f us", sign, a / 1e3);
	else
		snprintf(buf, len, "%s%.0f ns", sign, a);
	return buf;
}

static double per(const struct sweep_blame *b, double ns)
{
	return b->p99_wakeups > 0 ? ns / b->p99_wakeups : 0;
}

static double task_ns(const struct sweep_blame *b, const char *comm)
{
	for (int i = 0; i < b->ntasks; i++)
		if (!strcmp(b->task[i].comm, comm))
			return b->task[i].ns;
	return 0;
}

static double sum_by(const struct sweep_blame *b)
{
	double t = 0;

	for (int c = 0; c < SWEEP_BLAME_CAUSES; c++)
		t += b->by[c];
	return t;
}

static int by_move(const void *x, const void *y)
{
	double a = fabs(((const struct mover *)x)->delta_ns);
	double b = fabs(((const struct mover *)y)->delta_ns);

	return (a < b) - (a > b);
}

/* Every cause and task name of either side, with its move per p99 wakeup, into m. */
static int movers(const struct sweep_blame *a, const struct sweep_blame *b, struct mover *m)
{
	int n = 0;

	for (int c = 0; c < SWEEP_BLAME_CAUSES; c++)
		if (cause_words[c]) {
			snprintf(m[n].what, sizeof(m[n].what), "%s", cause_words[c]);
			m[n++].delta_ns = per(b, b->by[c]) - per(a, a->by[c]);
		}
	for (int side = 0; side < 2; side++) {
		const struct sweep_blame *s = side ? b : a;

		for (int i = 0; i < s->ntasks; i++) {
			if (side && task_ns(a, s->task[i].comm) > 0)
				continue; /* counted from the base side */
			snprintf(m[n].what, sizeof(m[n].what), "%s ran instead", s->task[i].comm);
			m[n++].delta_ns = per(b, task_ns(b, s->task[i].comm)) -
					  per(a, task_ns(a, s->task[i].comm));
		}
	}
	qsort(m, (size_t)n, sizeof(*m), by_move);
	return n;
}

void diff_blame_text(FILE *f, const struct sweep_set *base, const struct sweep_set *cur)
{
	const struct sweep_blame *a = &base->blame, *b = &cur->blame;
	struct mover m[SWEEP_BLAME_CAUSES + 2 * SWEEP_BLAME_TASKS];
	char d[32], x[32], y[32];
	int n;

	if (!a->present && !b->present)
		return;
	fprintf(f, "\n   Why the p99 wait moved (each run's p99 wakeups, per wakeup, from "
		   "--sections blame)\n");
	if (!a->present || !b->present) {
		fprintf(f, "   only the %s run has it: run both with --sections blame\n",
			a->present ? "base" : "new");
		return;
	}
	n = movers(a, b, m);
	fprintf(f, "   p99 wake-to-run %s -> %s (%s)", fmt_ns((uint64_t)a->p99_ns, x, sizeof(x)),
		fmt_ns((uint64_t)b->p99_ns, y, sizeof(y)), fmt_delta(b->p99_ns - a->p99_ns, d,
								     sizeof(d)));
	for (int i = 0; i < n && i < MOVERS && fabs(m[i].delta_ns) >= 1; i++)
		fprintf(f, "%s %s %s", i ? "," : ":", fmt_delta(m[i].delta_ns, d, sizeof(d)),
			m[i].what);
	fprintf(f, "\n   (the mean wait of a p99 wakeup, by what it waited for: %s -> %s)\n",
		fmt_ns((uint64_t)per(a, sum_by(a)), x, sizeof(x)),
		fmt_ns((uint64_t)per(b, sum_by(b)), y, sizeof(y)));
}
