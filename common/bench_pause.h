/*
 * bench_pause.h - for `make bench` only (bench/pause_perturb.sh): a collector detached and
 * attached again on command, so that one long run of a workload measures its speed with
 * and without the collector in alternating windows and the host's drift cancels.
 *
 * With LOCUS_BENCH_PAUSE=DIR set, a thread opens the FIFO DIR/cmd for reading and DIR/ack
 * for writing (in that order: the harness opens them the same way), and for each byte read
 * ('1': attach, '0': detach) calls set and answers with the same byte, or 'E' when set
 * failed or the collector has stopped. Without it nothing starts.
 */
#ifndef LOCUS_BENCH_PAUSE_H
#define LOCUS_BENCH_PAUSE_H

#include <stdbool.h>

struct bench_pause;

/* The thread, when LOCUS_BENCH_PAUSE is set; NULL when it is not (or cannot start). */
struct bench_pause *bench_pause_start(int (*set)(void *ctx, bool on), void *ctx);
/* No set after this returns (one in flight is waited for). The thread frees itself when the
 * harness closes its FIFOs; p may be NULL. */
void bench_pause_stop(struct bench_pause *p);

#endif
