/* blame.c - who delayed the wakee: each CPU's history of tasks and interrupts, and each
 * timed wakeup's wait itemized from it (blame.h). */
#include "blame.h"
#include "blame_int.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static const char *const cause_names[BC_NR] = {
	"running", "ahead", "hardirq", "softirq", "elsewhere", "cpu_idle", "unattributed",
};
static const char *const cause_labels[BC_NR] = {
	"ran instead: already running", "ran instead: picked ahead", "hardirq", "softirq",
	"waited elsewhere first", "its CPU idle (waking it)", "unattributed (no record)",
};

const char *blame_cause_name(enum blame_cause c)
{
	return c < BC_NR ? cause_names[c] : "?";
}

const char *blame_cause_label(enum blame_cause c)
{
	return c < BC_NR ? cause_labels[c] : "?";
}

void blame_init(struct blame *b, const struct blame_cfg *cfg)
{
	int n = cfg->topo->ncpus;

	memset(b, 0, sizeof(*b));
	b->cfg = *cfg;
	b->r.irq_source = cfg->irq_source;
	b->r.ncpus = n;
	b->r.cpu = xcalloc((size_t)n + 1, sizeof(*b->r.cpu));
	b->cpu = xcalloc((size_t)n + 1, sizeof(*b->cpu));
	tidmap_init(&b->task_idx);
	tidmap_init(&b->culprit_idx);
	b->p99 = xcalloc(1, sizeof(*b->p99));
	b->p99->over = b->r.p99_off = cfg->no_p99; /* nothing kept, said so */
}

static bool valid_cpu(const struct blame *b, int32_t cpu)
{
	return (uint32_t)cpu < (uint32_t)b->r.ncpus;
}

static struct bl_task *task_find(const struct blame *b, int32_t tid)
{
	int32_t i = tid > 0 ? tidmap_get(&b->task_idx, tid) : -1;

	return i >= 0 ? &b->tasks[i] : NULL;
}

/* tid's record, made on first sight (may move the table). */
static struct bl_task *task_get(struct blame *b, int32_t tid)
{
	struct bl_task *t = task_find(b, tid);

	if (t || tid <= 0)
		return t;
	if (b->ntasks == b->cap_tasks) {
		b->cap_tasks = b->cap_tasks ? 2 * b->cap_tasks : 256;
		b->tasks = xrealloc(b->tasks, (size_t)b->cap_tasks * sizeof(*b->tasks));
	}
	t = &b->tasks[b->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	tidmap_put(&b->task_idx, tid, b->ntasks++);
	return t;
}

static void set_comm(char *dst, const char *src)
{
	if (src[0])
		memcpy(dst, src, TASK_COMM_LEN);
}

/* Forget what no wait can reach any more: stretches ended BLAME_KEEP_NS before now. */
static void prune(struct bl_cpu *c, uint64_t now)
{
	if (now < BLAME_KEEP_NS)
		return;
	while (c->head < c->n && c->seg[c->head].to + BLAME_KEEP_NS < now)
		c->kept_from = c->seg[c->head++].to;
	while (c->phead < c->pn && c->pc[c->phead].to + BLAME_KEEP_NS < now)
		c->phead++;
	if (c->head > 1024 && c->head > c->n / 2) {
		memmove(c->seg, c->seg + c->head, (size_t)(c->n - c->head) * sizeof(*c->seg));
		c->n -= c->head;
		c->head = 0;
	}
	if (c->phead > 1024 && c->phead > c->pn / 2) {
		memmove(c->pc, c->pc + c->phead, (size_t)(c->pn - c->phead) * sizeof(*c->pc));
		c->pn -= c->phead;
		c->phead = 0;
	}
}

/* The task running on c since c->since ran to `to`. */
static void close_seg(struct bl_cpu *c, uint64_t to)
{
	struct bl_seg *s;

	if (!c->known || to <= c->since)
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->seg = xrealloc(c->seg, (size_t)c->cap * sizeof(*c->seg));
	}
	s = &c->seg[c->n++];
	s->from = c->since;
	s->to = to;
	s->tid = c->tid;
	memcpy(s->comm, c->comm, TASK_COMM_LEN);
}

/*
 * An event of tid on c when c's last switch put another task there: the switch onto it
 * was not recorded. The one before ran to now (the idle task: to its last event there,
 * the stretch after it unknown), tid from now.
 */
static void inferred(struct blame *b, struct bl_cpu *c, int32_t tid, uint64_t now)
{
	struct bl_task *t = task_find(b, tid);

	close_seg(c, c->tid == 0 ? c->seen : now);
	c->tid = tid;
	if (t)
		memcpy(c->comm, t->comm, TASK_COMM_LEN);
	else
		c->comm[0] = '\0';
	c->since = now;
	c->seen = now;
}

/* A wakeup of pid by e->tid on e->cpu. */
static void on_wake(struct blame *b, const struct event *e)
{
	struct bl_task *waker, *t;
	int32_t cpu = e->cpu;
	struct bl_path path = { 0 };
	int keep = 0;

	if (b->cfg.tracks && !b->cfg.tracks(b->cfg.tracks_ctx, e->wake.pid))
		return;
	t = task_get(b, e->wake.pid);
	if (!t || t->running)
		return; /* woken while it runs: no wait */
	set_comm(t->comm, e->wake.comm);
	waker = task_find(b, e->tid);
	if (e->tid <= 0) {
		path.n = 0; /* woken from an interrupt on an idle CPU: no task woke it */
	} else if (waker && waker->live && waker != t) {
		path = waker->path;
	} else {
		path.n = 1;
		path.link[0].tid = e->tid;
		if (waker)
			memcpy(path.link[0].comm, waker->comm, TASK_COMM_LEN);
		else if (valid_cpu(b, cpu) && b->cpu[cpu].tid == e->tid)
			memcpy(path.link[0].comm, b->cpu[cpu].comm, TASK_COMM_LEN);
	}
	for (int i = 0; i < path.n; i++) /* back to a task in it: the chain restarts there */
		if (path.link[i].tid == t->tid)
			keep = i + 1;
	if (path.n == BLAME_CHAIN_MAX && !keep)
		keep = 1;
	if (keep) {
		path.n -= keep;
		memmove(path.link, path.link + keep, (size_t)path.n * sizeof(path.link[0]));
		if (path.n)
			path.link[0].delay_ns = 0; /* the chain's first: its own wakeup not in it */
	}
	path.link[path.n].tid = t->tid;
	memcpy(path.link[path.n].comm, t->comm, TASK_COMM_LEN);
	path.link[path.n++].delay_ns = 0;
	t->path = path;
	t->pending = true;
	t->wakeup_seen = false;
	t->wake_ns = t->q_since = e->time_ns;
	t->elsewhere_ns = 0;
	t->waker_tid = e->tid;
	t->waker_cpu = cpu;
	t->waker_switches = valid_cpu(b, cpu) ? b->cpu[cpu].switches : 0;
}

/* set_task_cpu of a woken task: try_to_wake_up placing it (the waker, on its CPU, not
 * switched out since, before sched_wakeup), or a move after it waited (load balance). */
static void on_migrate(struct blame *b, const struct event *e)
{
	struct bl_task *t = task_find(b, e->mig.pid);

	if (!t || !t->pending)
		return;
	if (!t->wakeup_seen && e->cpu == t->waker_cpu && e->tid == t->waker_tid &&
	    valid_cpu(b, e->cpu) && b->cpu[e->cpu].switches == t->waker_switches)
		return;
	if (e->time_ns > t->q_since) {
		t->elsewhere_ns += e->time_ns - t->q_since;
		t->q_since = e->time_ns;
	}
}

static int32_t culprit_row(struct blame *b, const struct bl_seg *s)
{
	int32_t i = tidmap_get(&b->culprit_idx, s->tid);
	struct blame_culprit *c;

	if (i < 0) {
		if (b->r.nculprits == b->cap_culprits) {
			b->cap_culprits = b->cap_culprits ? 2 * b->cap_culprits : 64;
			b->r.culprits = xrealloc(b->r.culprits,
						 (size_t)b->cap_culprits * sizeof(*b->r.culprits));
		}
		i = b->r.nculprits++;
		c = &b->r.culprits[i];
		memset(c, 0, sizeof(*c));
		c->tid = s->tid;
		tidmap_put(&b->culprit_idx, s->tid, i);
	}
	set_comm(b->r.culprits[i].comm, s->comm);
	return i;
}

static void split_add(struct blame_split *s, const uint64_t ns[BC_NR])
{
	s->wakeups++;
	for (int i = 0; i < BC_NR; i++) {
		s->ns[i] += ns[i];
		s->wait_ns += ns[i];
	}
}

/* The stretches of c within [from, to] into b->hit (newest first); their number. */
static int hits_in(struct blame *b, const struct bl_cpu *c, uint64_t from, uint64_t to)
{
	int n = 0;

	for (int i = c->n - 1; i >= c->head && c->seg[i].to > from; i--) {
		uint64_t lo = c->seg[i].from > from ? c->seg[i].from : from;
		uint64_t hi = c->seg[i].to < to ? c->seg[i].to : to;

		if (hi <= lo)
			continue;
		if (n == b->cap_hit) {
			b->cap_hit = b->cap_hit ? 2 * b->cap_hit : 64;
			b->hit = xrealloc(b->hit, (size_t)b->cap_hit * sizeof(*b->hit));
		}
		b->hit[n++] = (struct bl_hit){ i, hi - lo };
	}
	return n;
}

/* The handlers on c within [from, to]: into ns[], their rows, and off the stretch each
 * ran within (they interrupted its task). */
static void irqs_in(struct blame *b, const struct bl_cpu *c, uint64_t from, uint64_t to,
		    int nhit, uint64_t ns[BC_NR])
{
	uint64_t rows = 0; /* the handlers met in this wait (BLAME_IRQS = 64 bits) */

	_Static_assert(BLAME_IRQS <= 64, "one bit per handler row");
	for (int i = c->pn - 1; i >= c->phead && c->pc[i].to > from; i--) {
		const struct bl_piece *p = &c->pc[i];
		uint64_t lo = p->from > from ? p->from : from;
		uint64_t hi = p->to < to ? p->to : to;

		if (hi <= lo)
			continue;
		ns[p->soft ? BC_SOFTIRQ : BC_HARDIRQ] += hi - lo;
		if (p->irq >= 0) {
			b->r.irqs[p->irq].ns += hi - lo;
			if (!(rows >> p->irq & 1))
				b->r.irqs[p->irq].wakeups++;
			rows |= 1ull << p->irq;
		} else {
			b->r.irq_other_ns += hi - lo;
		}
		for (int h = 0; h < nhit; h++) {
			const struct bl_seg *s = &c->seg[b->hit[h].seg];

			if (s->from <= lo && lo < s->to) {
				b->hit[h].ns -= hi - lo < b->hit[h].ns ? hi - lo : b->hit[h].ns;
				break;
			}
		}
	}
}

/* A timed wakeup whose idle verdict is to come (blame_verdict). */
static void tell_later(struct blame *b, int32_t tid, int32_t cpu, enum locality cls,
		       uint64_t wake_ns)
{
	if (b->told_head > 1024 && b->told_head > b->ntold / 2) {
		memmove(b->told, b->told + b->told_head,
			(size_t)(b->ntold - b->told_head) * sizeof(*b->told));
		b->ntold -= b->told_head;
		b->told_head = 0;
	}
	if (b->ntold == b->cap_told) {
		b->cap_told = b->cap_told ? 2 * b->cap_told : 256;
		b->told = xrealloc(b->told, (size_t)b->cap_told * sizeof(*b->told));
	}
	b->told[b->ntold++] = (struct bl_told){ tid, cpu, (uint8_t)cls, wake_ns };
}

/* The split of t's wakeup, run at now, to cfg.told, with the task that ran longest. */
static void tell_split(struct blame *b, const struct bl_task *t, uint64_t now,
		       const uint64_t ns[BC_NR], int nmine)
{
	struct blame_told w = { t->tid, t->wake_ns, now, { 0 }, 0, "", 0 };

	memcpy(w.ns, ns, sizeof(w.ns));
	for (int i = 0; i < nmine; i++)
		if (b->mine[i].ns > w.top_ns) {
			const struct blame_culprit *k = &b->r.culprits[b->mine[i].culprit];

			w.top_ns = b->mine[i].ns;
			w.top_tid = k->tid;
			memcpy(w.top_comm, k->comm, TASK_COMM_LEN);
		}
	b->cfg.told(b->cfg.told_ctx, &w);
}

/* ns more of the wait by culprit row i: into the wakeup's list of distinct culprits. */
static void mine_add(struct blame *b, int *n, int32_t i, uint64_t ns)
{
	for (int k = 0; k < *n; k++)
		if (b->mine[k].culprit == i) {
			b->mine[k].ns += ns;
			return;
		}
	if (*n == b->cap_mine) {
		b->cap_mine = b->cap_mine ? 2 * b->cap_mine : 16;
		b->mine = xrealloc(b->mine, (size_t)b->cap_mine * sizeof(*b->mine));
	}
	b->mine[(*n)++] = (struct bl_mine){ i, ns };
}

/* t, woken, runs on cpu at now: its wait itemized. */
static void attribute(struct blame *b, struct bl_task *t, int32_t cpu, uint64_t now)
{
	const struct bl_cpu *c = &b->cpu[cpu];
	uint64_t ns[BC_NR] = { 0 }, local, sum = 0;
	int nhit, nmine = 0;
	enum locality cls = LOC_NR;

	if (t->q_since > now) { /* a move stamped after the run (a late record): none */
		t->elsewhere_ns -= t->q_since - now < t->elsewhere_ns ? t->q_since - now :
									 t->elsewhere_ns;
		t->q_since = now;
	}
	local = now - t->q_since;
	nhit = hits_in(b, c, t->q_since, now);

	ns[BC_ELSEWHERE] = t->elsewhere_ns;
	irqs_in(b, c, t->q_since, now, nhit, ns);
	for (int h = 0; h < nhit; h++) {
		const struct bl_seg *s = &c->seg[b->hit[h].seg];
		struct blame_culprit *k;
		bool running = s->from <= t->q_since;
		int32_t i;

		if (!b->hit[h].ns || s->tid == t->tid)
			continue;
		if (s->tid == 0) {
			ns[BC_IDLE] += b->hit[h].ns;
			continue;
		}
		ns[running ? BC_RUNNING : BC_AHEAD] += b->hit[h].ns;
		i = culprit_row(b, s);
		k = &b->r.culprits[i];
		k->ns += b->hit[h].ns;
		*(running ? &k->running_ns : &k->ahead_ns) += b->hit[h].ns;
		mine_add(b, &nmine, i, b->hit[h].ns);
	}
	for (int i = 0; i < nmine; i++) /* a wakeup delayed once per task */
		b->r.culprits[b->mine[i].culprit].wakeups++;
	for (int i = BC_RUNNING; i <= BC_IDLE; i++)
		if (i != BC_ELSEWHERE)
			sum += ns[i];
	ns[BC_UNKNOWN] = local > sum ? local - sum : 0;
	if (t->q_since < c->kept_from)
		b->r.beyond_history++;
	split_add(&b->r.all, ns);
	split_add(&b->r.cpu[cpu], ns);
	if (valid_cpu(b, t->waker_cpu)) {
		cls = topology_class(b->cfg.topo, t->waker_cpu, cpu);
		split_add(&b->r.by_class[cls], ns);
	}
	bl_p99_add(b, ns, now - t->wake_ns, b->mine, nmine);
	if (b->cfg.told)
		tell_split(b, t, now, ns, nmine);
	/* the verdict of its idle CPUs comes from the wakeup analyzer, in the order of runs */
	if (b->cfg.verdicts)
		tell_later(b, t->tid, cpu, cls, t->wake_ns);
	t->path.link[t->path.n - 1].delay_ns = now - t->wake_ns;
	bl_chain_offer(b, &t->path, now);
}

static void on_switch(struct blame *b, struct bl_cpu *c, const struct event *e)
{
	struct bl_task *prev = task_get(b, e->sw.prev_pid);
	struct bl_task *next;

	if (c->known && c->tid != e->sw.prev_pid)
		inferred(b, c, e->sw.prev_pid, e->time_ns);
	close_seg(c, e->time_ns);
	if (prev) {
		set_comm(prev->comm, e->sw.prev_comm);
		if (prev->pending && e->time_ns >= prev->wake_ns) { /* it ran: its switch-in lost */
			prev->pending = false;
			b->r.untimed++;
		}
		prev->running = false;
		if (!event_switch_involuntary(e))
			prev->live = false; /* it blocked: its chain ends */
	}
	c->known = true;
	c->tid = e->sw.next_pid;
	memcpy(c->comm, e->sw.next_comm, TASK_COMM_LEN);
	c->since = c->seen = e->time_ns;
	c->switches++;
	next = task_get(b, e->sw.next_pid);
	if (!next)
		return;
	set_comm(next->comm, e->sw.next_comm);
	next->running = true;
	if (!next->pending)
		return;
	next->pending = false;
	if (e->time_ns < next->wake_ns)
		return; /* a race with the switch, or skew: not timed (as the wakeup analyzer) */
	attribute(b, next, e->cpu, e->time_ns);
	next->live = true;
}

void blame_add(struct blame *b, const struct event *e)
{
	struct bl_cpu *c;

	if (e->type == EV_COMM || e->type == EV_LOST || e->type == EV_MEM ||
	    !valid_cpu(b, e->cpu))
		return;
	c = &b->cpu[e->cpu];
	if (e->time_ns > b->last_ns) {
		b->last_ns = e->time_ns;
		prune(c, e->time_ns);
	}
	if (e->type != EV_SWITCH && e->tid >= 0 && c->known) {
		if (c->tid != e->tid)
			inferred(b, c, e->tid, e->time_ns);
		c->seen = e->time_ns;
	}
	if (e->type != EV_SWITCH && e->tid > 0 &&
	    !((e->type == EV_WAKING || e->type == EV_WAKEUP) && e->wake.pid == e->tid)) {
		struct bl_task *t = task_find(b, e->tid);

		if (t && t->pending && e->time_ns >= t->wake_ns) { /* its switch-in was lost */
			t->pending = false;
			b->r.untimed++;
		}
		if (t)
			t->running = true;
	}
	if (EV_IRQ_TYPES >> e->type & 1) {
		bl_on_irq(b, c, e);
		return;
	}
	switch (e->type) {
	case EV_WAKING:
		if (b->cfg.waking_source)
			on_wake(b, e);
		break;
	case EV_WAKEUP:
		if (!b->cfg.waking_source) {
			on_wake(b, e);
		} else {
			struct bl_task *t = task_find(b, e->wake.pid);

			if (t)
				t->wakeup_seen = true;
		}
		break;
	case EV_MIGRATE:
		on_migrate(b, e);
		break;
	case EV_SWITCH:
		on_switch(b, c, e);
		break;
	default:
		break;
	}
}

void blame_verdict(struct blame *b, const struct idle_told *v)
{
	int i;

	if (v->ic.verdict == IDLE_DEFERRED)
		return; /* told again, judged */
	for (i = b->told_head; i < b->ntold; i++)
		if (b->told[i].tid == v->tid && b->told[i].wake_ns == v->wake_ns)
			break;
	if (i == b->ntold) {
		b->r.verdicts_unmatched++; /* a wakeup it did not time */
		return;
	}
	if (v->ic.verdict == IDLE_PASSED) {
		const struct bl_told *w = &b->told[i];
		struct blame_split *s[3] = { &b->r.all, &b->r.cpu[w->cpu],
					     w->cls < LOC_NR ? &b->r.by_class[w->cls] : NULL };

		for (int k = 0; k < 3; k++)
			if (s[k]) {
				s[k]->idle_passed++;
				s[k]->idle_passed_ns += v->ic.wait_ns;
			}
	}
	b->told_head = i + 1; /* the ones before it got no verdict */
	if (b->told_head == b->ntold)
		b->told_head = b->ntold = 0;
}

void blame_finish(struct blame *b)
{
	bl_tables_finish(b);
}

const struct blame_results *blame_results(const struct blame *b)
{
	return &b->r;
}

void blame_release(struct blame *b)
{
	for (int i = 0; b->cpu && i < b->r.ncpus; i++) {
		free(b->cpu[i].seg);
		free(b->cpu[i].pc);
	}
	free(b->cpu);
	free(b->r.cpu);
	free(b->r.culprits);
	free(b->tasks);
	free(b->told);
	free(b->hit);
	free(b->mine);
	if (b->p99) {
		free(b->p99->wk);
		free(b->p99->ran);
		free(b->p99);
	}
	tidmap_release(&b->task_idx);
	tidmap_release(&b->culprit_idx);
	memset(b, 0, sizeof(*b));
}
