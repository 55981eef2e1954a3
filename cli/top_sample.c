/* top_sample.c - `locus top`'s series: each refresh's figures (pipeline/watch.h), shown. */
#include <stdio.h>

#include "../common/util.h"
#include "top.h"

static void set_series(struct top *tp, int s, uint64_t in_interval, uint64_t total)
{
	struct dash_series_state *st = &tp->series[s];

	st->rate = tp->w.interval_s > 0 ? (double)in_interval / tp->w.interval_s : 0;
	st->total = total;
	dash_series_push(st, st->rate);
}

/* A figure into series s: its values, or why there are none. */
static void show(struct top *tp, int s, const struct watch_figure *f)
{
	struct dash_series_state *st = &tp->series[s];

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
		set_series(tp, s, f->interval, f->total);
	}
}

/* Take a snapshot and work out the interval and the totals since the base. */
void top_sample(struct top *tp, struct counter_set *cs)
{
	watch_sample(&tp->w, cs, now_ns());
	for (int m = 0; m < SM_NR; m++)
		show(tp, DS_S_FIRST + m, &tp->w.m[m]);
	for (int k = 0; k < 2; k++)
		show(tp, DS_CACHE_MISS + k, &tp->w.counter[k]);
	tp->refreshes++;
}

void top_reset(struct top *tp)
{
	watch_reset(&tp->w);
	for (int i = 0; i < DS_NR; i++) {
		tp->series[i].nhist = 0;
		tp->series[i].total = 0;
	}
}
