/* jsonread.c - recursive-descent JSON reader with depth and bounds checks. */
#include "jsonread.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_DEPTH 64

struct reader {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	bool failed;
};

static int line_of(const struct reader *r)
{
	int line = 1;

	for (const char *q = r->start; q < r->p && q < r->end; q++)
		line += *q == '\n';
	return line;
}

static void fail(struct reader *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, r->errlen, "line %d: %s", line_of(r), what);
	r->failed = true;
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

static int hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* At the opening quote. Returns a malloc'd decoded string, or NULL after fail(). */
static char *string(struct reader *r)
{
	const char *q = ++r->p;
	char *out, *o;

	while (q < r->end && *q != '"')
		q += *q == '\\' && q + 1 < r->end ? 2 : 1;
	if (q >= r->end) {
		fail(r, "unterminated string");
		return NULL;
	}
	o = out = xmalloc((size_t)(q - r->p) + 1); /* decoding never grows the text */
	while (r->p < q) {
		unsigned char c = (unsigned char)*r->p++;
		int cp;

		if (c < 0x20) {
			fail(r, "control character in a string");
			free(out);
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		c = (unsigned char)*r->p++;
		switch (c) {
		case '"': case '\\': case '/':
			*o++ = (char)c;
			break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (q - r->p < 4 || (cp = hex4(r->p)) < 0) {
				fail(r, "bad \\u escape");
				free(out);
				return NULL;
			}
			r->p += 4;
			/* a surrogate pair becomes one code point; a lone one, U+FFFD */
			if (cp >= 0xd800 && cp < 0xdc00 && q - r->p >= 6 && r->p[0] == '\\' &&
			    r->p[1] == 'u') {
				int lo = hex4(r->p + 2);

				if (lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					r->p += 6;
				}
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			/* "\uXXXX" is 6 bytes, its UTF-8 at most 3 (4 for a pair's 12) */
			o += put_utf8(o, (unsigned)cp);
			break;
		default:
			fail(r, "bad escape in a string");
			free(out);
			return NULL;
		}
	}
	*o = '\0';
	r->p = q + 1;
	return out;
}

static void number(struct reader *r, struct jv *v)
{
	char buf[64];
	const char *s = r->p;
	char *end;
	size_t n;

	while (r->p < r->end && strchr("+-0123456789.eE", *r->p))
		r->p++;
	n = (size_t)(r->p - s);
	if (n == 0 || n >= sizeof(buf)) {
		fail(r, n ? "number too long" : "expected a value");
		return;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	v->num = strtod(buf, &end);
	if (*end || !isfinite(v->num))
		fail(r, "bad number");
	v->type = JV_NUMBER;
}

static void value(struct reader *r, struct jv *v, int depth);

static void push(struct jv *v, size_t *cap, char *key)
{
	if (v->n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		v->items = xrealloc(v->items, *cap * sizeof(*v->items));
		if (v->type == JV_OBJECT)
			v->keys = xrealloc(v->keys, *cap * sizeof(*v->keys));
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	if (v->type == JV_OBJECT)
		v->keys[v->n] = key;
	v->n++;
}

static void container(struct reader *r, struct jv *v, int depth, bool object)
{
	char close = object ? '}' : ']';
	size_t cap = 0;

	v->type = object ? JV_OBJECT : JV_ARRAY;
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(r);
		if (object) {
			if (r->p >= r->end || *r->p != '"') {
				fail(r, "expected a member name");
				return;
			}
			if (!(key = string(r)))
				return;
			skip_ws(r);
			if (r->p >= r->end || *r->p != ':') {
				free(key);
				fail(r, "expected ':'");
				return;
			}
			r->p++;
		}
		push(v, &cap, key);
		value(r, &v->items[v->n - 1], depth + 1);
		if (r->failed)
			return;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return;
		}
		fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
		return;
	}
}

static void value(struct reader *r, struct jv *v, int depth)
{
	skip_ws(r);
	if (depth > MAX_DEPTH) {
		fail(r, "nested too deep");
		return;
	}
	if (r->p >= r->end) {
		fail(r, "unexpected end of input");
		return;
	}
	switch (*r->p) {
	case '{':
		container(r, v, depth, true);
		return;
	case '[':
		container(r, v, depth, false);
		return;
	case '"':
		v->type = JV_STRING;
		v->str = string(r);
		return;
	}
	if (literal(r, "true")) {
		v->type = JV_BOOL;
		v->b = true;
	} else if (literal(r, "false")) {
		v->type = JV_BOOL;
	} else if (literal(r, "null")) {
		v->type = JV_NULL;
	} else {
		number(r, v);
	}
}

static void release(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		release(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

struct jv *jv_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct reader r = { text, text + len, text, err, errlen, false };
	struct jv *root = xcalloc(1, sizeof(*root));

	value(&r, root, 0);
	skip_ws(&r);
	if (!r.failed && r.p != r.end)
		fail(&r, "text after the JSON value");
	if (r.failed) {
		jv_free(root);
		return NULL;
	}
	return root;
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	release(v);
	free(v);
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (v->keys[i] && !strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

double jv_num(const struct jv *v, const char *key, double dflt)
{
	const struct jv *m = jv_get(v, key);

	return m && m->type == JV_NUMBER ? m->num : dflt;
}

int jv_long(const struct jv *v, const char *key, long min, long max, long dflt, long *out)
{
	const struct jv *m = jv_get(v, key);

	*out = dflt;
	if (!m || m->type == JV_NULL)
		return 0;
	return m->type == JV_NUMBER ? num_to_long(m->num, min, max, out) : -1;
}

const char *jv_str(const struct jv *v, const char *key, const char *dflt)
{
	const struct jv *m = jv_get(v, key);

	return m && m->type == JV_STRING && m->str ? m->str : dflt;
}
