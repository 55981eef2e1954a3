/* stacks_out.c - the --folded and --flame outputs of a pass's stacks (stacks_out.h). */
#include "stacks_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/folded.h"
#include "../common/outfile.h"
#include "../common/util.h"
#include "flame.h"

static const struct {
	const char *name;
	enum stacks_kind kind;
	bool by_time;
} kinds[] = {
	{ "wakers", STACKS_WAKERS, false },	   { "blocked", STACKS_BLOCKED, false },
	{ "offwake", STACKS_OFFWAKE, false },	   { "blocked-time", STACKS_BLOCKED, true },
	{ "offwake-time", STACKS_OFFWAKE, true },
};

int stacks_out_view(struct stacks_out *o, const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) == len && !strncmp(name, kinds[i].name, len)) {
			o->kind = kinds[i].kind;
			o->by_time = kinds[i].by_time;
			return 0;
		}
	}
	return -1;
}

struct folded_job {
	const struct stacks_out *o;
	const struct stacks *s;
	const struct stacks_frames *fr;
};

static void write_folded(FILE *f, void *arg)
{
	const struct folded_job *j = arg;

	stacks_write_folded(f, j->s, j->o->kind, j->o->by_time, j->fr);
}

static const char *const titles[STACKS_KINDS] = {
	"Wakeups by waker stack (what code woke a task)",
	"Off-CPU by blocked stack (why a task slept)",
	"Off-wake: blocked stack, then its waker's (above --)",
};

/* The SVG of o: its folded lines as the flame renderer's stacks. */
static int write_flame(const struct stacks_out *o, const struct stacks *s,
		       const struct stacks_frames *fr, const struct svg_caption *cap,
		       const char *input)
{
	struct stacks_lines ls;
	struct flame_stack *st;
	struct flame_opts fo = { 0 };
	char src[600];
	FILE *f;
	int rc;

	stacks_folded_lines(s, o->kind, o->by_time, fr, &ls);
	st = xcalloc(ls.n ? ls.n : 1, sizeof(*st));
	for (size_t i = 0; i < ls.n; i++)
		st[i] = (struct flame_stack){ ls.line[i].text, ls.line[i].weight, 0 };
	snprintf(src, sizeof(src), "locus report of %s: callchains of %s, %s", input,
		 o->kind == STACKS_WAKERS ? "sched_waking" :
		 o->kind == STACKS_BLOCKED ? "sched_switch (voluntary)" :
					     "sched_switch (voluntary) and sched_waking",
		 s->in_scope ? "the tasks followed" : "every task");
	fo.title = titles[o->kind];
	fo.unit = o->by_time ? "us" : o->kind == STACKS_WAKERS ? "wakeups" : "switches";
	fo.caption = cap;
	fo.source = src;
	f = fopen(o->path, "we");
	rc = f ? flame_svg_write(f, st, ls.n, &fo) : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		locus_err("cannot write %s: %s", o->path, strerror(errno));
	free(st);
	stacks_lines_release(&ls);
	return rc;
}

int stacks_out_write(const struct stacks_out *out, int n, const struct stacks *s,
		     const struct stacks_frames *fr, const struct svg_caption *cap,
		     const char *input)
{
	int rc = 0;

	for (int i = 0; i < n; i++) {
		struct folded_job j = { &out[i], s, fr };

		if (out[i].flame) {
			if (write_flame(&out[i], s, fr, cap, input) < 0)
				rc = -1;
		} else if (write_file_atomically(out[i].path, write_folded, &j) < 0) {
			rc = -1;
		}
	}
	return rc;
}

void stacks_folded_set(const struct stacks *s, enum stacks_kind k, bool by_time,
		       const struct stacks_frames *fr, struct folded_set *f)
{
	struct stacks_lines ls;
	size_t len = 0, at = 0;

	stacks_folded_lines(s, k, by_time, fr, &ls);
	for (size_t i = 0; i < ls.n; i++)
		len += strlen(ls.line[i].text) + 1;
	memset(f, 0, sizeof(*f));
	f->text = xmalloc(len ? len : 1);
	f->s = xcalloc(ls.n ? ls.n : 1, sizeof(*f->s));
	for (size_t i = 0; i < ls.n; i++) {
		size_t l = strlen(ls.line[i].text) + 1;

		memcpy(f->text + at, ls.line[i].text, l);
		f->s[f->n++] = (struct folded_stack){ f->text + at, ls.line[i].weight };
		f->total += ls.line[i].weight;
		at += l;
	}
	stacks_lines_release(&ls);
}
