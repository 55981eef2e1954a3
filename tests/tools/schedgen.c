/*
 * schedgen.c - write a perf.data file of sched tracepoint samples for a big machine
 * (the topology of a sysfs fixture, e.g. 512 CPUs in 8 nodes), with tracepoint formats
 * from a tracefs-shaped fixture: the same records `locus record` writes, placed so that
 * a test knows every answer. Pairs of tasks ping-pong ROUNDS times each, the wakee's
 * CPU chosen per pair to be the waker's CPU, an SMT sibling, a CPU of the same LLC, of
 * the same node, or of another node (in that order, repeating).
 * Usage: schedgen OUT.data SYSFS_FIXTURE TRACEFS_FIXTURE [PAIRS] [ROUNDS]
 *
 * With PAIRS "lossy": a small machine where tasks run, wake each other (from a task, or
 * from the idle task: a timer), migrate, sleep and are preempted, CPUs idle, and the
 * switch from idle to a task is left out of the file 4 times in 5 (as the perf ring
 * buffers lose them on the VM this was written on); ROUNDS wakeups, seeded by SEED.
 *   schedgen OUT.data SYSFS_FIXTURE TRACEFS_FIXTURE lossy ROUNDS [SEED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "../../collectors/pd_writer.h"
#include "../../collectors/topology.h"
#include "../../collectors/tracing_data.h"

enum { T_WAKING, T_SWITCH, T_MIGRATE, T_NR };
static const char *const names[T_NR] = { "sched_waking", "sched_switch", "sched_migrate_task" };

struct gen {
	struct pd_writer w;
	struct tep_event *ev[T_NR];
	uint64_t t;
};

static size_t raw_size(struct tep_event *ev);

/*
 * Set a field of raw: a number, or a string s. A __data_loc string (sched_migrate_task's
 * comm on 6.x kernels) goes after the fixed fields, its word the offset and length, as the
 * kernel writes it; returns the bytes it adds after them (0 for the rest).
 */
static size_t put(struct tep_event *ev, uint8_t *raw, const char *field, long long v,
		  const char *s)
{
	struct tep_format_field *f = tep_find_any_field(ev, field);

	if (!f) {
		fprintf(stderr, "schedgen: %s has no field %s\n", ev->name, field);
		exit(1);
	}
	if (s && (f->flags & TEP_FIELD_IS_DYNAMIC)) {
		size_t at = raw_size(ev), n = strlen(s) + 1;
		uint32_t loc = (uint32_t)(n << 16 | at);

		memcpy(raw + at, s, n);
		memcpy(raw + f->offset, &loc, sizeof(loc));
		return n;
	}
	if (s)
		strncpy((char *)raw + f->offset, s, (size_t)f->size);
	else
		memcpy(raw + f->offset, &v, (size_t)f->size); /* little endian */
	return 0;
}

static size_t raw_size(struct tep_event *ev)
{
	size_t n = 0;

	for (struct tep_format_field *f = ev->format.common_fields; f; f = f->next)
		n = n > (size_t)(f->offset + f->size) ? n : (size_t)(f->offset + f->size);
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		n = n > (size_t)(f->offset + f->size) ? n : (size_t)(f->offset + f->size);
	return n;
}

/* One sample: IDENTIFIER, TID, TIME, CPU, RAW (as locus record writes them). */
static void sample(struct gen *g, int type, int cpu, int cur, const uint8_t *raw, size_t len)
{
	uint8_t rec[512];
	struct perf_event_header *h = (void *)rec;
	uint64_t id = (uint64_t)type + 1, time = g->t;
	uint32_t pt[2] = { (uint32_t)cur, (uint32_t)cur }, cr[2] = { (uint32_t)cpu, 0 };
	uint32_t rlen = (uint32_t)((len + 4 + 7) / 8 * 8 - 4);
	size_t off = sizeof(*h);

	memset(rec, 0, sizeof(rec));
	memcpy(rec + off, &id, 8), off += 8;
	memcpy(rec + off, pt, 8), off += 8;
	memcpy(rec + off, &time, 8), off += 8;
	memcpy(rec + off, cr, 8), off += 8;
	memcpy(rec + off, &rlen, 4), off += 4;
	memcpy(rec + off, raw, len);
	off += rlen;
	h->type = PERF_RECORD_SAMPLE;
	h->size = (uint16_t)off;
	pd_writer_add(&g->w, rec, off);
}

static void common(struct gen *g, int type, uint8_t *raw, int cur)
{
	memset(raw, 0, 256);
	put(g->ev[type], raw, "common_type", g->ev[type]->id, NULL);
	put(g->ev[type], raw, "common_pid", cur, NULL);
}

static void waking(struct gen *g, int cpu, int waker, int wakee, int prev)
{
	uint8_t raw[256];

	common(g, T_WAKING, raw, waker);
	put(g->ev[T_WAKING], raw, "comm", 0, "ponger");
	put(g->ev[T_WAKING], raw, "pid", wakee, NULL);
	put(g->ev[T_WAKING], raw, "prio", 120, NULL);
	put(g->ev[T_WAKING], raw, "target_cpu", prev, NULL);
	sample(g, T_WAKING, cpu, waker, raw, raw_size(g->ev[T_WAKING]));
}

static void sw(struct gen *g, int cpu, int prev, long state, int next);

static void migrate(struct gen *g, int cpu, int cur, int pid, int orig, int dest)
{
	uint8_t raw[256];
	struct tep_event *e = g->ev[T_MIGRATE];
	size_t more;

	common(g, T_MIGRATE, raw, cur);
	more = put(e, raw, "comm", 0, "ponger");
	put(e, raw, "pid", pid, NULL);
	put(e, raw, "prio", 120, NULL);
	put(e, raw, "orig_cpu", orig, NULL);
	put(e, raw, "dest_cpu", dest, NULL);
	sample(g, T_MIGRATE, cpu, cur, raw, raw_size(e) + more);
}

/* The lossy scenario (see the top): a little scheduler, every record in time order. */
#define LT 12			/* tasks */
#define LC 64			/* CPUs at most */
struct lossy {
	uint64_t rng;
	int state[LT], cpu[LT];	/* 0 asleep, 1 queued, 2 running; its CPU */
	int curr[LC], q[LC][LT], nq[LC];
	uint64_t next[LC];	/* when the CPU acts next */
};

static uint64_t rnd(struct lossy *l, uint64_t n)
{
	l->rng ^= l->rng << 13;
	l->rng ^= l->rng >> 7;
	l->rng ^= l->rng << 17;
	return l->rng % n;
}

static int tid_of(int i)
{
	return 20000 + i;
}

/* Task i woken at now (by cur, on cpu) to its CPU, or moved to another first. */
static void lossy_wake(struct gen *g, struct lossy *l, int ncpus, int cpu, int cur, int i)
{
	int dest = l->cpu[i];

	waking(g, cpu, cur, tid_of(i), l->cpu[i]);
	g->t += 1;
	if (rnd(l, 10) < 3) {
		dest = (int)rnd(l, (uint64_t)ncpus);
		if (dest != l->cpu[i]) {
			migrate(g, cpu, cur, tid_of(i), l->cpu[i], dest);
			g->t += 1;
		}
	}
	l->cpu[i] = dest;
	l->state[i] = 1;
	l->q[dest][l->nq[dest]++] = i;
	if (!l->curr[dest] && l->next[dest] > g->t + 2000)
		l->next[dest] = g->t + 1000 + rnd(l, 2000); /* leaves idle soon */
}

/* cpu switches from what runs to the head of its queue, or to idle. */
static void lossy_switch(struct gen *g, struct lossy *l, int c, long state)
{
	int prev = l->curr[c], next = 0;

	if (l->nq[c]) {
		int i = l->q[c][0];

		memmove(l->q[c], l->q[c] + 1, (size_t)--l->nq[c] * sizeof(int));
		l->state[i] = 2;
		next = tid_of(i);
	}
	if (prev || rnd(l, 5) == 0) /* a switch from idle: lost 4 times in 5 */
		sw(g, c, prev, state, next);
	g->t += 1;
	l->curr[c] = next;
	l->next[c] = g->t + (next ? 3000 + rnd(l, 30000) : 20000 + rnd(l, 200000));
}

static void lossy(struct gen *g, const struct topology *t, int wakeups, uint64_t seed)
{
	struct lossy l = { .rng = seed * 2654435761u + 1 };
	int ncpus = t->ncpus < LC ? t->ncpus : LC, n = 0;

	for (int i = 0; i < LT; i++)
		l.cpu[i] = i % ncpus;
	for (int c = 0; c < ncpus; c++) {
		sw(g, c, tid_of(c), 1, 0); /* each CPU idles first */
		g->t += 1;
		l.next[c] = g->t + rnd(&l, 10000);
	}
	while (n < wakeups) {
		int c = 0, i, who;

		for (int k = 1; k < ncpus; k++)
			if (l.next[k] < l.next[c])
				c = k;
		if (l.next[c] > g->t)
			g->t = l.next[c];
		if (!l.curr[c] && l.nq[c]) { /* idle with a task queued: run it */
			lossy_switch(g, &l, c, 0);
			continue;
		}
		i = (int)rnd(&l, LT); /* a sleeper to wake, if it sleeps */
		who = l.curr[c];
		if (l.state[i] == 0 && (who || rnd(&l, 2))) { /* from a task, or a timer in idle */
			lossy_wake(g, &l, ncpus, c, who, i);
			n++;
		}
		if (!who) {
			l.next[c] = g->t + 20000 + rnd(&l, 200000);
			continue;
		}
		if (rnd(&l, 10) < 7) { /* sleeps */
			l.state[who - 20000] = 0;
			lossy_switch(g, &l, c, 1);
		} else { /* preempted: back in its queue */
			l.state[who - 20000] = 1;
			l.q[c][l.nq[c]++] = who - 20000;
			lossy_switch(g, &l, c, 0);
		}
	}
}

static void sw(struct gen *g, int cpu, int prev, long state, int next)
{
	uint8_t raw[256];
	struct tep_event *e = g->ev[T_SWITCH];

	common(g, T_SWITCH, raw, prev);
	put(e, raw, "prev_comm", 0, prev ? "ponger" : "swapper");
	put(e, raw, "prev_pid", prev, NULL);
	put(e, raw, "prev_prio", 120, NULL);
	put(e, raw, "prev_state", state, NULL);
	put(e, raw, "next_comm", 0, next ? "ponger" : "swapper");
	put(e, raw, "next_pid", next, NULL);
	put(e, raw, "next_prio", 120, NULL);
	sample(g, T_SWITCH, cpu, prev, raw, raw_size(e));
}

/* The wakee's CPU for pair k: same CPU, SMT sibling, same LLC, same node, other node. */
static int partner(const struct topology *t, int a, int k)
{
	int want = k % 5;

	if (want == 0)
		return a;
	for (int b = 0; b < t->ncpus; b++) {
		int j = (a + 1 + b) % t->ncpus;

		if (t->cpu[j].present && (int)topology_class(t, a, j) == want)
			return j;
	}
	return a;
}

int main(int argc, char **argv)
{
	static const char *const all[] = { "sched_waking", "sched_switch", "sched_migrate_task" };
	int pairs = argc > 4 ? atoi(argv[4]) : 200, rounds = argc > 5 ? atoi(argv[5]) : 50;
	struct pd_writer_event evs[T_NR];
	struct pd_writer_meta meta = { 0 };
	struct tep_handle *tep;
	struct topology topo;
	struct gen g = { .t = 1000000 };
	char err[320];
	uint8_t *td;
	size_t tdlen;

	if (argc < 4) {
		fprintf(stderr, "usage: schedgen OUT.data SYSFS_FIXTURE TRACEFS_FIXTURE [PAIRS] [ROUNDS]\n");
		return 2;
	}
	if (topology_load(&topo, argv[2], err, sizeof(err)) < 0 ||
	    !(td = tracing_data_build(argv[3], all, T_NR, &tdlen, err, sizeof(err))) ||
	    !(tep = tracing_data_parse(td, tdlen, err, sizeof(err)))) {
		fprintf(stderr, "schedgen: %s\n", err);
		return 1;
	}
	for (int i = 0; i < T_NR; i++) {
		struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a),
					     .sample_period = 1,
					     .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
							    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
							    PERF_SAMPLE_RAW };

		g.ev[i] = tep_find_event_by_name(tep, "sched", names[i]);
		if (!g.ev[i]) {
			fprintf(stderr, "schedgen: no format for %s\n", names[i]);
			return 1;
		}
		a.config = (uint64_t)g.ev[i]->id;
		evs[i] = (struct pd_writer_event){ a, (uint64_t)i + 1, names[i] };
	}
	meta.tracing_data = td;
	meta.tracing_len = tdlen;
	meta.topo = &topo;
	meta.cmdline = "schedgen";
	if (pd_writer_open(&g.w, argv[1], evs, T_NR, &meta) < 0) {
		perror(argv[1]);
		return 1;
	}
	/* as locus record writes it: every task's mask (here every CPU) before the first
	 * sample: the pairs' tids (10000 on) and the lossy scenario's (20000 on) */
	for (int i = 0; i < 2 * pairs + LT; i++) {
		uint64_t every[16];
		int nw = (topo.ncpus + 63) / 64;

		memset(every, 0xff, sizeof(every));
		pd_writer_affinity(&g.w, 0, i < 2 * pairs ? 10000 + i : 20000 + i - 2 * pairs, every,
				   nw < 16 ? nw : 16);
	}
	if (argc > 4 && !strcmp(argv[4], "lossy"))
		lossy(&g, &topo, rounds, argc > 6 ? strtoull(argv[6], NULL, 10) : 1);
	/* pair k: waker tid 10000+2k on CPU a, wakee tid 10001+2k sleeping on CPU b */
	for (int r = 0; r < rounds && (argc <= 4 || strcmp(argv[4], "lossy")); r++) {
		for (int k = 0; k < pairs; k++) {
			int a = (k * 37) % topo.ncpus, b = partner(&topo, a, k);
			int waker = 10000 + 2 * k, wakee = waker + 1;

			if (r == 0) {
				sw(&g, b, wakee, 1, 0); /* the wakee sleeps on b */
				g.t += 10;
			}
			waking(&g, a, waker, wakee, b);
			g.t += 1000 + (uint64_t)(k % 7) * 1000; /* 1..7 us to run */
			sw(&g, b, 0, 0, wakee);
			g.t += 5000;
			sw(&g, b, wakee, 1, 0);
			g.t += 100;
		}
	}
	if (pd_writer_finish(&g.w) < 0) {
		fprintf(stderr, "schedgen: cannot finish %s\n", argv[1]);
		return 1;
	}
	tep_free(tep);
	free(td);
	topology_release(&topo);
	return 0;
}
