/* stack_diff_report.c - folded stacks compared, as text, JSON and a flame graph. */
#include "stack_diff_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../analyzers/stacks.h"
#include "../common/outfile.h"
#include "../common/util.h"
#include "json.h"

#define STACK_WIDTH 100 /* a stack folds at its frames to this many columns, whole */

/* The stack root first, every frame, folded after its ';' under the row. */
static void stack_print(FILE *f, const char *s)
{
	size_t n = strlen(s);
	char *t = malloc(2 * n + 1), *o = t;

	if (!t) {
		fprintf(f, "    %s\n", s);
		return;
	}
	for (; *s; s++) { /* "a;b" as "a; b": a fold may come after each frame */
		*o++ = *s == ' ' ? FOLD_GLUE : *s;
		if (*s == ';')
			*o++ = ' ';
	}
	*o = '\0';
	fprint_folded(f, "    ", t, 6, STACK_WIDTH);
	free(t);
}

/* What a recordings' view counts, in words. */
static const char *view_words(const char *view)
{
	static const struct {
		const char *key, *words;
	} v[] = {
		{ "wakers", "what code woke a task, by wakeups" },
		{ "blocked", "why a task slept, by voluntary switch-outs" },
		{ "offwake", "the blocked stack and its waker's, by switch-outs" },
		{ "blocked-time", "why a task slept, by time off CPU" },
		{ "offwake-time", "the blocked stack and its waker's, by time off CPU" },
	};

	for (size_t i = 0; view && i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(view, v[i].key))
			return v[i].words;
	return "";
}

void stack_diff_text(FILE *f, const struct stack_diff *d, const char *base_name,
		     const char *cur_name, size_t top, const char *view)
{
	char a[32], b[32], n1[32], n2[32], s1[16], s2[16], head[1200];
	size_t n = d->n < top ? d->n : top;

	snprintf(head, sizeof(head), "Stacks whose share moved most, %s (base: %s in all) to %s "
		 "(new: %s in all)", base_name, fmt_count(d->base_total, a, sizeof(a)), cur_name,
		 fmt_count(d->cur_total, b, sizeof(b)));
	fprint_folded(f, "", head, 2, STACK_WIDTH);
	if (view) /* the recordings' view this is (--stacks chooses another) */
		fprintf(f, "  the view compared: %s (%s; --stacks picks another)\n", view,
			view_words(view));
	fprintf(f, "%9s %9s %8s %12s %12s  %s\n", "base", "new", "change", "base count",
		"new count", "(each stack under its row, root first)");
	for (size_t i = 0; i < n; i++) {
		const struct stack_change *c = &d->c[i];
		fprintf(f, "%9s %9s %+8.2f %12s %12s\n",
			fmt_share((double)c->base, (double)d->base_total, 2, s1, sizeof(s1)),
			fmt_share((double)c->cur, (double)d->cur_total, 2, s2, sizeof(s2)),
			100.0 * c->change, fmt_count(c->base, n1, sizeof(n1)),
			fmt_count(c->cur, n2, sizeof(n2)));
		stack_print(f, c->frames);
	}
	fprintf(f, "(%s of %s stacks; a share is of its file's total, the change in points)\n",
		fmt_count(n, a, sizeof(a)), fmt_count(d->n, b, sizeof(b)));
}

void stack_diff_json(FILE *f, const struct stack_diff *d, const char *base_name,
		     const char *cur_name, size_t top, const char *view)
{
	struct json j;
	size_t n = d->n < top ? d->n : top;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "base", base_name);
	json_string(&j, "new", cur_name);
	if (view)
		json_string(&j, "view", view);
	else
		json_null(&j, "view"); /* folded files */
	json_uint(&j, "base_total", d->base_total);
	json_uint(&j, "new_total", d->cur_total);
	json_uint(&j, "stacks", d->n);
	json_array(&j, "moved");
	for (size_t i = 0; i < n; i++) {
		const struct stack_change *c = &d->c[i];

		json_object(&j, NULL);
		json_string(&j, "stack", c->frames);
		json_uint(&j, "base_count", c->base);
		json_uint(&j, "new_count", c->cur);
		json_number(&j, "base_share", c->base_share);
		json_number(&j, "new_share", c->cur_share);
		json_number(&j, "change", c->change);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_end(&j);
}

int stack_diff_flame(FILE *f, const struct stack_diff *d, const struct flame_opts *o)
{
	struct flame_stack *s = malloc((d->n ? d->n : 1) * sizeof(*s));
	struct flame_opts dop = *o;
	int rc;

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < d->n; i++)
		s[i] = (struct flame_stack){ d->c[i].frames, d->c[i].cur, d->c[i].base };
	dop.differential = 1;
	rc = flame_svg_write(f, s, d->n, &dop);
	free(s);
	return rc;
}

struct diff_job {
	const struct stack_diff_out *o;
	const struct stack_diff *d;
	const struct flame_opts *fo;
	bool failed;		/* the flame graph could not be drawn (said) */
};

static void text_doc(FILE *f, void *ctx)
{
	struct diff_job *j = ctx;

	stack_diff_text(f, j->d, j->o->base, j->o->cur, j->o->top, j->o->view);
}

static void json_doc(FILE *f, void *ctx)
{
	struct diff_job *j = ctx;

	stack_diff_json(f, j->d, j->o->base, j->o->cur, j->o->top, j->o->view);
}

static void flame_doc(FILE *f, void *ctx)
{
	struct diff_job *j = ctx;

	if (stack_diff_flame(f, j->d, j->fo) < 0) {
		locus_err("%s: the flame graph could not be drawn: %s", j->o->flame, strerror(errno));
		j->failed = true;
	}
}

int stack_diff_write(const struct stack_diff_out *o, const struct stack_diff *d,
		     const struct flame_opts *fo)
{
	struct diff_job job = { o, d, fo, false };
	int rc = 0;

	if (o->out) {
		if (write_file_atomically(o->out, text_doc, &job) < 0)
			rc = -1;
	} else if (!(o->json && !strcmp(o->json, "-"))) {
		text_doc(stdout, &job);
	}
	if (o->json && write_file_atomically(o->json, json_doc, &job) < 0)
		rc = -1;
	if (o->flame && (write_file_atomically(o->flame, flame_doc, &job) < 0 || job.failed))
		rc = -1;
	return rc;
}

int stack_diff_draw(const struct stack_diff_out *o, const struct stack_diff *d,
		    const struct stack_diff_what *w, struct svg_caption *cap,
		    const struct svg_caption *rcap)
{
	char src[1200], ta[32], tb[32];
	struct flame_opts fo;
	struct stack_diff_out oo = *o;

	if (rcap) { /* the new recording's kernel and machine */
		snprintf(cap->kernel, sizeof(cap->kernel), "%s", rcap->kernel);
		snprintf(cap->host, sizeof(cap->host), "%s", rcap->host);
	} else {
		snprintf(cap->kernel, sizeof(cap->kernel), "not in folded files");
		snprintf(cap->host, sizeof(cap->host), "not in folded files");
	}
	snprintf(src, sizeof(src), "%s%s, base %s (%s in all), new %s (%s in all); drawn %s",
		 w->view ? "stacks of " : "folded stacks", w->view ? w->view : "", o->base,
		 fmt_count(w->base_total, ta, sizeof(ta)), o->cur,
		 fmt_count(w->cur_total, tb, sizeof(tb)), cap->date);
	cap->date[0] = '\0'; /* said in the source: the date the picture was drawn */
	fo = (struct flame_opts){ .title = "Differential flame graph: width by the new run, "
					       "red = share grew, blue = share shrank",
				      .unit = !w->view ? "counts" : w->by_time ? "us off CPU" :
					      w->kind == STACKS_WAKERS ? "wakeups" : "switches",
				      .caption = cap, .source = src };
	oo.view = w->view; /* the text and JSON say which view they compared */
	return stack_diff_write(&oo, d, &fo);
}
