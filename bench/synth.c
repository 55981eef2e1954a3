/*
 * synth.c - the analyzers at big-machine rates, on paper: a synthetic sched stream for a
 * 512-CPU, 8-node topology and 100,000 tasks through the wakeup analyzer on one core.
 * Prints events/s (analysis only: the generator's own time is measured and taken out)
 * and peak RSS. Usage: build/synth TOPOLOGY_DIR [EVENTS] [TASKS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../analyzers/wakeup.h"
#include "../collectors/topology.h"

struct gen {
	uint64_t x, t;
	int ncpus, ntasks;
	int *task_cpu;		/* where each task last ran */
	int *cpu_task;		/* who runs on each CPU (0: idle) */
	struct event ev[4];
	int nev;
};

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
	int wakee = 1 + (int)(rnd(g) % (uint64_t)g->ntasks);
	int wcpu = (int)(rnd(g) % (uint64_t)g->ncpus), prev = g->task_cpu[wakee], target;
	uint64_t r = rnd(g) % 10;
	struct event *e = g->ev;

	target = r < 5 ? prev : r < 8 ? (wcpu & ~7) + (int)(rnd(g) % 8) :
		 (int)(rnd(g) % (uint64_t)g->ncpus);
	g->t += 1 + rnd(g) % 200;
	memset(e, 0, sizeof(*e));
	e->time_ns = g->t;
	e->cpu = wcpu;
	e->pid = e->tid = g->cpu_task[wcpu] ? g->cpu_task[wcpu] : 1 + wcpu;
	e->type = EV_WAKING;
	e->wake.pid = wakee;
	e->wake.target_cpu = prev;
	memcpy(e->wake.comm, "synth", 6);
	g->nev = 1;
	if (target != prev) {
		e = &g->ev[g->nev++];
		memset(e, 0, sizeof(*e));
		e->time_ns = g->t + 1;
		e->cpu = wcpu;
		e->type = EV_MIGRATE;
		e->mig.pid = wakee;
		e->mig.orig_cpu = prev;
		e->mig.dest_cpu = target;
	}
	sw(&g->ev[g->nev++], g->t + 2 + rnd(g) % 50, target, 0, 0, wakee);
	sw(&g->ev[g->nev++], g->t + 60 + rnd(g) % 500, target, wakee, 1, 0);
	g->task_cpu[wakee] = target;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long want = argc > 2 ? atol(argv[2]) : 20000000, n = 0;
	int ntasks = argc > 3 ? atoi(argv[3]) : 100000;
	struct topology topo;
	struct wakeup_cfg cfg = { 0 };
	struct wakeup w;
	struct gen g = { 88172645463325252ull, 1000, 0, ntasks, NULL, NULL, { { 0 } }, 0 };
	struct rusage ru;
	char err[256];
	double t0, gen_s, total_s;

	if (argc < 2 || topology_load(&topo, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "usage: synth TOPOLOGY_DIR [EVENTS] [TASKS] (%s)\n",
			argc < 2 ? "no topology" : err);
		return 2;
	}
	g.ncpus = topo.ncpus;
	g.task_cpu = calloc((size_t)ntasks + 1, sizeof(int));
	g.cpu_task = calloc((size_t)g.ncpus, sizeof(int));
	for (int i = 1; i <= ntasks; i++)
		g.task_cpu[i] = i % g.ncpus;
	/* the generator alone, to take its time out */
	t0 = cpu_s();
	for (long k = 0; k < want;) {
		cycle(&g);
		k += g.nev;
	}
	gen_s = cpu_s() - t0;
	g.x = 88172645463325252ull;
	g.t = 1000;
	for (int i = 1; i <= ntasks; i++)
		g.task_cpu[i] = i % g.ncpus;
	cfg.topo = &topo;
	cfg.system_wide = true;
	cfg.waking_source = true;
	wakeup_init(&w, &cfg);
	t0 = cpu_s();
	while (n < want) {
		cycle(&g);
		for (int i = 0; i < g.nev; i++)
			wakeup_add(&w, &g.ev[i]);
		n += g.nev;
	}
	wakeup_finish(&w);
	total_s = cpu_s() - t0;
	getrusage(RUSAGE_SELF, &ru);
	printf("synthetic stream: %d CPUs, %d nodes, %d tasks, %ld events\n", topo.nonline,
	       topo.nnodes, ntasks, n);
	printf("analysis: %.2f s of CPU (generator %.2f s taken out): %.2f M events/s on one core\n",
	       total_s - gen_s, gen_s, (double)n / (total_s - gen_s) / 1e6);
	printf("peak RSS: %.1f MiB; %d tasks and %d pairs in the tables, %llu pairs dropped\n",
	       (double)ru.ru_maxrss / 1024.0, wakeup_results(&w)->ntasks,
	       wakeup_results(&w)->npairs, (unsigned long long)wakeup_results(&w)->pairs_dropped);
	wakeup_release(&w);
	topology_release(&topo);
	free(g.task_cpu);
	free(g.cpu_task);
	return 0;
}
