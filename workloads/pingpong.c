/* pingpong.c - pairs of threads waking each other through pipes: tbench in miniature. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "workloads.h"

struct side {
	int rd, wr;
	long loops;
	int cpu;
	bool starts;		/* sends first */
	pthread_barrier_t *start;
	int err;
};

static int pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static int full_io(int fd, char *c, bool wr)
{
	for (;;) {
		ssize_t r = wr ? write(fd, c, 1) : read(fd, c, 1);

		if (r == 1)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		return r == 0 ? -EPIPE : -errno;
	}
}

static void *side_main(void *arg)
{
	struct side *s = arg;
	char c = 'x';

	s->err = pin_self(s->cpu);
	pthread_barrier_wait(s->start);
	if (s->err)
		return NULL;
	for (long i = 0; i < s->loops; i++) {
		if (s->starts) {
			if ((s->err = full_io(s->wr, &c, true)) || (s->err = full_io(s->rd, &c, false)))
				break;
		} else {
			if ((s->err = full_io(s->rd, &c, false)) || (s->err = full_io(s->wr, &c, true)))
				break;
		}
	}
	return NULL;
}

int pingpong_run(const struct pingpong_opts *o, FILE *out)
{
	int n = o->pairs * 2, err = 0, started = 0;
	struct side *sides = xcalloc((size_t)n, sizeof(*sides));
	pthread_t *tids = xcalloc((size_t)n, sizeof(*tids));
	int (*fds)[4] = xcalloc((size_t)o->pairs, sizeof(*fds));
	pthread_barrier_t start;
	uint64_t t0, t1;
	double secs;

	for (int p = 0; p < o->pairs; p++) {
		if (pipe(&fds[p][0]) < 0 || pipe(&fds[p][2]) < 0) {
			err = -errno;
			goto out;
		}
		/* a writes fds[1], b reads fds[0]; b writes fds[3], a reads fds[2] */
		sides[2 * p] = (struct side){ fds[p][2], fds[p][1], o->loops, o->pin[0], true,
					      &start, 0 };
		sides[2 * p + 1] = (struct side){ fds[p][0], fds[p][3], o->loops, o->pin[1],
						  false, &start, 0 };
	}
	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++) {
		if ((err = -pthread_create(&tids[i], NULL, side_main, &sides[i]))) {
			/* release the barrier count we cannot reach: abort hard */
			locus_err("pingpong: cannot create thread: %s", strerror(-err));
			exit(1);
		}
		started++;
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	t1 = now_ns();
	pthread_barrier_destroy(&start);
	for (int i = 0; i < n; i++)
		if (sides[i].err && !err)
			err = sides[i].err > 0 ? -sides[i].err : sides[i].err;
	if (err)
		goto out;
	secs = (double)(t1 - t0) / 1e9;
	fprintf(out, "pingpong: %d pair%s, %ld round trips each, %.3f s, %.0f round trips/s\n",
		o->pairs, o->pairs == 1 ? "" : "s", o->loops, secs,
		secs > 0 ? (double)o->loops * o->pairs / secs : 0.0);
out:
	for (int p = 0; p < o->pairs; p++)
		for (int k = 0; k < 4; k++)
			if (fds[p][k] > 0)
				close(fds[p][k]);
	free(fds);
	free(tids);
	free(sides);
	return err;
}
