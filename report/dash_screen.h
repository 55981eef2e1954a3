/* dash_screen.h - the dashboard on the terminal (tui.h), or as text snapshots without one. */
#ifndef LOCUS_DASH_SCREEN_H
#define LOCUS_DASH_SCREEN_H

#include <stdbool.h>

#include "dash.h"
#include "tui.h"

/*
 * Draw v: on t's screen, its size; without a terminal (t NULL), as text on stdout after
 * a blank line, as wide as the terminal's columns (at least 80) and 24 rows.
 */
void dash_show(struct tui *t, const struct dash_view *v);
/*
 * The keys waiting on t applied to ui (nothing without a terminal): *redraw set when one
 * changed what is shown, *reset when the user asked to reset the totals. False when the
 * user quits or the terminal is gone (nobody is watching: leave as on q).
 */
bool dash_keys(struct tui *t, struct dash_ui *ui, bool *redraw, bool *reset);

#endif
