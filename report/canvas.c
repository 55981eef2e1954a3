/* canvas.c - the character grid under the dashboard: clipped writes, frames, text output. */
#include "canvas.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void canvas_init(struct canvas *c, int w, int h, bool utf8)
{
	c->w = w > 0 ? w : 1;
	c->h = h > 0 ? h : 1;
	c->utf8 = utf8;
	c->cell = xcalloc((size_t)c->w * (size_t)c->h, sizeof(*c->cell));
	canvas_clear(c);
}

void canvas_release(struct canvas *c)
{
	free(c->cell);
	c->cell = NULL;
}

void canvas_clear(struct canvas *c)
{
	for (int i = 0; i < c->w * c->h; i++)
		c->cell[i] = (struct cv_cell){ ' ', CV_NORMAL };
}

void canvas_put(struct canvas *c, int x, int y, int style, uint32_t ch)
{
	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return;
	c->cell[y * c->w + x] = (struct cv_cell){ ch, (uint8_t)style };
}

void canvas_fill(struct canvas *c, int x, int y, int n, int style, uint32_t ch)
{
	for (int i = 0; i < n; i++)
		canvas_put(c, x + i, y, style, ch);
}

/* s clipped to maxw columns (<= 0: to the right edge), no mark where cut. */
static int text_clipped(struct canvas *c, int x, int y, int maxw, int style, const char *s)
{
	int n = 0;

	if (maxw <= 0)
		maxw = c->w - x;
	for (; *s && n < maxw && x + n < c->w; s++, n++) {
		unsigned char ch = (unsigned char)*s;

		canvas_put(c, x + n, y, style, ch < 0x20 || ch > 0x7e ? '?' : ch);
	}
	return n;
}

/* The ellipsis that ends a cut label: one cell, or "..." in three without UTF-8. */
static int ellipsis(struct canvas *c, int x, int y, int style)
{
	if (c->utf8) {
		canvas_put(c, x, y, style, 0x2026);
		return 1;
	}
	return text_clipped(c, x, y, 3, style, "...");
}

int canvas_text(struct canvas *c, int x, int y, int maxw, int style, const char *s)
{
	int room = maxw <= 0 || x + maxw > c->w ? c->w - x : maxw;
	size_t len = strlen(s);
	int mark = c->utf8 ? 1 : 3;

	if (room <= 0)
		return 0;
	if ((int)len > room && s[strspn(s + room, " ") + room] && room > mark) {
		/* text beyond the room (not just padding): cut, and say so */
		int n = text_clipped(c, x, y, room - mark, style, s);

		return n + ellipsis(c, x + n, y, style);
	}
	return text_clipped(c, x, y, room, style, s);
}

int canvas_wrap(struct canvas *c, int x, int y, int w, int rows, int style, const char *s)
{
	int row = 0, mark = c->utf8 ? 1 : 3;

	if (w < 4)
		return 0;
	while (*s == ' ')
		s++;
	for (; *s && row < rows; row++) {
		int len = (int)strlen(s), cut = len;

		if (len > w) { /* the last space that leaves the line within w */
			for (cut = w; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = w;
		}
		if (row == rows - 1 && len > w) { /* the last words that leave room for the mark */
			for (cut = w - mark; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = w - mark;
			text_clipped(c, x, y + row, cut, style, s);
			ellipsis(c, x + cut, y + row, style);
			return row + 1;
		}
		text_clipped(c, x, y + row, cut, style, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
	return row;
}

int canvas_printf(struct canvas *c, int x, int y, int maxw, int style, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return canvas_text(c, x, y, maxw, style, buf);
}

void canvas_box(struct canvas *c, int x, int y, int w, int h, const char *title, bool focus)
{
	uint32_t hz = c->utf8 ? (focus ? 0x2550 : 0x2500) : (focus ? '=' : '-');
	uint32_t vt = c->utf8 ? (focus ? 0x2551 : 0x2502) : '|';
	uint32_t tl = c->utf8 ? (focus ? 0x2554 : 0x250c) : '+';
	uint32_t tr = c->utf8 ? (focus ? 0x2557 : 0x2510) : '+';
	uint32_t bl = c->utf8 ? (focus ? 0x255a : 0x2514) : '+';
	uint32_t br = c->utf8 ? (focus ? 0x255d : 0x2518) : '+';
	int st = focus ? CV_FOCUS : CV_DIM;

	if (w < 2 || h < 2)
		return;
	canvas_fill(c, x + 1, y, w - 2, st, hz);
	canvas_fill(c, x + 1, y + h - 1, w - 2, st, hz);
	for (int i = 1; i < h - 1; i++) {
		canvas_put(c, x, y + i, st, vt);
		canvas_put(c, x + w - 1, y + i, st, vt);
	}
	canvas_put(c, x, y, st, tl);
	canvas_put(c, x + w - 1, y, st, tr);
	canvas_put(c, x, y + h - 1, st, bl);
	canvas_put(c, x + w - 1, y + h - 1, st, br);
	if (title && w > 6) {
		canvas_put(c, x + 1, y, st, ' ');
		canvas_put(c, x + 2 + canvas_text(c, x + 2, y, w - 5, focus ? CV_FOCUS : CV_TITLE,
						  title), y, st, ' ');
	}
}

uint32_t canvas_spark(const struct canvas *c, int level)
{
	static const char ascii[] = "_.,-=+*#";

	level = level < 0 ? 0 : level > 7 ? 7 : level;
	return c->utf8 ? 0x2581 + (uint32_t)level : (uint32_t)ascii[level];
}

static void put_utf8(FILE *f, uint32_t ch)
{
	if (ch < 0x80) {
		fputc((int)ch, f);
	} else if (ch < 0x800) {
		fputc(0xc0 | (int)(ch >> 6), f);
		fputc(0x80 | (int)(ch & 0x3f), f);
	} else {
		fputc(0xe0 | (int)(ch >> 12), f);
		fputc(0x80 | (int)((ch >> 6) & 0x3f), f);
		fputc(0x80 | (int)(ch & 0x3f), f);
	}
}

void canvas_print(const struct canvas *c, FILE *f)
{
	for (int y = 0; y < c->h; y++) {
		const struct cv_cell *row = c->cell + y * c->w;
		int end = c->w;

		while (end > 0 && row[end - 1].ch == ' ')
			end--;
		for (int x = 0; x < end; x++)
			put_utf8(f, row[x].ch);
		fputc('\n', f);
	}
}
