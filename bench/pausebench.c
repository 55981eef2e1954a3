/*
 * pausebench.c - a collector's perturbation measured inside one run (make bench only): a
 * pipe ping-pong runs throughout, and in alternating windows the collector that launched
 * it is detached and attached again (LOCUS_BENCH_PAUSE, common/bench_pause.h). Windows
 * come in blocks of four, off on on off, so a drift of the host's speed that is linear
 * within a block cancels; each block's ratio is its on windows' round trips a second over
 * its off windows'. Prints every block's ratio, then the median and quartiles.
 *
 * Usage: pausebench DIR WINDOW_MS BLOCKS [PIN0,PIN1]   (PINs -1: not pinned)
 *        pausebench --null WINDOW_MS BLOCKS [PINS]      (no collector: the noise alone)
 * Exit status: 0, 1 when the collector does not answer, 2 on usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SETTLE_NS 20000000ull /* after a command, before a window is timed */

struct side {
	int rd, wr, cpu;
	bool starts;
	_Atomic uint64_t *trips;
	atomic_bool *stop;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

static void *side_main(void *arg)
{
	struct side *s = arg;
	uint64_t n = 0;
	char c = 'x';

	if (s->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(s->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	for (;;) {
		if (s->starts) {
			if (atomic_load_explicit(s->stop, memory_order_relaxed)) {
				close(s->wr); /* the other side reads 0 and ends */
				break;
			}
			if (write(s->wr, &c, 1) != 1 || read(s->rd, &c, 1) != 1)
				break;
			atomic_store_explicit(s->trips, ++n, memory_order_relaxed);
		} else if (read(s->rd, &c, 1) != 1 || write(s->wr, &c, 1) != 1) {
			break;
		}
	}
	return NULL;
}

/* The collector on or off: the command, then its answer. 0, or -1. */
static int set_state(int cmd, int ack, bool on)
{
	char c = on ? '1' : '0', r = 0;

	if (cmd < 0)
		return 0; /* --null */
	if (write(cmd, &c, 1) != 1 || read(ack, &r, 1) != 1 || r != c) {
		fprintf(stderr, "pausebench: the collector did not %s (answer '%c')\n",
			on ? "attach" : "detach", r ? r : '?');
		return -1;
	}
	return 0;
}

/* Round trips a second over one window after the state is set; < 0 on failure. */
static double window(int cmd, int ack, bool on, uint64_t win_ns, _Atomic uint64_t *trips)
{
	uint64_t t0, t1, n0, n1;

	if (set_state(cmd, ack, on) < 0)
		return -1;
	sleep_ns(SETTLE_NS);
	n0 = atomic_load(trips);
	t0 = mono_ns();
	sleep_ns(win_ns);
	n1 = atomic_load(trips);
	t1 = mono_ns();
	return (double)(n1 - n0) * 1e9 / (double)(t1 - t0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[i];
}

static int open_fifos(const char *dir, int *cmd, int *ack)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/cmd", dir);
	if ((*cmd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/ack", dir);
	return (*ack = open(path, O_RDONLY | O_CLOEXEC)) < 0 ? -1 : 0;
}

static int run_blocks(int cmd, int ack, uint64_t win_ns, int blocks, _Atomic uint64_t *trips,
		      double *ratio)
{
	static const bool pattern[4] = { false, true, true, false };

	for (int b = 0; b < blocks; b++) {
		double r[4];

		for (int k = 0; k < 4; k++)
			if ((r[k] = window(cmd, ack, pattern[k], win_ns, trips)) < 0)
				return -1;
		ratio[b] = (r[1] + r[2]) / (r[0] + r[3]);
		printf("block %d off %.0f on %.0f on %.0f off %.0f ratio %.4f\n", b, r[0], r[1],
		       r[2], r[3], ratio[b]);
	}
	return set_state(cmd, ack, true);
}

int main(int argc, char **argv)
{
	_Atomic uint64_t trips = 0;
	atomic_bool stop = false;
	int fds[4], cmd = -1, ack = -1, blocks, pin[2] = { 0, 1 }, rc = 1;
	struct side sides[2];
	pthread_t th[2];
	double *ratio;
	uint64_t win_ns;

	if (argc < 4 || (win_ns = strtoull(argv[2], NULL, 10) * 1000000ull) == 0 ||
	    (blocks = atoi(argv[3])) < 1 ||
	    (argc > 4 && sscanf(argv[4], "%d,%d", &pin[0], &pin[1]) != 2)) {
		fprintf(stderr, "usage: pausebench DIR|--null WINDOW_MS BLOCKS [PIN0,PIN1]\n");
		return 2;
	}
	if (strcmp(argv[1], "--null") && open_fifos(argv[1], &cmd, &ack) < 0) {
		perror("pausebench: the FIFOs");
		return 1;
	}
	if (pipe(&fds[0]) < 0 || pipe(&fds[2]) < 0)
		return 1;
	sides[0] = (struct side){ fds[2], fds[1], pin[0], true, &trips, &stop };
	sides[1] = (struct side){ fds[0], fds[3], pin[1], false, &trips, &stop };
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, side_main, &sides[i]);
	ratio = calloc((size_t)blocks, sizeof(double));
	sleep_ns(500000000ull); /* warm */
	if (ratio && run_blocks(cmd, ack, win_ns, blocks, &trips, ratio) == 0) {
		qsort(ratio, (size_t)blocks, sizeof(double), cmp_double);
		printf("blocks %d window_ms %s median %.4f q1 %.4f q3 %.4f\n", blocks, argv[2],
		       quantile(ratio, blocks, 0.5), quantile(ratio, blocks, 0.25),
		       quantile(ratio, blocks, 0.75));
		rc = 0;
	}
	atomic_store(&stop, true);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	free(ratio);
	return rc;
}
