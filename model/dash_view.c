/* dash_view.c - the dashboard's counter rows: each interval's rate into a sparkline. */
#include "dash_view.h"

#include <string.h>

void dash_series_push(struct dash_series_state *s, double rate)
{
	if (s->nhist == DASH_HIST) {
		memmove(s->hist, s->hist + 1, (DASH_HIST - 1) * sizeof(s->hist[0]));
		s->nhist--;
	}
	s->hist[s->nhist++] = rate;
}
