/*
 * bpf_sched.h - the in-kernel scheduler collector: BPF programs on the sched
 * tracepoints aggregate into maps; user space reads the maps into the same
 * sched_results the stream analyzer fills.
 */
#ifndef LOCUS_BPF_SCHED_H
#define LOCUS_BPF_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../model/provenance.h"
#include "../model/sched_results.h"

struct bpf_sched;

struct bpf_sched_cfg {
	const struct topology *topo;
	bool system_wide;	/* every task but locus's own */
	pid_t exclude_tgid;	/* locus */
	const char *btf_path;	/* kernel BTF (NULL: /sys/kernel/btf/vmlinux) */
	long delay_rate;	/* wakeups timed per second per CPU at most (0: all) */
	const int *cpus;	/* only events emitted on these CPUs (NULL: every CPU) */
	int ncpus;
	int max_tasks;		/* rows of the task table (0: 65536) */
	int max_pairs;		/* slots of the busiest pairs kept over the session (0: 65536);
				 * the kernel's table holds 16384 an interval */
	unsigned stack_every;	/* -g: 1 blocked stack in this many voluntary switch-outs (the
				 * waker's at each timed wakeup); 0: no stacks */
	bool blame;		/* --sections blame: the timed wakeups' waits split by cause
				 * (the irq programs too, where the kernel has the tracepoints) */
	bool ipis;		/* --ipis: wakeups attributed to IPIs (on_ipi, on_wake_idle: a
				 * program run more a remote wakeup, docs/cost.md); else not
				 * measured, said */
};

/*
 * Load and verify the programs, fill the topology table. Returns NULL with a
 * one-line reason (not built with BPF, no BTF, not permitted, verifier) in err.
 */
struct bpf_sched *bpf_sched_open(const struct bpf_sched_cfg *cfg, char *err, size_t len);
/* What the programs loaded here leave out and why, as a phrase ("": nothing). */
const char *bpf_sched_left_out(const struct bpf_sched *b);
/* Follow tid and (through fork, in the kernel) its future children. Returns 0 or -1. */
int bpf_sched_track(struct bpf_sched *b, pid_t tid, char *err, size_t len);
/* Start collecting. Returns 0, or -1 with why. */
int bpf_sched_attach(struct bpf_sched *b, char *err, size_t len);
/* Stop collecting (the maps stay readable). */
void bpf_sched_detach(struct bpf_sched *b);
/*
 * Read the maps into r (initialised for the topology): counters, matrices,
 * histograms, per-CPU figures and pairs; with tasks, the per-task table too
 * (one lookup per task: for the final report, not for every refresh).
 */
void bpf_sched_read(struct bpf_sched *b, struct sched_results *r, bool tasks);
/*
 * Tasks that ran for the last time: their totals out of the kernel's tables (`done`,
 * `seen`, 65536 each) into the busiest retired, so that tasks coming and going never
 * fill them. Each read does it; a collector calls it between reads too.
 */
void bpf_sched_retire(struct bpf_sched *b);
/* Events the programs saw, all types, up to the last bpf_sched_read. */
uint64_t bpf_sched_events(struct bpf_sched *b);
/*
 * The sampling period of a timing rate (--delay-rate: wakeups a second per CPU at most,
 * for a CPU waking up to LB_PACE_PEAK a second): 1 wakeup in this many is timed, on
 * average, every wakeup with the same chance; 1 times every one (rate 0).
 */
unsigned bpf_sched_every(long rate);
/* The measures (SM_BIT) the programs cannot count on this kernel (IPIs before 6.5). */
uint64_t bpf_sched_unmeasured(const struct bpf_sched *b);
void bpf_sched_close(struct bpf_sched *b);
/*
 * The programs' own cost so far (bpf_cost.c): their runs and ns from the kernel's run-time
 * statistics, enabled in windows (BPF_ENABLE_STATS, the sysctl untouched), the windows'
 * length and the wall time since attach; cost->why says why when they cannot be read.
 */
void bpf_sched_cost(struct bpf_sched *b, struct prov_cost *cost);
/* BPF program runs the kernel skipped since load (recursion on a CPU). */
uint64_t bpf_sched_runs_missed(struct bpf_sched *b);
/* At every reader tick (a steady cadence, not at snapshots): open or close the windows in
 * which the statistics are kept, one tick in 25 (BPF_COST_EVERY). */
void bpf_sched_cost_tick(struct bpf_sched *b);

#endif
