/* diff_stacks.c - `locus diff [--flame OUT.svg] BASE.folded NEW.folded` (diff_stacks.h). */
#include "diff_stacks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../analyzers/stack_diff.h"
#include "../common/exitcodes.h"
#include "../common/folded.h"
#include "../common/util.h"
#include "../report/stack_diff_report.h"
#include "caption.h"
#include "counting.h"

bool diff_is_folded(const char *path)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false; /* the loop reader says why it cannot be read */
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 && folded_sniff(buf, (size_t)n);
}

struct stacks_job {
	const struct diff_stacks_plan *p;
	const struct stack_diff *d;
	struct flame_opts fo;
	bool failed;		/* the flame graph could not be drawn (said) */
};

static void text_doc(FILE *f, void *ctx)
{
	struct stacks_job *j = ctx;

	stack_diff_text(f, j->d, j->p->base, j->p->cur, j->p->top);
}

static void json_doc(FILE *f, void *ctx)
{
	struct stacks_job *j = ctx;

	stack_diff_json(f, j->d, j->p->base, j->p->cur, j->p->top);
}

static void flame_doc(FILE *f, void *ctx)
{
	struct stacks_job *j = ctx;

	if (stack_diff_flame(f, j->d, &j->fo) < 0) {
		locus_err("%s: the flame graph could not be drawn: %s", j->p->flame, strerror(errno));
		j->failed = true;
	}
}

static int stacks_write(const struct diff_stacks_plan *p, struct stacks_job *job)
{
	int rc = EXIT_LOCUS_OK;

	if (p->out) {
		if (write_file_atomically(p->out, text_doc, job) < 0)
			rc = EXIT_LOCUS_RUNTIME;
	} else if (!(p->json && !strcmp(p->json, "-"))) {
		text_doc(stdout, job);
	}
	if (p->json && write_file_atomically(p->json, json_doc, job) < 0)
		rc = EXIT_LOCUS_RUNTIME;
	if (p->flame && (write_file_atomically(p->flame, flame_doc, job) < 0 || job->failed))
		rc = EXIT_LOCUS_RUNTIME;
	return rc;
}

int diff_stacks(const struct diff_stacks_plan *p)
{
	struct folded_set a, b;
	struct stack_diff d;
	struct svg_caption cap;
	char err[600], src[1200], ta[32], tb[32];
	struct stacks_job job = { p, &d, { 0 }, false };
	int rc;

	if (folded_load(p->base, &a, err, sizeof(err)) < 0) {
		locus_err("%s", err);
		return EXIT_LOCUS_RUNTIME;
	}
	if (folded_load(p->cur, &b, err, sizeof(err)) < 0) {
		locus_err("%s", err);
		folded_release(&a);
		return EXIT_LOCUS_RUNTIME;
	}
	if (stack_diff_build(&d, &a, &b) < 0) {
		locus_err("comparing %s and %s: out of memory", p->base, p->cur);
		rc = EXIT_LOCUS_RUNTIME;
		goto out;
	}
	caption_live(&cap, p->argc, p->argv);
	snprintf(cap.kernel, sizeof(cap.kernel), "not in folded files");
	snprintf(cap.host, sizeof(cap.host), "not in folded files");
	snprintf(src, sizeof(src), "folded stacks, base %s (%s in all), new %s (%s in all); "
		 "drawn %s", p->base, fmt_count(a.total, ta, sizeof(ta)), p->cur,
		 fmt_count(b.total, tb, sizeof(tb)), cap.date);
	cap.date[0] = '\0'; /* said in the source: the date the picture was drawn */
	job.fo = (struct flame_opts){ .title = "Differential flame graph: width by the new run, "
					       "red = share grew, blue = share shrank",
				      .unit = "counts", .caption = &cap, .source = src };
	rc = stacks_write(p, &job);
	stack_diff_release(&d);
out:
	folded_release(&a);
	folded_release(&b);
	return rc;
}
