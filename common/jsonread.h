/* jsonread.h - a small JSON reader: text in, a tree of values out (for locus diff). */
#ifndef LOCUS_JSONREAD_H
#define LOCUS_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type type;
	bool b;
	double num;
	char *str;		/* JV_STRING: decoded, NUL-terminated (a NUL escape ends it) */
	struct jv *items;	/* JV_ARRAY, JV_OBJECT: n values */
	char **keys;		/* JV_OBJECT: n keys */
	size_t n;
};

/*
 * Parse len bytes of JSON text (one value, whitespace around it). Returns the
 * root, or NULL with "line L: what was wrong" in err. Nesting is limited to
 * 64 levels; strings must be valid escapes (\uXXXX is decoded to UTF-8).
 */
struct jv *jv_parse(const char *text, size_t len, char *err, size_t errlen);
void jv_free(struct jv *v);

/* Member of an object by key, or NULL (also when v is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* Typed lookups with a default when absent or of another type. */
double jv_num(const struct jv *v, const char *key, double dflt);
const char *jv_str(const struct jv *v, const char *key, const char *dflt);
/*
 * A whole number member in [min, max] (absent or null: dflt). Returns 0, or
 * -1 when it is there but not such a number (a string, 1.5, 1e300).
 */
int jv_long(const struct jv *v, const char *key, long min, long max, long dflt, long *out);

#endif
