/* report_stacks.c - locus report's --folded and --flame outputs (report_stacks.h). */
#include "report_stacks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../report/flame.h"
#include "../collectors/caption.h"
#include "counting.h"

static const struct {
	const char *name;
	enum stacks_kind kind;
	bool by_time;
} kinds[] = {
	{ "wakers", STACKS_WAKERS, false },	   { "blocked", STACKS_BLOCKED, false },
	{ "offwake", STACKS_OFFWAKE, false },	   { "blocked-time", STACKS_BLOCKED, true },
	{ "offwake-time", STACKS_OFFWAKE, true },
};

int stacks_take(struct stacks_plan *p, const struct cli_cmd *cmd, int code, const char *arg)
{
	const char *eq;
	size_t i, n = sizeof(kinds) / sizeof(kinds[0]);

	if (code == OPT_ST_ADDRS) {
		p->addresses = true;
		return 1;
	}
	if (code != OPT_ST_FOLDED && code != OPT_ST_FLAME)
		return 0;
	eq = strchr(arg, '=');
	for (i = 0; eq && i < n; i++)
		if (strlen(kinds[i].name) == (size_t)(eq - arg) &&
		    !strncmp(arg, kinds[i].name, (size_t)(eq - arg)))
			break;
	if (!eq || i == n || !eq[1]) {
		cli_usage_error(cmd, "bad --%s '%s' (KIND=FILE, KIND one of wakers, blocked, "
				"offwake, blocked-time, offwake-time)",
				code == OPT_ST_FLAME ? "flame" : "folded", arg);
		return -1;
	}
	if (p->n == STACKS_OUT_MAX) {
		cli_usage_error(cmd, "more than %d --folded and --flame outputs", STACKS_OUT_MAX);
		return -1;
	}
	if (cli_check_output(cmd, eq + 1) < 0)
		return -1;
	p->out[p->n++] = (struct stacks_out){ kinds[i].kind, kinds[i].by_time,
					      code == OPT_ST_FLAME, eq + 1 };
	return 1;
}

struct stacks_frames stacks_frames_of(const struct stacks_plan *pl, struct file_pass *fp,
				      struct stack_namer *namer)
{
	*namer = symbols_stack_namer(&fp->rp.syms);
	return (struct stacks_frames){ &fp->rp.rd.stacks, namer, pl && pl->addresses };
}

static void write_folded(FILE *f, void *arg)
{
	const void **a = arg;
	const struct stacks_out *o = a[0];
	const struct file_pass *fp = a[1];

	stacks_write_folded(f, &fp->stk.st, o->kind, o->by_time, a[2]);
}

static const char *const titles[STACKS_KINDS] = {
	"Wakeups by waker stack (what code woke a task)",
	"Off-CPU by blocked stack (why a task slept)",
	"Off-wake: blocked stack, then its waker's (above --)",
};

/* The SVG of o: its folded lines as the flame renderer's stacks. */
static int write_flame(const struct stacks_out *o, struct file_pass *fp,
		       const struct stacks_frames *fr, const char *input)
{
	struct stacks_lines ls;
	struct flame_stack *st;
	struct flame_opts fo = { 0 };
	struct svg_caption cap;
	char src[600];
	FILE *f;
	int rc;

	stacks_folded_lines(&fp->stk.st, o->kind, o->by_time, fr, &ls);
	st = xcalloc(ls.n ? ls.n : 1, sizeof(*st));
	for (size_t i = 0; i < ls.n; i++)
		st[i] = (struct flame_stack){ ls.line[i].text, ls.line[i].weight, 0 };
	caption_file(&cap, &fp->rp.f, input);
	snprintf(src, sizeof(src), "locus report of %s: callchains of %s, every task", input,
		 o->kind == STACKS_WAKERS ? "sched_waking" :
		 o->kind == STACKS_BLOCKED ? "sched_switch (voluntary)" :
					     "sched_switch (voluntary) and sched_waking");
	fo.title = titles[o->kind];
	fo.unit = o->by_time ? "us" : o->kind == STACKS_WAKERS ? "wakeups" : "switches";
	fo.caption = &cap;
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

int stacks_write_outputs(const struct stacks_plan *pl, struct file_pass *fp, const char *input)
{
	struct stack_namer namer;
	struct stacks_frames fr = stacks_frames_of(pl, fp, &namer);
	int rc = 0;

	if (pl->n && !fp->rp.rd.callchains)
		locus_err("%s: no callchains in the file: the stacks written are empty (record "
			  "with locus record -g, or perf record -g)", input);
	for (int i = 0; i < pl->n; i++) {
		const struct stacks_out *o = &pl->out[i];
		const void *arg[3] = { o, fp, &fr };

		if (o->flame) {
			if (write_flame(o, fp, &fr, input) < 0)
				rc = -1;
		} else if (write_file_atomically(o->path, write_folded, (void *)arg) < 0) {
			rc = -1;
		}
	}
	return rc;
}
