/* json.h - a small streaming JSON writer (pretty-printed, escaped, no allocation). */
#ifndef LOCUS_JSON_H
#define LOCUS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	bool has_items[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
/* key is NULL inside arrays and for the top-level value. */
void json_object(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *s);
/* Non-finite numbers are written as null. */
void json_number(struct json *j, const char *key, double v);
void json_int(struct json *j, const char *key, int64_t v);
void json_uint(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/* An array of numbers on one line: [1, 2, 3]. */
void json_uint_row(struct json *j, const char *key, const uint64_t *v, size_t n);
/* Finish the document with a newline. */
void json_end(struct json *j);

#endif
