/* stack_diff.c - two sets of folded stacks joined by stack (stack_diff.h). */
#include "stack_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_frames(const void *a, const void *b)
{
	return strcmp(((const struct stack_change *)a)->frames,
		      ((const struct stack_change *)b)->frames);
}

static int by_change(const void *a, const void *b)
{
	const struct stack_change *x = a, *y = b;
	double dx = fabs(x->change), dy = fabs(y->change);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->frames, y->frames);
}

int stack_diff_build(struct stack_diff *d, const struct folded_set *base,
		     const struct folded_set *cur)
{
	size_t n = base->n + cur->n, out = 0;
	struct stack_change *all = calloc(n ? n : 1, sizeof(*all));

	memset(d, 0, sizeof(*d));
	if (!all)
		return -1;
	for (size_t i = 0; i < base->n; i++)
		all[i] = (struct stack_change){ .frames = base->s[i].frames, .base = base->s[i].value };
	for (size_t i = 0; i < cur->n; i++)
		all[base->n + i] = (struct stack_change){ .frames = cur->s[i].frames,
							  .cur = cur->s[i].value };
	qsort(all, n, sizeof(*all), by_frames);
	for (size_t i = 0; i < n; i++) { /* the same stack's entries are neighbours: add them */
		if (out && !strcmp(all[out - 1].frames, all[i].frames)) {
			all[out - 1].base += all[i].base;
			all[out - 1].cur += all[i].cur;
			continue;
		}
		all[out++] = all[i];
	}
	d->base_total = base->total;
	d->cur_total = cur->total;
	for (size_t i = 0; i < out; i++) {
		struct stack_change *c = &all[i];

		c->base_share = base->total ? (double)c->base / (double)base->total : 0;
		c->cur_share = cur->total ? (double)c->cur / (double)cur->total : 0;
		c->change = c->cur_share - c->base_share;
	}
	qsort(all, out, sizeof(*all), by_change);
	d->c = all;
	d->n = out;
	return 0;
}

void stack_diff_release(struct stack_diff *d)
{
	free(d->c);
	memset(d, 0, sizeof(*d));
}
