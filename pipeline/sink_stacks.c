/* sink_stacks.c - the stacks analyzer behind the sink interface (sink_stacks.h). */
#include "sink_stacks.h"

#include <string.h>

#include "../collectors/sched.h"

static void st_begin(struct sink *k, const struct sink_begin *b)
{
	((struct stacks_sink *)k)->st.topo = b->topo;
}

static void st_consume(struct sink *k, const struct event *e)
{
	stacks_add(&((struct stacks_sink *)k)->st, e);
}

/* The source's callchains, and names for their frames: a file's symbols, or this machine's
 * kallsyms and the mappings and forks the live stream saw. */
static void st_end(struct sink *k, const struct sink_end *e)
{
	struct stacks_sink *s = (struct stacks_sink *)k;

	s->tab = e->stacks;
	if (e->syms) {
		s->names = e->syms;
		return;
	}
	symbols_init(&s->syms);
	symbols_use_kallsyms(&s->syms, "/proc/kallsyms"); /* this machine's */
	for (int i = 0; i < e->nmaps; i++) {
		const struct sched_map *m = &e->maps[i];

		if (m->path)
			symbols_add_map(&s->syms, m->pid, m->start, m->len, m->pgoff, m->path);
		else
			symbols_add_fork(&s->syms, m->pid, m->ppid);
	}
	s->syms_on = true;
	s->names = &s->syms;
}

static void st_finish(struct sink *k)
{
	stacks_finish(&((struct stacks_sink *)k)->st);
}

static void st_release(struct sink *k)
{
	struct stacks_sink *s = (struct stacks_sink *)k;

	stacks_release(&s->st);
	if (s->syms_on)
		symbols_release(&s->syms);
	if (s->k.stood_in) {
		stack_table_release(&s->stand.tab);
		symbols_release(&s->stand.syms);
	}
	memset(s, 0, sizeof(*s));
}

/* The BPF programs sample stacks in the kernel: its rows go into st, their callchains and
 * names into the stand-in's table and symbols (this machine's kallsyms first). */
static void st_stand_in(struct sink *k, struct sink_stand_in *si, const struct sink_begin *b)
{
	struct stacks_sink *s = (struct stacks_sink *)k;

	(void)b; /* counted in the kernel: no classing here (its topology stays NULL) */
	s->stand.st = &s->st;
	stack_table_init(&s->stand.tab);
	symbols_init(&s->stand.syms);
	symbols_use_kallsyms(&s->stand.syms, "/proc/kallsyms");
	si->stacks = &s->stand;
}

static const struct sink_ops stacks_sink_ops = {
	.name = "stacks",
	.begin = st_begin,
	.consume = st_consume,
	.end = st_end,
	.finish = st_finish,
	.release = st_release,
	.stand_in = st_stand_in,
};

void stacks_sink_init(struct stacks_sink *s)
{
	memset(s, 0, sizeof(*s));
	s->k.ops = &stacks_sink_ops;
	s->k.types = 1u << EV_WAKING | 1u << EV_SWITCH;
	stacks_init(&s->st, NULL);
}

static bool tracked(void *ctx, int32_t tid)
{
	return wakeup_sink_tracks(ctx, tid);
}

void stacks_sink_scope(struct stacks_sink *s, struct wakeup_sink *wk)
{
	s->st.in_scope = tracked;
	s->st.scope_ctx = wk;
}

const struct stacks *stacks_sink_results(struct stacks_sink *s,
				       const struct stack_table **tab, struct stack_namer *nm)
{
	if (s->k.stood_in && !s->stand.on)
		return NULL;
	if (s->k.stood_in) {
		*tab = &s->stand.tab;
		*nm = symbols_stack_namer(&s->stand.syms);
		return &s->st;
	}
	if (!s->tab)
		return NULL;
	*tab = s->tab;
	*nm = symbols_stack_namer(s->names);
	return &s->st;
}
