/* replay.c - a perf.data file into the same sinks as a live run: the file source. */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../model/sched_results.h"

/* One time-ordered event to the sinks (the window theirs: sinks_consume). */
static void deliver(void *ctx, const struct event *e)
{
	sinks_consume(((struct replay *)ctx)->src.sinks, e);
}

static bool file_has(const struct replay *rp, int t);

void replay_begin_info(const struct replay *rp, struct sink_begin *b)
{
	*b = (struct sink_begin){ 0 }; /* a file's tasks are all others: nothing excluded */
	b->topo = &rp->topo;
	b->waking_source = pd_reader_waking(&rp->rd);
	b->migrate_source = pd_reader_migrate(&rp->rd);
	/* locus record stores every task's mask at its start, before any sample */
	b->affinity_events = rp->rd.affinity_records > 0;
	b->irq_source = file_has(rp, EV_IRQ_ENTRY) && file_has(rp, EV_IRQ_EXIT) &&
			file_has(rp, EV_SOFTIRQ_ENTRY) && file_has(rp, EV_SOFTIRQ_EXIT);
}

/* The sinks start at the first sched event: in pipe mode the formats come in the stream. */
static void begin(struct replay *rp)
{
	struct sink_begin b;

	replay_begin_info(rp, &b);
	sinks_begin(rp->src.sinks, &b);
	rp->begun = true;
	for (int i = 0; i < rp->nearly; i++) /* the names from before the first sample */
		reorder_add(&rp->ro, &rp->early[i], deliver, rp);
	free(rp->early);
	rp->early = NULL;
	rp->nearly = rp->cap_early = 0;
}

static void on_event(void *ctx, const struct event *e)
{
	struct replay *rp = ctx;

	if (e->type == EV_MEM) {
		sinks_consume(rp->src.sinks, e); /* as they come: no window, no order */
	} else if (e->type == EV_LOST) {
		if (rp->begun)
			deliver(rp, e);
	} else if ((e->type == EV_COMM || e->type == EV_AFFINITY) && !rp->begun) {
		/* the names and masks of the tasks there when the recording began come first:
		 * kept until the first sched sample says how the file's wakeups are recorded */
		if (rp->nearly == rp->cap_early) {
			rp->cap_early = rp->cap_early ? 2 * rp->cap_early : 256;
			rp->early = xrealloc(rp->early, (size_t)rp->cap_early * sizeof(*rp->early));
		}
		rp->early[rp->nearly++] = *e;
	} else {
		if (!rp->begun)
			begin(rp);
		reorder_add(&rp->ro, e, deliver, rp);
	}
}

static void on_round(void *ctx)
{
	struct replay *rp = ctx;

	reorder_round(&rp->ro, deliver, rp);
	sinks_flush(rp->src.sinks);
}

static void on_map(void *ctx, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *path)
{
	struct replay *rp = ctx;

	if (!strncmp(path, "[kernel.kallsyms]", 17))
		rp->kernel_text = pgoff;
	symbols_add_map(&rp->syms, pid, start, len, pgoff, path);
}

static void on_fork(void *ctx, uint32_t pid, uint32_t ppid)
{
	symbols_add_fork(&((struct replay *)ctx)->syms, pid, ppid);
}

/* Whether the file recorded tracepoint type t (its formats alone do not say). */
static bool file_has(const struct replay *rp, int t)
{
	if (!rp->rd.decoder || rp->rd.dec.fmt[t].id < 0)
		return false;
	for (int i = 0; i < rp->f.nattrs; i++)
		if (rp->f.attrs[i].attr.type == PERF_TYPE_TRACEPOINT &&
		    rp->f.attrs[i].attr.config == (uint64_t)rp->rd.dec.fmt[t].id)
			return true;
	return false;
}

/*
 * The sched tracepoints a file lacks (perf record -e sched:sched_switch alone, say):
 * the measures they feed are not counted, never a made-up 0. A file without any
 * sched sample (memory samples only) is left alone: it has no scheduler report.
 */
static void not_recorded(const struct replay *rp, struct provenance *p)
{
	/* the ones a section reads (fork and exit only follow task trees) */
	static const int types[] = { EV_WAKING, EV_WAKEUP, EV_WAKEUP_NEW, EV_SWITCH, EV_MIGRATE };

	if (!rp->rd.decoder)
		return;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!file_has(rp, types[i]))
			p->not_recorded |= 1u << types[i];
	/* either wakeup tracepoint serves: only both missing is a gap */
	if (!(p->not_recorded & (1u << EV_WAKING)) || !(p->not_recorded & (1u << EV_WAKEUP)))
		p->not_recorded &= ~((1u << EV_WAKING) | (1u << EV_WAKEUP));
	p->not_recorded &= ~(1u << EV_WAKEUP); /* both missing: named once, as sched_waking */
	if (p->not_recorded & (1u << EV_WAKING))
		p->unmeasured |= SM_BIT(wakeups) | SM_BIT(wakeups_placed) |
				 SM_BIT(wakeups_running) | SM_BIT(moved_before_run) |
				 SM_BIT(idle_passed) | SM_BIT(idle_not_allowed) |
				 SM_BIT(idle_wait_ns) | SM_BIT(delays_untimed) |
				 SM_BIT(delays_negative) | SM_BIT(pairs_dropped) |
				 SM_BIT(switch_in_missed);
	if (p->not_recorded & (1u << EV_WAKEUP_NEW))
		p->unmeasured |= SM_BIT(wakeups_new);
	if (p->not_recorded & (1u << EV_MIGRATE))
		p->unmeasured |= SM_BIT(migrations);
	if (p->not_recorded & (1u << EV_SWITCH))
		p->unmeasured |= SM_BIT(voluntary) | SM_BIT(involuntary) |
				 SM_BIT(switch_in_missed) | SM_BIT(idle_passed) |
				 SM_BIT(idle_not_allowed) | SM_BIT(idle_wait_ns);
}

void replay_end(const struct replay *rp, struct provenance *p)
{
	const struct pd_file *f = &rp->f;

	p->end = f->end_missing ? PROV_END_WRITE : f->copy_cut ? PROV_END_COPY :
		 f->cut_short ? PROV_END_CUT : PROV_END_WHOLE;
	p->end_data_bytes = f->copy_cut ? f->end - f->data_off : 0; /* to the last whole record */
	p->end_data_want = f->copy_cut ? f->copy_data_size : 0;
	p->end_at_s = rp->rd.last_ns > rp->rd.first_ns ?
			      (double)(rp->rd.last_ns - rp->rd.first_ns) / 1e9 : 0;
	p->end_records = f->records;
	p->end_errno = f->end_errno;
	p->end_unwritten = f->end_unwritten;
}

/* How a replay measures: every CPU the file has, delays exact, its drops. */
void replay_stamp(const struct replay *rp, struct sched_results *r)
{
	struct provenance *p = &r->prov;

	memset(p, 0, sizeof(*p));
	p->source = PROV_REPLAY;
	snprintf(p->why, sizeof(p->why), "%s", rp->o->path);
	prov_set_cpus(p, &rp->topo, NULL, 0);
	p->scope = SCOPE_ALL;
	p->scope_pid = rp->o->pid;
	for (int i = 0; rp->o->pid && i < rp->o->nmore && p->nadded < PROV_ADDED_MAX; i++)
		p->added[p->nadded++] = rp->o->more[i];
	p->delay = DELAY_LOGLIN;
	/* a file's lost and undecodable records are counted whatever they held; tasks not
	 * followed and program runs skipped are the BPF collector's */
	p->unmeasured = SM_BIT(mem_lost) | SM_BIT(mem_undecodable) | SM_BIT(tasks_unfollowed) |
			SM_BIT(runs_missed);
	/* IPIs and polling wakeups where the file recorded their tracepoints, and
	 * sched_waking (sched_wakeup may follow a wakeup's IPI: none could be told apart) */
	if (!file_has(rp, EV_IPI) || !r->waking_source)
		p->unmeasured |= SM_BIT(wakeups_ipi) | SM_BIT(ipis_resched_other) |
				 SM_BIT(ipis_call_other);
	if (!file_has(rp, EV_WAKE_IDLE) || !r->waking_source)
		p->unmeasured |= SM_BIT(wakeups_no_ipi);
	not_recorded(rp, p);
	p->affinity_known = p->affinity_calls = rp->rd.affinity_records > 0;
	if (!p->affinity_known) /* perf's files: which CPUs a task could use is not known */
		p->unmeasured |= SM_BIT(idle_passed) | SM_BIT(idle_not_allowed) |
				 SM_BIT(idle_wait_ns) | SM_BIT(affinity_unknown);
	r->late = rp->ro.late;
	r->undecodable = rp->rd.undecodable;
	replay_end(rp, p);
}

static void rp_enable(struct source *s)
{
	(void)s;
}

static bool rp_wait(struct source *s, int ms)
{
	(void)s;
	(void)ms;
	return false; /* everything is there */
}

/* Every record of the file. */
static int rp_drain(struct source *s, char *err, size_t len)
{
	struct replay *rp = (struct replay *)s;
	const struct pd_consumer c = { .event = on_event, .round = on_round, .map = on_map,
				       .fork = on_fork, .ctx = rp };

	if (pd_consume(&rp->rd, &rp->f, &c, err, len) < 0)
		return -1;
	s->events = rp->rd.samples;
	if (rp->rd.ksyms) /* the recording's kernel symbols (its TRACING_DATA) */
		symbols_use_kallsyms_text(&rp->syms, rp->rd.ksyms, rp->rd.ksyms_len);
	else if (rp->rd.callchains && rp->kernel_text && /* only stacks need it */
		 symbols_kernel_text("/proc/kallsyms") == rp->kernel_text)
		/* perf's files hold none: this machine's, when its kernel text lies where the
		 * file's kernel map says (the same kernel, the same boot), as perf does */
		symbols_use_kallsyms(&rp->syms, "/proc/kallsyms");
	return 0;
}

static void rp_snapshot(struct source *s)
{
	(void)s; /* the results are complete after finish */
}

static void rp_stop(struct source *s)
{
	(void)s;
}

static void rp_finish(struct source *s)
{
	struct replay *rp = (struct replay *)s;

	if (!rp->begun)
		begin(rp); /* no sched samples: an empty analysis, so reports can say so */
	reorder_flush(&rp->ro, deliver, rp);
	sinks_flush(rp->src.sinks);
	/* the callchains of the events' stack ids, and the file's symbols that name them */
	sinks_end(rp->src.sinks, &(const struct sink_end){ .stacks = &rp->rd.stacks,
							   .syms = &rp->syms });
}

static void rp_close(struct source *s)
{
	replay_release((struct replay *)s);
}

static const struct source_ops replay_ops = {
	.name = "replay",
	.enable = rp_enable,
	.wait = rp_wait,
	.drain = rp_drain,
	.snapshot = rp_snapshot,
	.stop = rp_stop,
	.finish = rp_finish,
	.close = rp_close,
	/* a file: nothing to annotate from /proc, no task to follow */
};

int replay_open(struct replay *rp, const struct replay_opts *o, struct sinks *sinks, char *err,
		size_t len)
{
	char why[320];

	memset(rp, 0, sizeof(*rp));
	rp->src.ops = &replay_ops;
	rp->o = o;
	rp->src.sinks = sinks;
	rp->rd.progress = o->progress;
	rp->rd.progress_ctx = o->progress_ctx;
	reorder_init(&rp->ro);
	if (pd_open(&rp->f, o->path) < 0) {
		snprintf(err, len, "%s", rp->f.err);
		return -1;
	}
	if (pd_topology(&rp->f, &rp->topo) == 0) {
		snprintf(rp->topo_note, sizeof(rp->topo_note), "%s", rp->topo.source);
	} else if (topology_load(&rp->topo, o->sysfs_root, why, sizeof(why)) == 0) {
		snprintf(rp->topo_note, sizeof(rp->topo_note), "the file has none: %s's (%s)",
			 o->sysfs_root ? "--sysfs-root" : "this machine", rp->topo.source);
	} else {
		snprintf(err, len, "no topology in the file, and %s", why);
		return -1;
	}
	symbols_init(&rp->syms);
	return 0;
}

int replay_run(struct replay *rp, char *err, size_t len)
{
	if (rp->src.ops->drain(&rp->src, err, len) < 0)
		return -1;
	rp->src.ops->finish(&rp->src);
	sinks_finish(rp->src.sinks);
	return 0;
}

void replay_release(struct replay *rp)
{
	reorder_release(&rp->ro);
	free(rp->early);
	symbols_release(&rp->syms);
	topology_release(&rp->topo);
	pd_reader_release(&rp->rd);
	pd_close(&rp->f);
	memset(rp, 0, sizeof(*rp));
}

int replay_opts_pids(struct replay_opts *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	int n = 0, rc = 0;

	o->nmore = 0;
	for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		long v;

		if (parse_long(t, 1, 1L << 22, &v) < 0 || n > PD_ADDED_MAX)
			rc = -1;
		else if (n++ == 0)
			o->pid = (int32_t)v;
		else
			o->more[o->nmore++] = (int32_t)v;
	}
	free(copy);
	return rc == 0 && n > 0 ? 0 : -1;
}
