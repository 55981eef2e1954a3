/* workloads.h - built-in workloads for demos and tests, each timed by its own clock. */
#ifndef LOCUS_WORKLOADS_H
#define LOCUS_WORKLOADS_H

#include <stdbool.h>
#include <stdio.h>

struct pingpong_opts {
	int pairs;	/* pairs of threads */
	long loops;	/* round trips per pair */
	int pin[2];	/* CPUs of each pair's two threads, -1: unpinned */
};

struct falseshare_opts {
	int threads;
	long loops;	/* increments per thread */
	bool padded;	/* each thread's field on its own cacheline pair */
	int *pin;	/* CPU per thread (cycled), NULL: unpinned */
	int npin;
};

/* Run the workload, print its throughput line to out. Returns 0 or -errno. */
int pingpong_run(const struct pingpong_opts *o, FILE *out);
int falseshare_run(const struct falseshare_opts *o, FILE *out);

#endif
