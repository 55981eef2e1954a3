/* folded.c - reading folded stacks (folded.h). */
#define _GNU_SOURCE /* memrchr, memmem */
#include "folded.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "util.h"

/* What is wrong with one line's stack (frames), or NULL. */
static const char *frames_wrong(const char *s, size_t len)
{
	if (!len)
		return "no stack before the count (each line: frame;frame;frame COUNT)";
	if (s[0] == ';' || s[len - 1] == ';' || memmem(s, len, ";;", 2))
		return "an empty frame (frames are separated by single ';', none empty)";
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\r')
			return "a carriage return (convert the file's line ends to \\n)";
		if (s[i] == '\t')
			return "a tab (frames and count are separated by one space)";
	}
	return NULL;
}

/* True when the frames end in " DIGITS": a second count (difffolded.pl's lines). */
static int two_counts(const char *s, size_t len)
{
	size_t i = len;

	while (i && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	return i < len && i && s[i - 1] == ' ';
}

/* The count at s (len bytes) into *v; NULL or what is wrong. */
static const char *count_wrong(const char *s, size_t len, uint64_t *v)
{
	*v = 0;
	if (!len)
		return "no count after the stack (each line: frame;frame;frame COUNT)";
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (s[i] == '\r')
			return "a carriage return (convert the file's line ends to \\n)";
		if (d > 9)
			return "the count is not a whole decimal number (each line: "
			       "frame;frame;frame COUNT)";
		if (*v > (UINT64_MAX - d) / 10)
			return "the count does not fit 64 bits";
		*v = *v * 10 + d;
	}
	return NULL;
}

static int line_parse(struct folded_set *f, char *line, size_t len, uint64_t *v,
		      const char **why)
{
	char *sp = memrchr(line, ' ', len);

	if (!len) {
		*why = "an empty line (one stack a line, no blank lines)";
		return -1;
	}
	if (!sp) {
		*why = "no space before a count (each line: frame;frame;frame COUNT)";
		return -1;
	}
	if ((*why = count_wrong(sp + 1, len - (size_t)(sp + 1 - line), v)) ||
	    (*why = frames_wrong(line, (size_t)(sp - line))))
		return -1;
	if (two_counts(line, (size_t)(sp - line))) {
		*why = "two counts (difffolded.pl's lines are not read: give locus diff the "
		       "two folded files)";
		return -1;
	}
	if (f->total > UINT64_MAX - *v) {
		*why = "the counts' sum does not fit 64 bits";
		return -1;
	}
	*sp = '\0';
	return 0;
}

int folded_parse(const char *name, char *text, size_t len, struct folded_set *f, char *err,
		 size_t errlen)
{
	size_t cap = 0, lineno = 0;
	const char *why = NULL;
	char *at = text, *end = text + len;

	memset(f, 0, sizeof(*f));
	f->text = text;
	if (memchr(text, '\0', len)) {
		lineno = 1;
		for (char *p = text; *p; p++)
			lineno += *p == '\n';
		why = "a NUL byte (not a text file)";
		goto bad;
	}
	while (at < end) {
		char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t ll = nl ? (size_t)(nl - at) : (size_t)(end - at);
		uint64_t v;

		lineno++;
		if (ll > FOLDED_MAX_LINE) {
			why = "a line longer than 16 MiB";
			goto bad;
		}
		if (line_parse(f, at, ll, &v, &why) < 0)
			goto bad;
		if (f->n == cap) {
			cap = cap ? cap * 2 : 64;
			f->s = xrealloc(f->s, cap * sizeof(*f->s));
		}
		f->s[f->n++] = (struct folded_stack){ at, v };
		f->total += v;
		at = nl ? nl + 1 : end;
	}
	if (!f->n) {
		snprintf(err, errlen, "%s: no stacks (an empty file: was anything sampled?)", name);
		folded_release(f);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s:%zu: %s", name, lineno, why);
	folded_release(f);
	return -1;
}

int folded_load(const char *path, struct folded_set *f, char *err, size_t errlen)
{
	size_t len;
	char *text = read_whole_file(path, FOLDED_MAX_BYTES, &len);

	if (!text) {
		snprintf(err, errlen, "%s: %s", path,
			 errno == EFBIG ? "larger than 1 GiB" : strerror(errno));
		memset(f, 0, sizeof(*f));
		return -1;
	}
	return folded_parse(path, text, len, f, err, errlen);
}

/* The index of the first byte at or after i that is not JSON whitespace. */
static size_t skip_space(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\n' || t[i] == '\t' || t[i] == '\r'))
		i++;
	return i;
}

int folded_sniff(const char *text, size_t len)
{
	size_t i = skip_space(text, len, 0), j;

	if (i == len || text[i] == '{')
		return 0;
	if (text[i] != '[')
		return 1;
	/* "[unknown];main 3" is a stack; a JSON array opens with a value or closes */
	j = skip_space(text, len, i + 1);
	return j < len && !strchr("{[]\"-0123456789", text[j]);
}

#define UNKNOWN "[unknown]"

static bool is_unknown(const char *f, size_t len)
{
	return len == sizeof(UNKNOWN) - 1 && !memcmp(f, UNKNOWN, len);
}

/* Frames [a, b) of a segment (root at its start, or at its end: root_last) into out. */
static char *fold_segment(char *out, const char *a, const char *b, bool root_last)
{
	const char *f[2] = { a, a }; /* the frame being read: start, end */
	char *start = out;
	bool prev_unknown = false, any = false;

	for (const char *p = a; p <= b; p++) {
		bool unknown;

		if (p < b && *p != ';')
			continue;
		f[1] = p;
		unknown = is_unknown(f[0], (size_t)(f[1] - f[0]));
		/* the root's unknowns dropped (root first: those before any other frame) */
		if (!(unknown && ((!root_last && !any) || prev_unknown))) {
			if (out != start)
				*out++ = ';';
			memmove(out, f[0], (size_t)(f[1] - f[0]));
			out += f[1] - f[0];
		}
		any |= !unknown;
		prev_unknown = unknown;
		f[0] = p + 1;
	}
	if (root_last && prev_unknown && any) { /* the last frame written, an unknown root */
		char *semi = memrchr(start, ';', (size_t)(out - start));

		out = semi ? semi : out;
	}
	if (out == start) { /* nothing but unknowns: one stays */
		memcpy(out, UNKNOWN, sizeof(UNKNOWN) - 1);
		out += sizeof(UNKNOWN) - 1;
	}
	return out;
}

size_t folded_fold_unknown(char *frames)
{
	size_t len = strlen(frames);
	char *sep = memmem(frames, len, ";--;", 4), *out;

	if (!memmem(frames, len, UNKNOWN, sizeof(UNKNOWN) - 1))
		return len;
	out = fold_segment(frames, frames, sep ? sep : frames + len, false);
	if (sep) {
		char *waker = sep + 4; /* its text moves left only: out <= sep */

		memmove(out, ";--;", 4);
		out = fold_segment(out + 4, waker, frames + len, true);
	}
	*out = '\0';
	return (size_t)(out - frames);
}

void folded_set_fold_unknown(struct folded_set *f)
{
	for (size_t i = 0; i < f->n; i++)
		folded_fold_unknown((char *)f->s[i].frames);
}

void folded_release(struct folded_set *f)
{
	free(f->s);
	free(f->text);
	memset(f, 0, sizeof(*f));
}

bool folded_file_sniff(const char *path)
{
	char buf[256];
	ssize_t n = read_file_head(path, buf, sizeof(buf));

	return n > 0 && folded_sniff(buf, (size_t)n);
}
