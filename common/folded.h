/*
 * folded.h - folded stacks as flamegraph.pl, speedscope and `locus --folded` write them:
 * one stack a line, "frame;frame;frame COUNT", root first. Read strictly: a line that is
 * not a stack and a count is refused with its file and line number.
 */
#ifndef LOCUS_FOLDED_H
#define LOCUS_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct folded_stack {
	const char *frames;	/* root first, ';'-separated, within the set's text */
	uint64_t value;
};

/* The stacks of one file, in its order (a stack may repeat: its counts add). */
struct folded_set {
	struct folded_stack *s;
	size_t n;
	uint64_t total;		/* the sum of the counts */
	char *text;		/* owns the frames */
};

/* The largest file read (bytes) and the longest line (a 10,000-frame stack fits). */
#define FOLDED_MAX_BYTES (1024u * 1024 * 1024)
#define FOLDED_MAX_LINE (16u * 1024 * 1024)

/*
 * Parse text (len bytes; taken over: freed by folded_release, also on error) named name
 * in messages. 0, or -1 with "NAME:LINE: what (how to fix)" in err. Every line is a
 * non-empty stack of non-empty frames, one space, a decimal count (the sum must fit 64
 * bits); no empty lines, no NUL bytes, no carriage returns; the last newline optional.
 */
int folded_parse(const char *name, char *text, size_t len, struct folded_set *f, char *err,
		 size_t errlen);

/* Read and parse the file at path; as folded_parse, "PATH: why" when it cannot be read. */
int folded_load(const char *path, struct folded_set *f, char *err, size_t errlen);

/*
 * True when text looks like folded stacks rather than JSON: its first byte not '{', and
 * not '[' opening an array ("[unknown];main 3" is a stack).
 */
int folded_sniff(const char *text, size_t len);
/* True when the file at path reads as folded stacks (its first 256 bytes; false when it
 * cannot be read: its reader says why). */
bool folded_file_sniff(const char *path);

/*
 * Fold the unwinder's "[unknown]" frames in one stack's frames (a NUL-terminated string,
 * rewritten in place): those at its root are dropped and a run of them elsewhere becomes
 * one, so two walks of the same code that ended differently (one more bogus return address
 * at the root) fold to the same stack. A stack of nothing else keeps one. In off-wake
 * stacks ("blocked;--;waker", the waker leaf first) the waker's root is its last frame.
 * Returns the new length.
 */
size_t folded_fold_unknown(char *frames);
/* The same for every stack of f (its total unchanged; a stack may now repeat another). */
void folded_set_fold_unknown(struct folded_set *f);

void folded_release(struct folded_set *f);

#endif
