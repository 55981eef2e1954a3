/* top_sample.c - `locus top`'s snapshots: each interval's rates and the totals since a reset. */
#include <stdio.h>

#include "../analyzers/sched_delta.h"
#include "../collectors/probe.h"
#include "../common/util.h"
#include "top.h"

/* A counter's value now, or -1 when it is not counting. */
static double counter_now(struct counter_set *cs, int idx)
{
	if (!cs || idx < 0 || idx >= cs->n || !cs->c[idx].open)
		return -1;
	return cs->c[idx].value;
}

static void set_series(struct top *tp, int s, uint64_t in_interval, uint64_t total)
{
	struct dash_series_state *st = &tp->series[s];

	st->rate = tp->interval_s > 0 ? (double)in_interval / tp->interval_s : 0;
	st->total = total;
	dash_series_push(st, st->rate);
}

/*
 * Untraced (unprivileged): the workload tree's voluntary or involuntary switches from /proc,
 * the tasks' own accounting. True when the series was filled.
 */
static bool proc_series(struct top *tp, int k)
{
	struct dash_series_state *st = &tp->series[DS_S_FIRST + (k ? SM_involuntary : SM_voluntary)];
	double now[2];

	if (!tp->out || tp->out->pid <= 0 ||
	    proctree_switches(tp->out->pid, &now[0], &now[1]) <= 0)
		return false;
	if (!tp->have_proc) {
		for (int i = 0; i < 2; i++)
			tp->proc_prev[i] = tp->proc_base[i] = now[i];
		tp->have_proc = true;
	}
	st->supported = true;
	/* a reaped child's switches leave /proc: no negative interval */
	set_series(tp, DS_S_FIRST + (k ? SM_involuntary : SM_voluntary),
		   now[k] > tp->proc_prev[k] ? (uint64_t)(now[k] - tp->proc_prev[k]) : 0,
		   now[k] > tp->proc_base[k] ? (uint64_t)(now[k] - tp->proc_base[k]) : 0);
	tp->proc_prev[k] = now[k];
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

/* Take a snapshot and work out the interval and the totals since the base. */
void top_sample(struct top *tp, struct counter_set *cs)
{
	struct sched_results *cur, *prev;
	uint64_t now = now_ns();

	tp->cur ^= 1;
	cur = &tp->snap[tp->cur];
	prev = &tp->snap[tp->cur ^ 1];
	tracer_snapshot(tp->tracer, cur, tp->lines, 16, &tp->nlines);
	sched_results_delta(&tp->interval, cur, tp->have_prev ? prev : NULL);
	tp->interval_s = (double)(now - tp->t_prev) / 1e9;
	if (tp->have_base)
		sched_results_delta(&tp->cumul, cur, &tp->base);
	tp->cumul_view = tp->have_base ? &tp->cumul : cur; /* no copy until a reset */
	tp->cumul_s = (double)(now - tp->t_base) / 1e9;
	tp->have_prev = true;
	tp->t_prev = now;
	for (int m = 0; m < SM_NR; m++) { /* the MF_DASH measures (sched_measures.def) */
		struct dash_series_state *st = &tp->series[DS_S_FIRST + m];

		if (!(sched_measures[m].flags & MF_DASH))
			continue;
		if (!tp->tracer->started && (m == SM_voluntary || m == SM_involuntary) &&
		    proc_series(tp, m == SM_involuntary))
			continue; /* the tasks' own accounting in /proc */
		if (!tp->tracer->started) { /* never a made-up 0: say why there is nothing */
			st->supported = false;
			snprintf(st->why, sizeof(st->why), "not traced: %s",
				 tp->out && tp->out->trace_reason[0] ? tp->out->trace_reason : "?");
			continue;
		}
		if (!sched_measured(cur, m)) {
			st->supported = false;
			snprintf(st->why, sizeof(st->why), "not measured by %s",
				 prov_source_name(cur->prov.source));
			continue;
		}
		set_series(tp, DS_S_FIRST + m, estimate(&tp->interval, m), estimate(tp->cumul_view, m));
	}
	if (cs)
		counters_read(cs);
	for (int k = 0; k < 2; k++) {
		double v = counter_now(cs, tp->counter_idx[k]);

		if (v < 0 || !tp->series[DS_CACHE_MISS + k].supported)
			continue;
		/* scaled (multiplexed) counts can step back: no negative interval */
		set_series(tp, DS_CACHE_MISS + k,
			   v > tp->counter_prev[k] ? (uint64_t)(v - tp->counter_prev[k]) : 0,
			   v > tp->counter_base[k] ? (uint64_t)(v - tp->counter_base[k]) : 0);
		tp->counter_prev[k] = v;
	}
	tp->refreshes++;
}

void top_reset(struct top *tp)
{
	sched_results_copy(&tp->base, &tp->snap[tp->cur]);
	tp->have_base = true;
	tp->t_base = tp->t_prev;
	for (int k = 0; k < 2; k++) {
		tp->counter_base[k] = tp->counter_prev[k];
		tp->proc_base[k] = tp->proc_prev[k];
	}
	for (int i = 0; i < DS_NR; i++) {
		tp->series[i].nhist = 0;
		tp->series[i].total = 0;
	}
	sched_results_delta(&tp->cumul, &tp->snap[tp->cur], &tp->base);
	tp->cumul_view = &tp->cumul;
	tp->cumul_s = 0;
}
