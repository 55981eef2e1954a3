/* dash_counters.c - the counters pane (rates and sparklines) and the locality pane. */
#include <stdio.h>
#include <string.h>

#include "../analyzers/stats.h"
#include "../common/util.h"
#include "dash_panes.h"

bool dash_series_shown(int s)
{
	return s >= SM_NR ? s < DS_NR : (sched_measures[s].flags & MF_DASH) != 0;
}

const char *dash_series_label(int s)
{
	if (s < SM_NR)
		return sched_measures[s].dash;
	return s == DS_CACHE_MISS ? "cache-miss" : "HITM";
}

static void sparkline(struct canvas *c, int x, int y, int w, const struct dash_series_state *s)
{
	int n = s->nhist < w ? s->nhist : w;
	double max = 0;

	for (int i = s->nhist - n; i < s->nhist; i++)
		if (s->hist[i] > max)
			max = s->hist[i];
	for (int i = 0; i < n; i++) {
		double v = s->hist[s->nhist - n + i];
		int level = max > 0 ? (int)(v / max * 7.0 + 0.5) : 0;

		canvas_put(c, x + w - n + i, y, CV_SPARK, canvas_spark(c, level));
	}
}

void pane_counters(struct canvas *c, struct dash_rect r, const struct dash_view *v, bool focus)
{
	int iw = r.w - 2, rows = r.h - 2, first, shown[DS_NR] = { 0 }, nshown = 0, top;
	bool totals = iw >= 52, heading;
	char title[96];

	for (int i = 0; i < DS_NR; i++)
		if (dash_series_shown(i))
			shown[nshown++] = i;
	/* headings on every column: a row of them where there is room, else in the title */
	heading = rows > nshown;
	if (heading)
		snprintf(title, sizeof(title), "1 counters, %s", v->ui->cumulative ?
			 "average since start" : "last interval");
	else
		snprintf(title, sizeof(title), "%s", v->ui->cumulative ?
			 "1 counters, average since start" : totals ?
			 "1 counters /s, totals + history, interval" :
			 "1 counters /s + history, interval");
	canvas_box(c, r.x, r.y, r.w, r.h, title, focus);
	if (heading) {
		canvas_printf(c, r.x + 1, r.y + 1, iw, CV_DIM, "%-11s%7s%s  %s", "", "per s",
			      totals ? "        total" : "", "history");
		rows--;
	}
	top = r.y + 1 + heading;
	first = dash_first_row(v->ui->scroll[PANE_COUNTERS], nshown, rows);
	for (int k = first; k < nshown && k - first < rows; k++) {
		int i = shown[k];
		const struct dash_series_state *s = &v->series[i];
		int x = r.x + 1, y = top + k - first, lw = 11;
		char buf[32];

		canvas_text(c, x, y, lw, CV_NORMAL, dash_series_label(i));
		x += lw;
		if (!s->supported) {
			canvas_text(c, x, y, 7, CV_DIM, "    n/a");
			canvas_text(c, x + 8, y, iw - lw - 8, CV_DIM, s->why);
			continue;
		}
		if (!s->nhist) { /* no interval measured yet: no rate to show, not a 0 */
			canvas_text(c, x, y, 7, CV_DIM, "      -");
			continue;
		}
		canvas_printf(c, x, y, 7, CV_BOLD, "%7s", fmt_short(s->rate, buf, sizeof(buf)));
		x += 8;
		if (totals) {
			canvas_printf(c, x, y, 12, CV_DIM, "%12s", fmt_count(s->total, buf,
									 sizeof(buf)));
			x += 13;
		}
		if (r.x + r.w - 1 - x > 0)
			sparkline(c, x, y, r.x + r.w - 1 - x, s);
	}
}

static const char class_letter[LOC_NR] = { 'c', 's', 'l', 'n', 'r' };
static const char *const class_short[LOC_NR] = { "same CPU", "SMT", "LLC", "node", "remote" };

static void class_bar(struct canvas *c, int x, int y, int w, const struct sched_results *r)
{
	uint64_t total = 0;
	int at = 0;
	double acc = 0;

	for (int k = 0; k < LOC_NR; k++)
		total += r->by_class[k];
	if (!total) {
		canvas_text(c, x, y, w, CV_DIM, "no placed wakeups in this span");
		return;
	}
	/* cumulative rounding: the segments add up to the width exactly */
	for (int k = 0; k < LOC_NR; k++) {
		int end;

		acc += (double)r->by_class[k];
		end = (int)(acc / (double)total * w + 0.5);
		if (r->by_class[k] && end == at && at < w)
			end = at + 1; /* a class that happened shows */
		canvas_fill(c, x + at, y, end - at, CV_CLASS0 + k, (uint32_t)class_letter[k]);
		at = end > at ? end : at;
	}
}

void pane_locality(struct canvas *c, struct dash_rect r, const struct dash_view *v)
{
	const struct sched_results *s = v->r;
	uint64_t total = 0, placed = 0;
	char a[40], b[24], d[24];
	int x = r.x + 1, y = r.y + 1, iw = r.w - 2;

	canvas_box(c, r.x, r.y, r.w, r.h, "wakeup locality: waker CPU to target CPU", false);
	if (dash_not_traced(c, x, y, iw, r.h - 2, v))
		return;
	class_bar(c, x, y, iw, s);
	for (int k = 0; k < LOC_NR; k++)
		total += s->by_class[k];
	for (int k = 0; k < LOC_NR; k++) {
		const char *share = fmt_share((double)s->by_class[k], (double)total, 1, a, sizeof(a));
		bool llc = topology_knows(v->topo, LOC_LLC);

		if (!llc && k == LOC_LLC)
			continue; /* no LLC class where the topology does not know it */
		if (r.x + r.w - 1 - x < 2)
			break; /* no room for a letter and its share: never over the frame */
		x += canvas_printf(c, x, y + 1, 0, CV_CLASS0 + k, "%c", class_letter[k]);
		x += canvas_printf(c, x, y + 1, r.x + r.w - 1 - x, CV_NORMAL, " %s %s  ",
				   !llc && k == LOC_NODE ? "node (LLC unknown)" : class_short[k],
				   share);
	}
	x = r.x + 1;
	if (s->delay.count)
		x += canvas_printf(c, x, y + 2, iw, CV_NORMAL, "wake-to-run p50 %s  p99 %s  ",
				   dash_fmt_ns(hist_percentile(&s->delay, 50), a, sizeof(a)),
				   dash_fmt_ns(hist_percentile(&s->delay, 99), b, sizeof(b)));
	else
		x += canvas_text(c, x, y + 2, iw, CV_DIM, "wake-to-run: none measured  ");
	for (int p = 0; p < PLACE_NR; p++)
		placed += s->placement[p];
	if (r.x + r.w - 1 - x > 0) /* else the frame: a width of 0 would be the screen's */
		x += canvas_printf(c, x, y + 2, r.x + r.w - 1 - x, CV_NORMAL,
				   "placed: stayed %s pulled%s %s elsewhere %s",
				   fmt_share((double)s->placement[PLACE_STAYED], (double)placed, 0,
					     a, sizeof(a)),
				   topology_knows(v->topo, LOC_LLC) ? "" : " to core",
				   fmt_share((double)s->placement[PLACE_PULLED], (double)placed, 0,
					     b, sizeof(b)),
				   fmt_share((double)s->placement[PLACE_ELSEWHERE], (double)placed,
					     0, d, sizeof(d)));
	/* waited on a busy CPU while an allowed one idled (the perf collector's): the long
	 * form where it fits, else the short one, else nothing */
	if (sched_measured(s, SM_idle_passed) && s->delay.count) {
		char longer[96], shorter[48];
		int room = r.x + r.w - 1 - x;
		struct sched_sample m;

		/* sampled: the wait scaled to the whole run, the share with its 95% interval */
		sched_sample_of(s, &m);
		fmt_share((double)s->idle_passed, (double)s->delay.count, 1, a, sizeof(a));
		if (m.sampled) {
			double lo, hi;
			size_t at = strlen(a);

			stats_wilson95((double)s->idle_passed, (double)s->delay.count, &lo, &hi);
			snprintf(a + at, sizeof(a) - at, " [%.1f-%.1f]", 100 * lo, 100 * hi);
		}
		dash_fmt_ns(v->span_s > 0 ? (uint64_t)((double)s->idle_wait_ns * m.scale / v->span_s) :
					    0,
			    b, sizeof(b));
		/* a share of the wakeups (the antagonists pane's is of the wait) */
		snprintf(longer, sizeof(longer), "  passed an idle CPU: %s of wakeups (%s/s of waits)",
			 a, b);
		snprintf(shorter, sizeof(shorter), "  idle passed %s of wakeups", a);
		if ((int)strlen(longer) <= room)
			canvas_text(c, x, y + 2, room, CV_NORMAL, longer);
		else if ((int)strlen(shorter) <= room)
			canvas_text(c, x, y + 2, room, CV_NORMAL, shorter);
	}
}
