/* falseshare.c - threads incrementing neighbouring fields of one cacheline, or padded apart. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "workloads.h"

/* 128 bytes apart when padded: adjacent-line prefetch pairs lines on Intel. */
#define PAD_BYTES 128
#define MAX_THREADS 64

struct worker {
	volatile long *field;
	long loops;
	int cpu;
	pthread_barrier_t *start;
	int err;
};

/* The hot line: a global, so symbol resolution can name it in reports. */
static union {
	volatile long shared[MAX_THREADS];
	struct {
		volatile long v;
		char pad[PAD_BYTES - sizeof(long)];
	} padded[MAX_THREADS];
} falseshare_line __attribute__((aligned(PAD_BYTES)));

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		w->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	pthread_barrier_wait(w->start);
	for (long i = 0; i < w->loops; i++)
		(*w->field)++;
	return NULL;
}

int falseshare_run(const struct falseshare_opts *o, FILE *out)
{
	struct worker *ws;
	pthread_t *tids;
	pthread_barrier_t start;
	uint64_t t0, t1;
	double secs;
	int err = 0;

	if (o->threads < 1 || o->threads > MAX_THREADS)
		return -EINVAL;
	ws = xcalloc((size_t)o->threads, sizeof(*ws));
	tids = xcalloc((size_t)o->threads, sizeof(*tids));
	memset((void *)&falseshare_line, 0, sizeof(falseshare_line));
	pthread_barrier_init(&start, NULL, (unsigned)o->threads + 1);
	for (int i = 0; i < o->threads; i++) {
		ws[i].field = o->padded ? &falseshare_line.padded[i].v : &falseshare_line.shared[i];
		ws[i].loops = o->loops;
		ws[i].cpu = o->npin ? o->pin[i % o->npin] : -1;
		ws[i].start = &start;
		if (pthread_create(&tids[i], NULL, worker_main, &ws[i])) {
			locus_err("falseshare: cannot create thread");
			exit(1);
		}
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	for (int i = 0; i < o->threads; i++)
		pthread_join(tids[i], NULL);
	t1 = now_ns();
	pthread_barrier_destroy(&start);
	for (int i = 0; i < o->threads; i++) {
		if (ws[i].err)
			err = -ws[i].err;
		else if (*ws[i].field != o->loops)
			err = -EIO;
	}
	secs = (double)(t1 - t0) / 1e9;
	if (!err)
		fprintf(out, "falseshare: %d threads, %ld increments each, %s, %.3f s, "
			"%.1f M increments/s\n", o->threads, o->loops,
			o->padded ? "padded 128 bytes apart" : "one shared cacheline", secs,
			secs > 0 ? (double)o->loops * o->threads / secs / 1e6 : 0.0);
	free(tids);
	free(ws);
	return err;
}
