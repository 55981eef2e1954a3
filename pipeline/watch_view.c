/* watch_view.c - what the dashboard shows of a watched session (watch.h): its limits, a
 * view, the workload's output file. */
#define _GNU_SOURCE
#include "watch.h"

#include <stdio.h>
#include <string.h>

#include "../collectors/probe.h"

void watch_limits(struct watch *w, const struct event_desc *evs, int nevs,
		  const struct topology *topo)
{
	static const char *const names[2] = { "cache-misses", "hitm" };
	size_t at = 0, len = sizeof(w->cannot);

	w->cannot[0] = '\0';
	for (int k = 0; k < 2; k++) {
		struct dash_series_state *st = &w->series[DS_CACHE_MISS + k];
		const struct event_desc *ev = NULL;

		w->counter_idx[k] = -1;
		for (int i = 0; i < nevs; i++)
			if (!strcmp(evs[i].name, names[k])) {
				ev = &evs[i];
				w->counter_idx[k] = i;
			}
		st->supported = ev && ev->resolved;
		if (!st->supported)
			w->counter_idx[k] = -1; /* not read: nothing to show */
		if (!ev)
			snprintf(st->why, sizeof(st->why), "not in -e");
		else if (!ev->resolved)
			snprintf(st->why, sizeof(st->why), "%s", ev->reason);
		if (!st->supported && ev && at < len)
			at += (size_t)snprintf(w->cannot + at, len - at, "%s%s (%s)",
					       at ? "; " : "", names[k], ev->reason);
	}
	for (int m = 0; m < SM_NR; m++)
		w->series[DS_S_FIRST + m].supported = (sched_measures[m].flags & MF_DASH) != 0;
	if (topo && !topo->llc_known && at < len)
		snprintf(w->cannot + at, len - at, "%sLLC sharing (sysfs has no cache topology)",
			 at ? "; " : "");
}

void watch_view(struct watch *w, bool cumulative, bool blame_pane, uint64_t now,
		struct dash_view *v)
{
	v->r = cumulative ? w->cumul_view : &w->interval;
	v->topo = w->topo;
	v->span_s = cumulative ? w->cumul_s : w->interval_s;
	v->interval_s = w->interval_ms / 1000.0;
	v->elapsed_s = (double)(now - w->t0) / 1e9;
	v->total = w->snap[w->cur].prov.source != PROV_NONE ? &w->snap[w->cur] : NULL;
	v->cannot = w->cannot;
	v->command = w->command;
	v->state = w->state;
	v->mem_why = w->mem_why;
	if (blame_pane && w->bl_cannot) { /* the header names it; the pane says why */
		snprintf(w->cannot_view, sizeof(w->cannot_view), "%s%santagonists (%s)", w->cannot,
			 w->cannot[0] ? "; " : "", w->bl_why);
		v->cannot = w->cannot_view;
	}
	if (!w->live->started && w->out && w->out->trace_reason[0]) {
		v->total = NULL;
		v->why_not = w->out->trace_reason; /* nothing to show but why */
		v->proc_switches = w->have_proc;
	}
	memcpy(v->series, w->series, sizeof(v->series));
	for (int i = 0; i < DS_NR; i++)
		if (cumulative && w->cumul_s > 0)
			v->series[i].rate = (double)v->series[i].total / w->cumul_s;
	v->lines = w->live->mem_on ? w->lines : NULL;
	v->nlines = w->nlines;
	if (w->bl_on)
		v->blame = cumulative ? &w->bl_cumul : &w->bl_interval;
	v->blame_why = w->bl_why;
}

void watch_end_state(char *buf, size_t len, const struct run_outcome *out,
		     bool system_wide)
{
	int rc = out->exit_code;

	if (system_wide)
		snprintf(buf, len, "ended");
	else if (out->stopped)
		snprintf(buf, len, "stopped (q)");
	else if (rc > 128)
		snprintf(buf, len, "killed by signal %d (%s)", rc - 128,
			 sigabbrev_np(rc - 128) ? sigabbrev_np(rc - 128) : "?");
	else
		snprintf(buf, len, "exited %d", rc);
}

void watch_describe(struct watch *w, char **cmdv, const struct counting_opts *o)
{
	if (cmdv[0])
		run_command_text(cmdv, w->command, sizeof(w->command));
	else if (o->pid)
		snprintf(w->command, sizeof(w->command), "pid%s %s", o->nadded ? "s" : "",
			 o->pid_list);
	else
		snprintf(w->command, sizeof(w->command), "system-wide");
	snprintf(w->state, sizeof(w->state), "running");
	watch_limits(w, o->evs, o->nevs, w->topo);
	if (probe_memory_sampling(w->mem_why, sizeof(w->mem_why)))
		w->mem_why[0] = '\0'; /* supported: lines will come */
}

void watch_end(struct watch *w, const struct run_outcome *out, bool system_wide)
{
	if (out->traced && w->live->mem_on)
		w->mem_why[0] = '\0';
	else if (w->live->mem_why[0])
		snprintf(w->mem_why, sizeof(w->mem_why), "%s", w->live->mem_why);
	watch_end_state(w->state, sizeof(w->state), out, system_wide);
}

int watch_output_open(struct watch *w, const char *named)
{
	return wl_output_open(&w->output, named);
}

const char *watch_output_path(const struct watch *w)
{
	return w->output.path[0] ? w->output.path : NULL;
}

const char *watch_output_tail(struct watch *w)
{
	return wl_output_tail(&w->output);
}

void watch_output_close(struct watch *w, bool quiet, bool keep)
{
	wl_output_close(&w->output, quiet, keep);
}
