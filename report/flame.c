/*
 * flame.c - flame graphs as SVG (flame.h): the stacks merged into a tree of frames, each
 * frame a rectangle as wide as its share of all values, root at the bottom.
 */
#include "flame.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "flame_script.h"
#include "xml.h"

#define FRAME_H 16		/* px a frame row */
#define FONT_PX 11
#define MAX_DEPTH 1024		/* frames deeper are folded into their 1024th (stated) */
#define PAD 10

/* One frame of the tree: a name within its stack's text, where it starts and its values. */
struct fnode {
	const char *name;
	size_t len;
	int depth;		/* 0 is the root "all" */
	uint64_t x;		/* value units before it at its depth */
	uint64_t v, b;		/* inclusive value, and the base's (differential) */
};

struct tree {
	struct fnode *n;
	size_t nn, cap;
	uint64_t total, base_total;
	size_t capped;		/* stacks deeper than MAX_DEPTH */
	uint64_t gone_base;	/* base value of stacks absent from the new values */
};

static int by_frames(const void *a, const void *b)
{
	const struct flame_stack *x = *(const struct flame_stack *const *)a;
	const struct flame_stack *y = *(const struct flame_stack *const *)b;

	return strcmp(x->frames, y->frames);
}

static int node_open(struct tree *t, const char *name, size_t len, int depth, uint64_t x)
{
	if (t->nn == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct fnode *n = realloc(t->n, cap * sizeof(*n));

		if (!n)
			return -1;
		t->n = n;
		t->cap = cap;
	}
	t->n[t->nn++] = (struct fnode){ name, len, depth, x, 0, 0 };
	return 0;
}

/* Close the open path down to keep frames: each closed frame's values go to its parent. */
static void path_close(struct tree *t, size_t *path, int *plen, int keep)
{
	for (; *plen > keep; (*plen)--) {
		struct fnode *c = &t->n[path[*plen - 1]], *p = &t->n[path[*plen - 2]];

		p->v += c->v;
		p->b += c->b;
	}
}

/* The i-th frame of a stack's text from *at: its start and length; false past the end. */
static bool next_frame(const char **at, const char **name, size_t *len)
{
	const char *s = *at, *e;

	if (!s)
		return false;
	e = strchr(s, ';');
	*name = s;
	*len = e ? (size_t)(e - s) : strlen(s);
	*at = e ? e + 1 : NULL;
	return true;
}

/* One stack (sorted after the previous) into the tree along the open path. */
static int tree_add(struct tree *t, const struct flame_stack *s, size_t *path, int *plen,
		    uint64_t *x)
{
	const char *at = s->frames[0] ? s->frames : NULL, *name;
	size_t len;
	int d = 1;

	for (; next_frame(&at, &name, &len); d++) {
		struct fnode *o;

		if (d > MAX_DEPTH) {
			t->capped++;
			break;
		}
		o = d < *plen ? &t->n[path[d]] : NULL;
		if (o && o->len == len && !memcmp(o->name, name, len))
			continue;
		path_close(t, path, plen, d);
		if (node_open(t, name, len, d, *x) < 0)
			return -1;
		path[(*plen)++] = t->nn - 1;
	}
	path_close(t, path, plen, d > MAX_DEPTH ? MAX_DEPTH + 1 : d);
	t->n[path[*plen - 1]].v += s->value;
	t->n[path[*plen - 1]].b += s->base;
	*x += s->value;
	return 0;
}

static int tree_build(struct tree *t, const struct flame_stack *s, size_t n)
{
	const struct flame_stack **o = malloc((n ? n : 1) * sizeof(*o));
	size_t *path = malloc((MAX_DEPTH + 2) * sizeof(*path));
	uint64_t x = 0;
	int plen = 1, rc = -1;

	memset(t, 0, sizeof(*t));
	if (!o || !path || node_open(t, "all", 3, 0, 0) < 0)
		goto out;
	path[0] = 0;
	for (size_t i = 0; i < n; i++)
		o[i] = &s[i];
	qsort(o, n, sizeof(*o), by_frames);
	for (size_t i = 0; i < n; i++) {
		if (!o[i]->value)
			t->gone_base += o[i]->base;
		if (tree_add(t, o[i], path, &plen, &x) < 0)
			goto out;
	}
	path_close(t, path, &plen, 1);
	t->total = t->n[0].v;
	t->base_total = t->n[0].b;
	rc = 0;
out:
	free(o);
	free(path);
	return rc;
}

enum kind { K_USER, K_KERNEL, K_UNKNOWN };

static enum kind frame_kind(const struct fnode *f, size_t *shown)
{
	*shown = f->len;
	if (f->len >= 4 && !memcmp(f->name + f->len - 4, "_[k]", 4)) {
		*shown = f->len - 4;
		return K_KERNEL;
	}
	if ((f->len == 9 && !memcmp(f->name, "[unknown]", 9)) ||
	    (f->len == 2 && !memcmp(f->name, "--", 2))) /* off-wake: blocked below, waker above */
		return K_UNKNOWN;
	return K_USER;
}

/* A stable number in [0, 1) from a name, so a function keeps its shade between graphs. */
static double name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return (double)(h % 1000) / 1000.0;
}

static void kind_colour(enum kind k, double h, char *buf, size_t len)
{
	if (k == K_KERNEL) /* teal */
		snprintf(buf, len, "rgb(%d,%d,%d)", 60 + (int)(50 * h), 170 + (int)(50 * h),
			 170 + (int)(40 * h));
	else if (k == K_UNKNOWN)
		snprintf(buf, len, "rgb(%d,%d,%d)", 175 + (int)(30 * h), 175 + (int)(30 * h),
			 175 + (int)(30 * h));
	else /* flamegraph.pl's hot palette */
		snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(50 * h), 80 + (int)(150 * h),
			 (int)(55 * h));
}

/* The change of a frame's share, base to new, in points of 100%. */
static double share_change(const struct tree *t, const struct fnode *f)
{
	double a = t->base_total ? (double)f->b / (double)t->base_total : 0;

	return 100.0 * ((double)f->v / (double)t->total - a);
}

/* The colour is full at the largest change drawn, but never below this many points: two
 * runs that differ by hundredths of a point stay pale, not the deepest blue. */
#define DIFF_FULL_MIN 1.0

/* Red for growth, blue for shrinkage, white for none: by |change| over the largest. */
static void diff_colour(double change, double maxabs, char *buf, size_t len)
{
	double i = maxabs > 0 ? fabs(change) / maxabs : 0;
	int c = (int)lround(245 - 200 * i);

	if (change > 0)
		snprintf(buf, len, "rgb(255,%d,%d)", c, c);
	else if (change < 0)
		snprintf(buf, len, "rgb(%d,%d,255)", c, c);
	else
		snprintf(buf, len, "rgb(245,245,245)");
}

struct layout {
	double scale;		/* px per value unit */
	double minw;		/* narrowest frame drawn, px */
	int graph_top;		/* y of the deepest row */
	int width;
	double maxabs;		/* the colour's full scale: the largest |share change| among
				 * drawn frames, at least DIFF_FULL_MIN points */
	double maxup, maxdown;	/* the largest growth and shrinkage among them (points) */
	size_t hidden;		/* frames narrower than minw (with a value) */
	int maxdepth;		/* the deepest frame drawn */
};

static int frame_y(const struct layout *L, int depth)
{
	return L->graph_top + (L->maxdepth - depth) * FRAME_H;
}

/* The tooltip: name, value and share, the base's and the change on a differential graph. */
static void frame_title(FILE *f, const struct tree *t, const struct fnode *n, size_t shown,
			enum kind k, const struct flame_opts *o)
{
	char v[32], b[32], s1[16], s2[16];

	fputs("<title>", f);
	xml_text_utf8n(f, n->name, shown);
	fprintf(f, "%s\n%s %s, %s", k == K_KERNEL ? " [kernel]" : "", fmt_count(n->v, v, sizeof(v)),
		o->unit ? o->unit : "", fmt_share((double)n->v, (double)t->total, 2, s1, sizeof(s1)));
	if (o->differential)
		fprintf(f, "; base %s, %s; change %+.2f points", fmt_count(n->b, b, sizeof(b)),
			fmt_share((double)n->b, (double)t->base_total, 2, s2, sizeof(s2)),
			share_change(t, n));
	fputs("</title>", f);
}

/* The bytes of s's first chars characters (a byte of invalid UTF-8 one), within len. */
static size_t chars_bytes(const char *s, size_t len, size_t chars)
{
	size_t at = 0;

	for (; at < len && chars; chars--) {
		size_t l = utf8_seq_len(s + at, len - at);

		at += l ? l : 1;
	}
	return at;
}

/* The name as far as it fits in w px, ".." where cut; nothing under 3 characters. */
static void frame_label(FILE *f, const struct fnode *n, size_t shown, double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / (FONT_PX * 0.59)) : 0, cut;

	if (fit < 3)
		return;
	cut = chars_bytes(n->name, shown, fit);
	if (cut == shown) {
		xml_text_utf8n(f, n->name, shown);
		return;
	}
	xml_text_utf8n(f, n->name, chars_bytes(n->name, shown, fit - 2));
	fputs("..", f);
}

static void frame_draw(FILE *f, const struct tree *t, const struct fnode *n, const struct layout *L,
		       const struct flame_opts *o)
{
	double x = PAD + (double)n->x * L->scale, w = (double)n->v * L->scale;
	char fill[32];
	size_t shown;
	enum kind k = frame_kind(n, &shown);
	int y = frame_y(L, n->depth);

	if (o->differential)
		diff_colour(share_change(t, n), L->maxabs, fill, sizeof(fill));
	else if (!n->depth || (n->len == 2 && !memcmp(n->name, "--", 2))) /* "all", off-wake's
		* "--" between the blocked stack and its waker's: no functions, neutral */
		snprintf(fill, sizeof(fill), "rgb(215,215,215)");
	else
		kind_colour(k, name_hash(n->name, shown), fill, sizeof(fill));
	fprintf(f, "<g class=\"f\" data-x=\"%llu\" data-v=\"%llu\" data-d=\"%d\" data-k=\"%c\">",
		(unsigned long long)n->x, (unsigned long long)n->v, n->depth, "ukn"[k]);
	frame_title(f, t, n, shown, k, o);
	fprintf(f, "<rect x=\"%.3f\" y=\"%d\" width=\"%.3f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>"
		   "<text x=\"%.3f\" y=\"%d\"%s>", x, y, w, FRAME_H - 1, fill, x + 3, y + 11,
		o->differential && L->maxabs > 0 &&
				fabs(share_change(t, n)) / L->maxabs > 0.6 ? " fill=\"white\"" : "");
	frame_label(f, n, shown, w);
	fputs("</text></g>\n", f);
}

/* Which frames are drawn (at least minw wide), and the largest share change among them. */
static void layout_frames(const struct tree *t, struct layout *L, bool differential)
{
	for (size_t i = 0; i < t->nn; i++) {
		const struct fnode *n = &t->n[i];

		if ((double)n->v * L->scale < L->minw) {
			L->hidden += n->v > 0;
			continue;
		}
		if (n->depth > L->maxdepth)
			L->maxdepth = n->depth;
		if (!differential)
			continue;
		if (share_change(t, n) > L->maxup)
			L->maxup = share_change(t, n);
		if (share_change(t, n) < L->maxdown)
			L->maxdown = share_change(t, n);
		L->maxabs = L->maxup > -L->maxdown ? L->maxup : -L->maxdown;
	}
	if (differential && L->maxabs < DIFF_FULL_MIN)
		L->maxabs = DIFF_FULL_MIN;
}

/* The line under the title: totals, and what is not drawn, said. */
static void notes(FILE *f, const struct tree *t, const struct layout *L, size_t nstacks,
		  const struct flame_opts *o)
{
	char a[32], b[32], c[32], s[16];

	fprintf(f, "<text class=\"notes\" x=\"%d\" y=\"38\" fill=\"#333\">", PAD);
	fprintf(f, "%s ", fmt_count(t->total, a, sizeof(a)));
	xml_text(f, o->unit ? o->unit : "");
	fprintf(f, " in %s stacks", fmt_count(nstacks, b, sizeof(b)));
	if (o->differential)
		fprintf(f, " (base: %s)", fmt_count(t->base_total, c, sizeof(c)));
	fprintf(f, "; frames narrower than %g px not drawn: %s", L->minw,
		fmt_count(L->hidden, a, sizeof(a)));
	if (t->capped)
		fprintf(f, "; %s stack%s deeper than %d frames cut there",
			fmt_count(t->capped, b, sizeof(b)), t->capped == 1 ? "" : "s", MAX_DEPTH);
	if (o->differential && t->gone_base)
		fprintf(f, "; stacks only in the base: %s of it, not drawn (swap the files "
			   "to see them)",
			fmt_share((double)t->gone_base, (double)t->base_total, 1, s, sizeof(s)));
	fputs("</text>\n", f);
}

static void legend(FILE *f, const struct layout *L, const struct flame_opts *o)
{
	static const char *const kinds[] = { "user", "kernel", "unknown" };
	int x = PAD, y = 46;

	if (o->differential) {
		char lo[32], hi[32];

		diff_colour(L->maxabs, L->maxabs, hi, sizeof(hi));
		diff_colour(-L->maxabs, L->maxabs, lo, sizeof(lo));
		fprintf(f, "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			   "fill=\"%s\"/><text x=\"%d\" y=\"%d\">share of all grew (most: %+.2f "
			   "points)</text><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			   "fill=\"%s\"/><text x=\"%d\" y=\"%d\">share of all shrank (most: %+.2f "
			   "points); the deeper the colour, the larger the change (one scale both "
			   "ways, full at %.2f points)</text></g>\n",
			x, y, hi, x + 16, y + 10, L->maxup, x + 250, y, lo, x + 266, y + 10,
			L->maxdown, L->maxabs);
		return;
	}
	fputs("<g class=\"legend\">", f);
	for (int k = 0; k < 3; k++, x += 90) {
		char fill[32];

		kind_colour((enum kind)k, 0.5, fill, sizeof(fill));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\">%s</text>", x, y, fill, x + 16, y + 10, kinds[k]);
	}
	fputs("</g>\n", f);
}

/* The title, the controls the script drives (hidden where no script runs: they are
 * drawn but inert), the notes and the legend. */
static void header(FILE *f, const struct tree *t, const struct layout *L, size_t nstacks,
		   const struct flame_opts *o)
{
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"20\" font-size=\"15\">", PAD);
	xml_text(f, o->title ? o->title : o->differential ? "Differential flame graph" :
							     "Flame graph");
	fputs("</text>\n", f);
	fprintf(f, "<text id=\"unzoom\" x=\"%d\" y=\"20\" text-anchor=\"end\" opacity=\"0\" "
		   "cursor=\"pointer\">Reset zoom</text>\n", L->width - 170);
	fprintf(f, "<text id=\"search\" x=\"%d\" y=\"20\" text-anchor=\"end\" cursor=\"pointer\" "
		   "fill=\"#555\">Search</text>\n", L->width - PAD);
	fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"58\" text-anchor=\"end\" fill=\"#555\">"
		   "</text>\n", L->width - PAD);
	notes(f, t, L, nstacks, o);
	legend(f, L, o);
}

/* The caption: the command, kernel, machine and date, and where the stacks came from. */
static int footer(FILE *f, int y, const struct flame_opts *o, int width)
{
	char c1[600], c2[900];
	size_t at;

	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%d\" fill=\"#333\"> </text>\n", PAD, y);
	if (o->caption) {
		svg_caption_lines(o->caption, NULL, NULL, NULL, c1, sizeof(c1), c2, sizeof(c2));
	} else {
		snprintf(c1, sizeof(c1), "command: unknown");
		snprintf(c2, sizeof(c2), "kernel unknown | machine unknown");
	}
	at = strlen(c2);
	if (o->source && at < sizeof(c2))
		snprintf(c2 + at, sizeof(c2) - at, " | source: %s", o->source);
	(void)width;
	return svg_caption_draw(f, PAD, y + 18, c1, c2);
}


int flame_svg_write(FILE *out, const struct flame_stack *s, size_t n, const struct flame_opts *o)
{
	struct tree t;
	struct layout L = { 0 };
	int height;

	if (tree_build(&t, s, n) < 0) {
		free(t.n);
		errno = ENOMEM;
		return -1;
	}
	L.width = o->width_px > 0 ? o->width_px : 1200;
	L.minw = o->min_width_px > 0 ? o->min_width_px : 0.1;
	L.scale = t.total ? (double)(L.width - 2 * PAD) / (double)t.total : 0;
	L.graph_top = 66;
	layout_frames(&t, &L, o->differential);
	height = L.graph_top + (L.maxdepth + 1) * FRAME_H + 60;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"Verdana, sans-serif\" font-size=\"%d\" "
		     "data-total=\"%llu\" data-gw=\"%d\" data-pad=\"%d\" data-minw=\"%g\">\n",
		L.width, height, L.width, height, FONT_PX, (unsigned long long)t.total,
		L.width - 2 * PAD, PAD, L.minw);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<title>");
	xml_text(out, o->title ? o->title : "flame graph");
	fputs("</title>\n", out);
	header(out, &t, &L, n, o);
	fputs("<g id=\"frames\">\n", out);
	for (size_t i = 0; t.total && i < t.nn; i++)
		if ((double)t.n[i].v * L.scale >= L.minw)
			frame_draw(out, &t, &t.n[i], &L, o);
	fputs("</g>\n", out);
	if (!t.total)
		fprintf(out, "<text x=\"%d\" y=\"%d\">no samples: nothing to draw</text>\n", PAD,
			L.graph_top + 12);
	footer(out, L.graph_top + (L.maxdepth + 1) * FRAME_H + 18, o, L.width);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		flame_script);
	free(t.n);
	return ferror(out) ? (errno = EIO, -1) : 0;
}
