/* canvas.h - a grid of styled characters the dashboard panes draw on; curses or text show it. */
#ifndef LOCUS_CANVAS_H
#define LOCUS_CANVAS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What a cell means; the terminal module picks colours for each (or none). */
enum cv_style {
	CV_NORMAL,
	CV_DIM,		/* secondary text, unsupported measures */
	CV_BOLD,
	CV_TITLE,	/* pane titles */
	CV_FOCUS,	/* the focused pane's title and border */
	CV_WARN,	/* lost events, what cannot be measured */
	CV_KEY,		/* key names in the footer and help */
	CV_SPARK,	/* sparklines */
	CV_BAR,		/* busy bars */
	CV_CLASS0,	/* locality classes, same CPU .. other node (CV_CLASS0 + enum locality) */
	CV_HEAT0 = CV_CLASS0 + 5, /* heatmap levels 0-9 (CV_HEAT0 + heatmap_level) */
	CV_STYLE_NR = CV_HEAT0 + 10
};

struct cv_cell {
	uint32_t ch;	/* a Unicode code point (ASCII only when !utf8) */
	uint8_t style;
};

struct canvas {
	int w, h;
	bool utf8;	/* box drawing and block characters allowed */
	struct cv_cell *cell;
};

void canvas_init(struct canvas *c, int w, int h, bool utf8);
void canvas_release(struct canvas *c);
void canvas_clear(struct canvas *c);

/*
 * Write text at (x, y), at most maxw columns (<= 0: to the right edge), one
 * column per byte; control bytes and bytes above 0x7e show as '?'. Text that
 * does not fit (more than blank padding) is cut with an ellipsis in its last
 * column ("..." in three without UTF-8): a cut label always says so. Returns
 * the columns written.
 */
int canvas_text(struct canvas *c, int x, int y, int maxw, int style, const char *s);
int canvas_printf(struct canvas *c, int x, int y, int maxw, int style, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/*
 * Write text word-wrapped into a w x rows block at (x, y), breaking at spaces
 * (a word longer than w is cut); the last row shown ends in an ellipsis when
 * text is left over. Returns the rows used.
 */
int canvas_wrap(struct canvas *c, int x, int y, int w, int rows, int style, const char *s);
void canvas_put(struct canvas *c, int x, int y, int style, uint32_t ch);
/* Fill a run of n cells with one character. */
void canvas_fill(struct canvas *c, int x, int y, int n, int style, uint32_t ch);

/* A frame with its title in the top border; focused frames are marked. */
void canvas_box(struct canvas *c, int x, int y, int w, int h, const char *title, bool focus);

/* The sparkline glyph of level 0-7 (lowest to highest). */
uint32_t canvas_spark(const struct canvas *c, int level);

/* Print the canvas as UTF-8 (or ASCII) text, trailing blanks cut, one line per row. */
void canvas_print(const struct canvas *c, FILE *f);

#endif
