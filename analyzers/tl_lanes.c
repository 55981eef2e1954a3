/* tl_lanes.c - a timeline as pixel lanes and thinned wakeup arrows (tl_lanes.h). */
#include "tl_lanes.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void tl_lanes_init(struct tl_lanes *l, const struct tl_lanes_cfg *cfg)
{
	memset(l, 0, sizeof(*l));
	l->cfg = *cfg;
	if (l->cfg.width < 1)
		l->cfg.width = 1;
	if (l->cfg.max_arrows < 2)
		l->cfg.max_arrows = 2;
	topology_fold(&l->fold, cfg->topo, cfg->max_lanes);
	l->lane_cpus = xcalloc((size_t)l->fold.n + 1, sizeof(int));
	for (int c = 0; c < cfg->topo->ncpus; c++)
		if (l->fold.index[c] >= 0)
			l->lane_cpus[l->fold.index[c]]++;
	l->px = xcalloc((size_t)l->fold.n * (size_t)l->cfg.width + 1, sizeof(*l->px));
	for (size_t i = 0; i < (size_t)l->fold.n * (size_t)l->cfg.width; i++)
		l->px[i].top = -1;
	l->arrows = xcalloc((size_t)l->cfg.max_arrows, sizeof(*l->arrows));
	l->same = xcalloc((size_t)l->fold.n * (size_t)l->cfg.width + 1, sizeof(*l->same));
	l->stride = 1;
	u64map_init(&l->idx);
}

void tl_lanes_release(struct tl_lanes *l)
{
	topology_fold_release(&l->fold);
	free(l->lane_cpus);
	free(l->px);
	free(l->tasks);
	free(l->arrows);
	free(l->same);
	u64map_release(&l->idx);
	memset(l, 0, sizeof(*l));
}

void tl_lanes_window(struct tl_lanes *l, uint64_t origin, uint64_t t0, uint64_t t1)
{
	l->origin = origin;
	l->t0 = t0;
	l->t1 = t1 > t0 ? t1 : t0 + 1;
	l->px_ns = (double)(l->t1 - l->t0) / l->cfg.width;
}

static int32_t task(struct tl_lanes *l, const struct tl_item *it)
{
	uint32_t *i = u64map_get(&l->idx, (uint64_t)(uint32_t)it->tid);
	struct tl_ltask *t;

	if (i) {
		t = &l->tasks[*i - 1];
		if (it->comm[0] && it->t0 >= t->named_at) { /* its name as it ran last */
			memcpy(t->comm, it->comm, sizeof(t->comm));
			t->comm[sizeof(t->comm) - 1] = '\0';
			t->named_at = it->t0;
		}
		return (int32_t)*i - 1;
	}
	if (l->ntasks == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->tasks = xrealloc(l->tasks, (size_t)l->cap * sizeof(*l->tasks));
	}
	t = &l->tasks[l->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = it->tid;
	t->pid = it->pid;
	t->workload = it->workload;
	memcpy(t->comm, it->comm, sizeof(t->comm));
	t->comm[sizeof(t->comm) - 1] = '\0';
	t->named_at = it->t0;
	u64map_put(&l->idx, (uint64_t)(uint32_t)it->tid, (uint32_t)++l->ntasks);
	return l->ntasks - 1;
}

static int lane(const struct tl_lanes *l, int cpu)
{
	return cpu >= 0 && cpu < l->cfg.topo->ncpus ? l->fold.index[cpu] : -1;
}

uint64_t tl_lanes_at(const struct tl_lanes *l, int p)
{
	double d = p * l->px_ns;

	return d >= (double)(l->t1 - l->t0) ? l->t1 : l->t0 + (uint64_t)d;
}

/* The pixel column of t (clamped to the window). */
static int column(const struct tl_lanes *l, uint64_t t)
{
	double x;

	if (t <= l->t0)
		return 0;
	x = (double)(t - l->t0) / l->px_ns;
	return x >= l->cfg.width ? l->cfg.width - 1 : (int)x;
}

static void slice(struct tl_lanes *l, const struct tl_item *it)
{
	int ln = lane(l, it->cpu), p0, p1;
	uint64_t a = it->t0 > l->t0 ? it->t0 : l->t0, b = it->t1 < l->t1 ? it->t1 : l->t1;
	int32_t ti;

	if (ln < 0 || b <= a)
		return;
	ti = task(l, it);
	l->tasks[ti].run_ns += b - a;
	if (it->pid > 0 && l->tasks[ti].pid <= 0)
		l->tasks[ti].pid = it->pid;
	p0 = column(l, a);
	p1 = column(l, b);
	for (int p = p0; p <= p1; p++) {
		struct tl_px *x = &l->px[(size_t)ln * (size_t)l->cfg.width + (size_t)p];
		uint64_t c0 = tl_lanes_at(l, p), c1 = tl_lanes_at(l, p + 1);
		uint64_t s = a > c0 ? a : c0, e = b < c1 ? b : c1, d;

		if (p == l->cfg.width - 1)
			e = b; /* the last column takes the rounding */
		if (e <= s)
			continue;
		d = e - s;
		x->busy += d;
		if (d > x->top_ns) {
			x->top_ns = d;
			x->top = ti;
		}
	}
}

/*
 * Keep one arrow in stride, spread evenly over the window: past the bound, every other goes.
 * Counted within the wakeup's class, so that every class keeps its share: one sequence for
 * all, on wakeups whose classes repeat with a period dividing the stride (SMT, LLC, node,
 * remote, SMT, ...), kept one class only.
 */
static void arrow(struct tl_lanes *l, const struct tl_item *it)
{
	int from = lane(l, it->from_cpu), to = lane(l, it->cpu);
	uint64_t seq = l->flows_class[it->cls < LOC_NR ? it->cls : LOC_REMOTE] - 1;
	int n = 0;

	l->wl_flows++;
	if (from < 0 || to < 0 || seq % l->stride)
		return;
	if (l->narrows == l->cfg.max_arrows) {
		for (int i = 0; i < l->narrows; i++)
			if (l->arrows[i].seq % (l->stride * 2) == 0)
				l->arrows[n++] = l->arrows[i];
		l->narrows = n;
		l->stride *= 2;
		if (seq % l->stride)
			return;
	}
	l->arrows[l->narrows++] = (struct tl_arrow){ it->t0, it->t1, from, to, it->cls,
						     task(l, it), seq };
}

/* A wakeup that stayed on its CPU: counted in its lane at the column of its wakeup. */
static void same_cpu(struct tl_lanes *l, const struct tl_item *it)
{
	int ln = lane(l, it->cpu);
	double x = it->t0 <= l->t0 ? 0 : (double)(it->t0 - l->t0) / l->px_ns;
	int p = x >= l->cfg.width ? l->cfg.width - 1 : (int)x;

	if (ln >= 0)
		l->same[(size_t)ln * (size_t)l->cfg.width + (size_t)p]++;
}

void tl_lanes_item(void *ctx, const struct tl_item *it)
{
	struct tl_lanes *l = ctx;

	switch (it->kind) {
	case TL_SLICE:
		if (it->t1 > l->t0 && it->t0 < l->t1)
			l->slices++;
		slice(l, it);
		break;
	case TL_FLOW:
		if (it->t1 < l->t0 || it->t0 > l->t1)
			break;
		l->flows++;
		if (!it->workload)
			break;
		l->flows_class[it->cls < LOC_NR ? it->cls : LOC_REMOTE]++;
		if (it->cls == LOC_SAME_CPU)
			same_cpu(l, it);
		else
			arrow(l, it);
		break;
	case TL_MIGRATE:
		l->migrations++;
		l->wl_migrations += it->workload;
		break;
	case TL_PASSED:
		l->passed = (uint64_t)it->value;
		break;
	case TL_COUNTER:
		break;
	}
}
