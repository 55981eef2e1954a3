/* watch.c - a live session's snapshots, intervals and totals since a reset (watch.h). */
#include "watch.h"

#include <stdio.h>

#include "../analyzers/sched_delta.h"
#include "../collectors/probe.h"
#include "../collectors/proctree.h"
#include "../common/util.h"

/* A counter's value now, or -1 when it is not counting. */
static double counter_now(struct counter_set *cs, int idx)
{
	if (!cs || idx < 0 || idx >= cs->n || !cs->c[idx].open)
		return -1;
	return cs->c[idx].value;
}

static void figure(struct watch_figure *f, enum watch_state st, uint64_t in_interval,
		   uint64_t total)
{
	f->state = st;
	f->interval = in_interval;
	f->total = total;
}

/*
 * Untraced (unprivileged): the workload tree's voluntary or involuntary switches from /proc,
 * the tasks' own accounting. True when the figure was filled.
 */
static bool proc_figure(struct watch *w, int k)
{
	struct watch_figure *f = &w->m[k ? SM_involuntary : SM_voluntary];
	double now[2];

	if (!w->out || w->out->pid <= 0 ||
	    proctree_switches(w->out->pid, &now[0], &now[1]) <= 0)
		return false;
	if (!w->have_proc) {
		for (int i = 0; i < 2; i++)
			w->proc_prev[i] = w->proc_base[i] = now[i];
		w->have_proc = true;
	}
	/* a reaped child's switches leave /proc: no negative interval */
	figure(f, WATCH_SET_PROC,
	       now[k] > w->proc_prev[k] ? (uint64_t)(now[k] - w->proc_prev[k]) : 0,
	       now[k] > w->proc_base[k] ? (uint64_t)(now[k] - w->proc_base[k]) : 0);
	w->proc_prev[k] = now[k];
	return true;
}

/* Measure m of r; a count of timed wakeups (a sample) scaled to all of them. */
static uint64_t estimate(const struct sched_results *r, int m)
{
	struct sched_sample smp;
	uint64_t v = sched_measure_get(r, m);

	if (m != SM_idle_passed && m != SM_idle_not_allowed && m != SM_idle_wait_ns)
		return v;
	sched_sample_of(r, &smp);
	return (uint64_t)((double)v * smp.scale + 0.5);
}

/* Each MF_DASH measure's figure (sched_measures.def) from the latest snapshot cur. */
static void measure_figures(struct watch *w, const struct sched_results *cur)
{
	/* traced: a source opened (the final screen's snapshot comes after it stopped) */
	bool traced = w->live->src != NULL;

	for (int m = 0; m < SM_NR; m++) {
		struct watch_figure *f = &w->m[m];

		f->state = WATCH_SKIP;
		if (!(sched_measures[m].flags & MF_DASH))
			continue;
		if (!traced && (m == SM_voluntary || m == SM_involuntary) &&
		    proc_figure(w, m == SM_involuntary))
			continue; /* the tasks' own accounting in /proc */
		if (!traced) { /* never a made-up 0: say why there is nothing */
			f->state = WATCH_NONE;
			snprintf(f->why, sizeof(f->why), "not traced: %s",
				 w->out && w->out->trace_reason[0] ? w->out->trace_reason : "?");
			continue;
		}
		if (!sched_measured(cur, m)) {
			f->state = WATCH_NONE;
			snprintf(f->why, sizeof(f->why), "not measured by %s",
				 prov_source_name(cur->prov.source));
			continue;
		}
		figure(f, WATCH_SET, estimate(&w->interval, m), estimate(w->cumul_view, m));
	}
}

/* Who delayed the wakee: the latest totals, what the interval and the time since the base
 * added, or why there are none (never a made-up 0). After the live session's snapshot. */
static void blame_sample(struct watch *w, const struct sched_results *cur)
{
	const struct blame_live *now = live_session_blame_live(w->live);
	struct blame_live *snap = &w->bl_snap[w->cur];

	w->bl_on = now != NULL;
	w->bl_cannot = false;
	if (!now) {
		if (!w->live->src)
			snprintf(w->bl_why, sizeof(w->bl_why), "not traced: %s",
				 w->out && w->out->trace_reason[0] ? w->out->trace_reason : "?");
		else if ((w->bl_cannot = !w->live->src->streams &&
					 !live_session_blame_asked(w->live)))
			snprintf(w->bl_why, sizeof(w->bl_why), "not supported by the %s collector "
				 "(it counts in the kernel; this needs every event: use --collector "
				 "perf)", cur->prov.source == PROV_BPF ? "BPF" :
				 prov_source_key(cur->prov.source));
		else if (!w->live->src->streams) /* split in the kernel, not read */
			snprintf(w->bl_why, sizeof(w->bl_why), "the kernel's split could not be read");
		else
			snprintf(w->bl_why, sizeof(w->bl_why), "no scheduler event yet");
		return;
	}
	blame_live_assign(snap, now);
	blame_live_delta(&w->bl_interval, snap, w->bl_have_prev ? &w->bl_snap[w->cur ^ 1] : NULL);
	blame_live_delta(&w->bl_cumul, snap, w->bl_have_base ? &w->bl_base : NULL);
	w->bl_have_prev = true;
}

/* A figure into series s: its values, or why there are none. */
static void show(struct watch *w, int s, const struct watch_figure *f)
{
	struct dash_series_state *st = &w->series[s];

	switch (f->state) {
	case WATCH_SKIP:
		return;
	case WATCH_NONE:
		st->supported = false;
		snprintf(st->why, sizeof(st->why), "%s", f->why);
		return;
	case WATCH_SET_PROC:
		st->supported = true;
		/* fall through */
	case WATCH_SET:
		st->rate = w->interval_s > 0 ? (double)f->interval / w->interval_s : 0;
		st->total = f->total;
		dash_series_push(st, st->rate);
	}
}

void watch_start(struct watch *w, const struct topology *topo, uint64_t now)
{
	sched_results_init(&w->interval, topo); /* empty until the first interval */
	sched_results_init(&w->cumul, topo);
	w->cumul_view = &w->cumul;
	w->topo = topo;
	w->t_prev = w->t_base = w->t0 = now;
	w->next = now + (uint64_t)w->interval_ms * 1000000ull; /* the first full interval */
}

bool watch_due(struct watch *w, uint64_t now, bool paused)
{
	uint64_t step = (uint64_t)w->interval_ms * 1000000ull;

	if (now < w->next)
		return false;
	if (paused) {
		w->next = now + step;
		return false;
	}
	w->next += step;
	if (w->next < now)
		w->next = now + step;
	return true;
}

int watch_wait_ms(const struct watch *w, uint64_t now)
{
	int wait = (int)(((int64_t)w->next - (int64_t)now) / 1000000) + 1;

	return wait > 0 ? wait : 0;
}

void watch_sample(struct watch *w, struct counter_set *cs, uint64_t now)
{
	struct sched_results *cur, *prev;

	w->cur ^= 1;
	cur = &w->snap[w->cur];
	prev = &w->snap[w->cur ^ 1];
	live_session_snapshot(w->live, cur, w->lines, 16, &w->nlines);
	sched_results_delta(&w->interval, cur, w->have_prev ? prev : NULL);
	w->interval_s = (double)(now - w->t_prev) / 1e9;
	if (w->have_base)
		sched_results_delta(&w->cumul, cur, &w->base);
	w->cumul_view = w->have_base ? &w->cumul : cur; /* no copy until a reset */
	w->cumul_s = (double)(now - w->t_base) / 1e9;
	w->have_prev = true;
	w->t_prev = now;
	measure_figures(w, cur);
	blame_sample(w, cur);
	if (cs)
		counters_read(cs);
	for (int k = 0; k < 2; k++) {
		double v = counter_now(cs, w->counter_idx[k]);

		w->counter[k].state = WATCH_SKIP;
		if (v < 0)
			continue;
		/* scaled (multiplexed) counts can step back: no negative interval */
		figure(&w->counter[k], WATCH_SET,
		       v > w->counter_prev[k] ? (uint64_t)(v - w->counter_prev[k]) : 0,
		       v > w->counter_base[k] ? (uint64_t)(v - w->counter_base[k]) : 0);
		w->counter_prev[k] = v;
	}
	for (int m = 0; m < SM_NR; m++)
		show(w, DS_S_FIRST + m, &w->m[m]);
	for (int k = 0; k < 2; k++)
		show(w, DS_CACHE_MISS + k, &w->counter[k]);
	w->refreshes++;
}

void watch_reset(struct watch *w)
{
	sched_results_copy(&w->base, &w->snap[w->cur]);
	w->have_base = true;
	w->t_base = w->t_prev;
	for (int k = 0; k < 2; k++) {
		w->counter_base[k] = w->counter_prev[k];
		w->proc_base[k] = w->proc_prev[k];
	}
	sched_results_delta(&w->cumul, &w->snap[w->cur], &w->base);
	w->cumul_view = &w->cumul;
	w->cumul_s = 0;
	if (w->bl_have_prev) { /* none yet: the base is the start, as good as now */
		blame_live_assign(&w->bl_base, &w->bl_snap[w->cur]);
		w->bl_have_base = true;
		blame_live_delta(&w->bl_cumul, &w->bl_base, &w->bl_base);
	}
	for (int i = 0; i < DS_NR; i++) {
		w->series[i].nhist = 0;
		w->series[i].total = 0;
	}
}

void watch_release(struct watch *w)
{
	for (int i = 0; i < 2; i++)
		sched_results_release(&w->snap[i]);
	sched_results_release(&w->base);
	sched_results_release(&w->interval);
	sched_results_release(&w->cumul);
	for (int i = 0; i < 2; i++)
		blame_live_release(&w->bl_snap[i]);
	blame_live_release(&w->bl_base);
	blame_live_release(&w->bl_interval);
	blame_live_release(&w->bl_cumul);
}
