/* dash_screen.c - the dashboard's frames shown and its keys read (dash_screen.h). */
#include "dash_screen.h"

#include <stdio.h>

#include "../common/util.h"
#include "canvas.h"

void dash_show(struct tui *t, const struct dash_view *v)
{
	struct canvas c;
	int w = 80, h = 24;

	if (t)
		tui_size(t, &w, &h);
	else if (terminal_columns() > w)
		w = terminal_columns();
	canvas_init(&c, w, h, t ? tui_utf8(t) : false);
	dash_render(&c, v);
	if (t) {
		tui_draw(t, &c);
	} else {
		printf("\n");
		canvas_print(&c, stdout);
		fflush(stdout);
	}
	canvas_release(&c);
}

bool dash_keys(struct tui *t, struct dash_ui *ui, bool *redraw, bool *reset)
{
	int k;

	if (!t)
		return true;
	if (tui_gone(t))
		return false; /* leave like q: nobody is watching */
	while ((k = tui_key(t)) != -1) {
		switch (k ? dash_key(ui, k) : DASH_REDRAW) {
		case DASH_QUIT:
			return false;
		case DASH_RESET:
			*reset = true;
			*redraw = true;
			break;
		case DASH_NONE:
			break;
		default:
			*redraw = true;
		}
	}
	return true;
}
