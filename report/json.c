/* json.c - streaming JSON writer used by every --json output. */
#include "json.h"

#include <inttypes.h>
#include <math.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->has_items[0] = false;
}

static void put_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void item(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_items[j->depth])
			fputc(',', j->f);
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->has_items[j->depth] = true;
	if (key) {
		put_escaped(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_scope(struct json *j, const char *key, char c)
{
	item(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void close_scope(struct json *j, char c)
{
	bool had = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
}

void json_object(struct json *j, const char *key)
{
	open_scope(j, key, '{');
}

void json_object_end(struct json *j)
{
	close_scope(j, '}');
}

void json_array(struct json *j, const char *key)
{
	open_scope(j, key, '[');
}

void json_array_end(struct json *j)
{
	close_scope(j, ']');
}

void json_string(struct json *j, const char *key, const char *s)
{
	item(j, key);
	put_escaped(j->f, s ? s : "");
}

void json_number(struct json *j, const char *key, double v)
{
	item(j, key);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(j->f, "%.0f", v);
	else
		fprintf(j->f, "%.10g", v);
}

void json_int(struct json *j, const char *key, int64_t v)
{
	item(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_uint(struct json *j, const char *key, uint64_t v)
{
	item(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	item(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	item(j, key);
	fputs("null", j->f);
}

void json_uint_row(struct json *j, const char *key, const uint64_t *v, size_t n)
{
	item(j, key);
	fputc('[', j->f);
	for (size_t i = 0; i < n; i++)
		fprintf(j->f, "%s%" PRIu64, i ? ", " : "", v[i]);
	fputc(']', j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}
