/* golden.h - compare rendered output with a golden file (LOCUS_UPDATE_GOLDEN=1 rewrites it). */
#ifndef LOCUS_TEST_GOLDEN_H
#define LOCUS_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Returns 0 when text equals the file's content; prints a diff hint otherwise. */
static inline int golden_compare(const char *path, const char *text)
{
	FILE *f;
	char *want;
	long n;
	int rc;

	if (getenv("LOCUS_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		if (!f)
			return -1;
		fputs(text, f);
		fclose(f);
		return 0;
	}
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "golden file %s missing (LOCUS_UPDATE_GOLDEN=1 creates it)\n", path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	want = calloc(1, (size_t)n + 1);
	if (fread(want, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	fclose(f);
	rc = n >= 0 && strcmp(want, text) == 0 ? 0 : -1;
	if (rc) {
		char out[512];

		snprintf(out, sizeof(out), "%s.actual", path);
		f = fopen(out, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
		fprintf(stderr, "output differs from %s: diff -u %s %s\n", path, path, out);
	}
	free(want);
	return rc;
}

#endif
