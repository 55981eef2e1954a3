/*
 * synth.c - the analyzers at big-machine rates, on paper: a synthetic sched stream for a
 * 512-CPU, 8-node topology and 100,000 tasks through the wakeup sink (the analyzer behind
 * the sink interface, fed one event at a time as the sources feed it) on one core.
 * A quarter of the wakeups come from 1,000 hot waker->wakee pairs (Zipf: pair h weighs
 * 1/(h+1)), the rest from random wakers to random wakees (millions of one-off pairs).
 * Prints events/s (analysis only: the generator's own time is measured and taken out)
 * and peak RSS; then counts every pair exactly (a second run of the generator, after the
 * RSS is read) and checks the analyzer's top 20 pairs (Space-Saving) against it: the
 * same pairs in the same order, each count within its stated overcount. Exit 1 if not.
 * With CHURN, that many short-lived tasks besides (each forked, woken, run, exited: a
 * `locus top -a` of a fork-heavy machine): resident memory is printed at half of them
 * and at the end, and the analyzer's task slots (flat when exited tasks retire).
 * Usage: build/synth TOPOLOGY_DIR [EVENTS] [TASKS] [CHURN]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../analyzers/wakeup.h"
#include "../pipeline/sink_wakeup.h"
#include "../collectors/topology.h"

#define HOT 1000	/* hot pairs */
#define TOP 20

struct gen {
	uint64_t x, t;
	int ncpus, ntasks;
	int *task_cpu;		/* where each task last ran */
	int *cpu_task;		/* who runs on each CPU (0: idle) */
	struct event ev[6];
	int nev;
	double cdf[HOT];	/* Zipf over the hot pairs */
};

static void hot_pair(const struct gen *g, int h, int *waker, int *wakee)
{
	*waker = 1 + (int)(((uint64_t)h * 104729u + 17) % (uint64_t)g->ntasks);
	*wakee = 1 + (int)(((uint64_t)h * 7919u + 3) % (uint64_t)g->ntasks);
	if (*wakee == *waker)
		*wakee = *wakee % g->ntasks + 1;
}

static uint64_t rnd(struct gen *g)
{
	g->x ^= g->x << 13;
	g->x ^= g->x >> 7;
	g->x ^= g->x << 17;
	return g->x;
}

static void sw(struct event *e, uint64_t t, int cpu, int prev, long state, int next)
{
	memset(e, 0, sizeof(*e));
	e->time_ns = t;
	e->cpu = cpu;
	e->pid = e->tid = prev;
	e->type = EV_SWITCH;
	e->sw.prev_pid = prev;
	e->sw.next_pid = next;
	e->sw.prev_state = state;
}

/* One wakeup cycle: waking (from a running task's CPU), maybe a migration, switch in, out. */
static void cycle(struct gen *g)
{
	int wakee = 1 + (int)(rnd(g) % (uint64_t)g->ntasks), waker = 0;
	int wcpu = (int)(rnd(g) % (uint64_t)g->ncpus), prev, target;
	uint64_t r = rnd(g) % 10;
	struct event *e = g->ev;

	if (rnd(g) % 4 == 0) { /* a hot pair */
		double u = (double)(rnd(g) >> 11) / 9007199254740992.0;
		int lo = 0, hi = HOT - 1;

		while (lo < hi) {
			int mid = (lo + hi) / 2;

			if (g->cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		hot_pair(g, lo, &waker, &wakee);
	} else { /* one task per CPU wakes (the stream of issue 9's measurements) */
		waker = 1 + wcpu;
	}
	prev = g->task_cpu[wakee];

	target = r < 5 ? prev : r < 8 ? (wcpu & ~7) + (int)(rnd(g) % 8) :
		 (int)(rnd(g) % (uint64_t)g->ncpus);
	g->t += 1 + rnd(g) % 200;
	g->nev = 0;
	memset(e, 0, sizeof(*e));
	e->time_ns = g->t;
	e->cpu = wcpu;
	e->pid = e->tid = waker;
	e->type = EV_WAKING;
	e->wake.pid = wakee;
	e->wake.target_cpu = prev;
	memcpy(e->wake.comm, "synth", 6);
	g->nev++;
	if (target != prev) {
		e = &g->ev[g->nev++];
		memset(e, 0, sizeof(*e));
		e->time_ns = g->t + 1;
		e->cpu = wcpu;
		e->pid = e->tid = waker; /* set_task_cpu in try_to_wake_up: the waker's context */
		e->type = EV_MIGRATE;
		e->mig.pid = wakee;
		e->mig.orig_cpu = prev;
		e->mig.dest_cpu = target;
	}
	sw(&g->ev[g->nev++], g->t + 2 + rnd(g) % 50, target, 0, 0, wakee);
	sw(&g->ev[g->nev++], g->t + 60 + rnd(g) % 500, target, wakee, 1, 0);
	g->task_cpu[wakee] = target;
}

/* A short-lived task: forked by a running task, woken, run, exited, switched out dead. */
static void churn_task(struct gen *g, int tid, struct wakeup *w)
{
	int cpu = (int)(rnd(g) % (uint64_t)g->ncpus), parent = 1 + (int)(rnd(g) % (uint64_t)g->ntasks);
	struct event e;

	memset(&e, 0, sizeof(e));
	e.time_ns = ++g->t;
	e.cpu = cpu;
	e.pid = e.tid = parent;
	e.type = EV_FORK;
	e.fork.parent_pid = parent;
	e.fork.child_pid = tid;
	memcpy(e.fork.child_comm, "churn", 6);
	wakeup_add(w, &e);
	e.type = EV_WAKEUP_NEW;
	e.time_ns = ++g->t;
	e.wake.pid = tid;
	e.wake.target_cpu = cpu;
	memcpy(e.wake.comm, "churn", 6);
	wakeup_add(w, &e);
	sw(&e, ++g->t, cpu, 0, 0, tid);
	wakeup_add(w, &e);
	memset(&e, 0, sizeof(e));
	e.time_ns = ++g->t;
	e.cpu = cpu;
	e.pid = e.tid = tid;
	e.type = EV_EXIT;
	e.exit.pid = tid;
	wakeup_add(w, &e);
	sw(&e, ++g->t, cpu, tid, 0x10, 0);
	wakeup_add(w, &e);
}

/* The idle judgements, whole: builds that must judge alike print the same line. */
static void idle_line(const struct sched_results *r)
{
	printf("idle judgements: passed over %llu (SMT %llu, LLC %llu, node %llu, remote %llu), "
	       "wait %llu ns, not allowed %llu, judged open %llu; switch-ins inferred %llu, "
	       "unknown %llu ns\n",
	       (unsigned long long)r->idle_passed, (unsigned long long)r->idle_closest[LOC_SMT],
	       (unsigned long long)r->idle_closest[LOC_LLC],
	       (unsigned long long)r->idle_closest[LOC_NODE],
	       (unsigned long long)r->idle_closest[LOC_REMOTE], (unsigned long long)r->idle_wait_ns,
	       (unsigned long long)r->idle_not_allowed, (unsigned long long)r->idle_judged_open,
	       (unsigned long long)r->switch_in_inferred, (unsigned long long)r->unknown_ns);
}

static double rss_mib(void)
{
	long pages = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return (double)res * 4096.0 / 1048576.0;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The generator at its start: the same stream each time (timed alone, analyzed, counted). */
static void gen_reset(struct gen *g)
{
	g->x = 88172645463325252ull;
	g->t = 1000;
	for (int i = 1; i <= g->ntasks; i++)
		g->task_cpu[i] = i % g->ncpus;
	memset(g->cpu_task, 0, (size_t)g->ncpus * sizeof(int));
}

static uint64_t key_of(int32_t waker, int32_t wakee)
{
	return (uint64_t)(uint32_t)waker << 32 | (uint32_t)wakee;
}

static const uint64_t *exact_count;

static int by_exact(const void *a, const void *b)
{
	uint64_t x = exact_count[*(const uint32_t *)a], y = exact_count[*(const uint32_t *)b];

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The generator again, every pair counted exactly: the analyzer's top 20 must be the
 * exact top 20, in order, each count c with c - over <= exact <= c. 0 when so.
 */
static int check_top(struct gen *g, long want, const struct sched_results *r, int ntasks)
{
	struct u64map idx;
	uint64_t *keys = NULL, *count = NULL, worst = 0;
	uint32_t n = 0, cap = 0, *order;
	int bad = 0;
	bool *running = calloc((size_t)ntasks + 2, sizeof(bool));
	bool *known = calloc((size_t)ntasks + 2, sizeof(bool));
	int32_t *cur = calloc((size_t)g->ncpus, sizeof(int32_t));

	u64map_init(&idx);
	for (long k = 0; k < want;) {
		cycle(g);
		for (int i = 0; i < g->nev; i++) {
			const struct event *e = &g->ev[i];
			uint64_t key;
			uint32_t *at;

			/* woken while running is not a wakeup, and, as the analyzer holds, a
			 * task runs from its first event on a CPU until it switches out (here
			 * the wakers never do: their wakees' wakeups by others often find them
			 * running, as the analyzer counts them) */
			if (e->type != EV_SWITCH && e->tid >= 0) {
				cur[e->cpu] = e->tid; /* a task without an entry yet is not marked */
				if (e->tid > 0 && known[e->tid])
					running[e->tid] = true;
			}
			if (e->type == EV_SWITCH) {
				known[e->sw.prev_pid] = known[e->sw.next_pid] = true;
				running[e->sw.prev_pid] = false;
				running[e->sw.next_pid] = e->sw.next_pid != 0;
				cur[e->cpu] = e->sw.next_pid;
			}
			if (e->type == EV_WAKING)
				known[e->wake.pid] = true;
			if (e->type != EV_WAKING || running[e->wake.pid])
				continue;
			key = key_of(e->tid, e->wake.pid);
			at = u64map_get(&idx, key);
			if (!at) {
				if (n == cap) {
					cap = cap ? 2 * cap : 1 << 20;
					keys = realloc(keys, cap * sizeof(*keys));
					count = realloc(count, cap * sizeof(*count));
				}
				keys[n] = key;
				count[n] = 1;
				u64map_put(&idx, key, n++);
				continue;
			}
			count[*at]++;
		}
		k += g->nev;
	}
	order = malloc(n * sizeof(*order));
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	exact_count = count;
	qsort(order, n, sizeof(*order), by_exact);
	printf("exact count: %u distinct pairs; the top %d against the analyzer's (%d slots, %llu "
	       "pairs evicted, bound %llu):\n", n, TOP, r->pairs_kept,
	       (unsigned long long)r->pairs_evicted, (unsigned long long)r->pairs_bound);
	for (int i = 0; i < TOP && i < (int)n && i < r->npairs; i++) {
		const struct pair_stat *p = &r->pairs[i];
		uint64_t ex = count[order[i]];
		uint32_t *at = u64map_get(&idx, key_of(p->waker_tid, p->wakee_tid));
		uint64_t pex = at ? count[*at] : 0;
		bool same = key_of(p->waker_tid, p->wakee_tid) == keys[order[i]];
		bool within = p->count >= pex && p->count - p->over <= pex;

		if (p->count >= pex && p->count - pex > worst)
			worst = p->count - pex;
		if (!same || !within || p->over > r->pairs_bound)
			bad = 1;
		if (i < 3 || !same || !within)
			printf("  #%-2d exact %d->%d %llu; reported %d->%d %llu (over at most %llu)%s\n",
			       i + 1, (int)(keys[order[i]] >> 32), (int)(uint32_t)keys[order[i]],
			       (unsigned long long)ex, p->waker_tid, p->wakee_tid,
			       (unsigned long long)p->count, (unsigned long long)p->over,
			       same && within ? "" : "  <- differs");
	}
	printf("top %d pairs: %s; the largest overcount among them %llu (bound %llu); %d tasks\n",
	       TOP, bad ? "DIFFER from the exact count" : "the exact top 20, in order, every count "
	       "within its bound", (unsigned long long)worst, (unsigned long long)r->pairs_bound,
	       ntasks);
	u64map_release(&idx);
	free(running);
	free(known);
	free(cur);
	free(keys);
	free(count);
	free(order);
	return bad;
}

int main(int argc, char **argv)
{
	long want = argc > 2 ? atol(argv[2]) : 20000000, n = 0;
	int ntasks = argc > 3 ? atoi(argv[3]) : 100000;
	long churn = argc > 4 ? atol(argv[4]) : 0;
	struct topology topo;
	struct wakeup_cfg cfg = { 0 };
	static struct wakeup_sink ws; /* as the sources feed it: through the sink list */
	struct wakeup *w = &ws.an;
	struct sinks sinks = { .k = { &ws.k }, .n = 1 };
	struct sink_begin b = { 0 };
	static struct gen g = { 88172645463325252ull, 1000, 0, 0, NULL, NULL, { { 0 } }, 0, { 0 } };
	int bad;
	struct rusage ru;
	char err[256];
	double t0, gen_s, total_s;
	uint64_t *aff = NULL;

	if (argc < 2 || topology_load(&topo, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "usage: synth TOPOLOGY_DIR [EVENTS] [TASKS] (%s)\n",
			argc < 2 ? "no topology" : err);
		return 2;
	}
	g.ncpus = topo.ncpus;
	{
		double sum = 0, acc = 0;

		for (int h = 0; h < HOT; h++)
			sum += 1.0 / (h + 1);
		for (int h = 0; h < HOT; h++) {
			acc += 1.0 / (h + 1) / sum;
			g.cdf[h] = acc;
		}
		g.cdf[HOT - 1] = 1.0;
	}
	g.ntasks = ntasks;
	g.task_cpu = calloc((size_t)ntasks + 1, sizeof(int));
	g.cpu_task = calloc((size_t)g.ncpus, sizeof(int));
	gen_reset(&g);
	/* the generator alone, to take its time out */
	t0 = cpu_s();
	for (long k = 0; k < want;) {
		cycle(&g);
		k += g.nev;
	}
	gen_s = cpu_s() - t0;
	gen_reset(&g);
	cfg.system_wide = true;
	wakeup_sink_init(&ws, &cfg, false);
	b.topo = &topo;
	b.waking_source = true;
	b.affinity_events = true;
	sinks_begin(&sinks, &b);
	t0 = cpu_s();
	/* each task's affinity, as a live stream reads them when tracing begins: every CPU
	 * (so the idle judgements run, as they do live); timed, not counted as events */
	{
		struct event a = { .type = EV_AFFINITY };

		a.aff.nwords = (topo.ncpus + 63) / 64;
		aff = calloc((size_t)a.aff.nwords, sizeof(uint64_t));
		for (int c = 0; c < topo.ncpus; c++)
			aff[c / 64] |= 1ull << (c % 64);
		a.aff.mask = aff;
		for (a.aff.pid = 1; a.aff.pid <= ntasks; a.aff.pid++)
			sinks_consume(&sinks, &a);
	}
	while (n < want) { /* one event at a time to the sinks, as the sources feed them */
		cycle(&g);
		for (int i = 0; i < g.nev; i++)
			sinks_consume(&sinks, &g.ev[i]);
		n += g.nev;
	}
	sinks_flush(&sinks);
	if (churn) {
		double half = 0;

		wakeup_finish(w);
		printf("churn: before %.1f MiB resident, %d task slots\n", rss_mib(), w->ntasks);
		for (long i = 0; i < churn; i++) {
			churn_task(&g, ntasks + 1 + (int)(i % 4000000), w);
			if (i % 64 == 0) { /* the steady stream goes on meanwhile */
				cycle(&g);
				for (int k = 0; k < g.nev; k++)
					wakeup_add(w, &g.ev[k]);
			}
			if (i == churn / 2) {
				wakeup_finish(w); /* a dashboard snapshot */
				half = rss_mib();
				printf("churn: %ld short-lived tasks: %.1f MiB resident, %d task slots\n",
				       i, half, w->ntasks);
			}
		}
		wakeup_finish(w);
		printf("churn: %ld short-lived tasks: %.1f MiB resident, %d task slots, %llu "
		       "retired (%d listed)\n", churn, rss_mib(), w->ntasks,
		       (unsigned long long)wakeup_results(w)->tasks_retired,
		       wakeup_results(w)->tasks_retired_kept);
		wakeup_release(w);
		topology_release(&topo);
		free(g.task_cpu);
		free(g.cpu_task);
		free(aff);
		return 0;
	}
	wakeup_finish(w);
	total_s = cpu_s() - t0;
	getrusage(RUSAGE_SELF, &ru);
	printf("synthetic stream: %d CPUs, %d nodes, %d tasks, %ld events\n", topo.nonline,
	       topo.nnodes, ntasks, n);
	printf("analysis: %.2f s of CPU (generator %.2f s taken out): %.2f M events/s on one core\n",
	       total_s - gen_s, gen_s, (double)n / (total_s - gen_s) / 1e6);
	printf("peak RSS: %.1f MiB; %d tasks and %d pairs in the tables, %llu pairs dropped\n",
	       (double)ru.ru_maxrss / 1024.0, wakeup_results(w)->ntasks,
	       wakeup_results(w)->npairs, (unsigned long long)wakeup_results(w)->pairs_dropped);
	idle_line(wakeup_results(w));
	gen_reset(&g);
	bad = check_top(&g, want, wakeup_results(w), ntasks);
	wakeup_release(w);
	topology_release(&topo);
	free(g.task_cpu);
	free(g.cpu_task);
	free(aff);
	return bad;
}
