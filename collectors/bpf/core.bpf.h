/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core.bpf.h - the core of locus's in-kernel scheduler aggregator (sched.bpf.c), included
 * by each feature's header: the settings every program reads, the CPU's hot lines and
 * cold aggregate, the matrices, the topology, and the helpers on them. Each feature's
 * header (idle, tasks, stacks, blame) holds its own settings, maps and helpers.
 */
#ifndef LOCUS_CORE_BPF_H
#define LOCUS_CORE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "sched_bpf.h"

/*
 * Bench-only builds (make bench-variants, docs/cost.md) compile one feature out to
 * measure what it costs: LOCUS_NO_PLACE (the class matrices and placement counts),
 * LOCUS_NO_TIMING (the sampled delay timing), LOCUS_NO_IDLE (idle CPUs passed over),
 * LOCUS_NO_IPI (IPI attribution), LOCUS_NO_MIGRATE (migration counts), LOCUS_NO_TASKS
 * (per-task counters and totals), LOCUS_NO_PAIRS (waker-wakee pairs). The default build
 * defines none of them; their results are not whole and locus never ships them. Each is a
 * constant here (-DLOCUS_NO_X makes it 1) tested by a plain `if` where its feature's code
 * runs: the compiler drops the dead branch, so the default's object is what #ifdef blocks
 * made. A measure the cost table moved out of the default would become a load-time
 * constant (const volatile, set by user space; the verifier drops the branch) here.
 */
#ifndef LOCUS_NO_PLACE
#define LOCUS_NO_PLACE 0
#endif
#ifndef LOCUS_NO_TIMING
#define LOCUS_NO_TIMING 0
#endif
#ifndef LOCUS_NO_IDLE
#define LOCUS_NO_IDLE 0
#endif
#ifndef LOCUS_NO_IPI
#define LOCUS_NO_IPI 0
#endif
#ifndef LOCUS_NO_MIGRATE
#define LOCUS_NO_MIGRATE 0
#endif
#ifndef LOCUS_NO_TASKS
#define LOCUS_NO_TASKS 0
#endif
#ifndef LOCUS_NO_PAIRS
#define LOCUS_NO_PAIRS 0
#endif

/* Task states as sched_switch's prev_state argument holds them (include/linux/sched.h: the
 * raw __state, not the tracepoint format's report encoding); vmlinux.h has no macros. */
#define TASK_RUNNING 0x00000000
#define TASK_DEAD 0x00000080

/* Set by user space before load. */
const volatile int ncpus = 1;
const volatile int system_wide = 0;
const volatile int exclude_tgid = 0;	/* locus itself */
const volatile int cpu_filter = 0;	/* count only events emitted on a CPU of cpu_on (-C) */
const volatile unsigned int mat_stride = 1; /* a matrix row's length: ncpus rounded up to 8 */

/*
 * Read and reset without stopping: the programs add to half `glob.epoch & 1` of the
 * per-CPU aggregate and of the pair table; user space flips the epoch, waits an
 * RCU grace period (the programs run inside rcu_read_lock, so none still adds
 * to the old half after it), then reads the old half and clears it.
 */
volatile struct lb_glob glob;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct lb_pcpu);
} pcpu SEC(".maps");

/*
 * What every event touches: two aligned lines per CPU (key cpu), written by that CPU
 * only and never reset; sized by user space (possible CPUs), which maps it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lb_hot);
} hot SEC(".maps");

/* Each CPU's core, LLC and node: a global array, read without a helper call. */
struct lb_cpu topo[LB_MAX_CPUS];
/* The CPUs asked for (-C): events emitted elsewhere are not seen, as perf -C sees them. */
unsigned char cpu_on[LB_MAX_CPUS];

/*
 * ncpus x mat_stride each, in rows that one CPU writes: wake_matrix's row a holds the
 * wakeups CPU a made, by the CPU they went to (counted by a's placement of them);
 * prev_matrix and mig_matrix are transposed, row b the counts into CPU b (counted where
 * b's task runs, as a rule on b). Sized by user space, which maps them to read them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} wake_matrix SEC(".maps"), prev_matrix SEC(".maps"), mig_matrix SEC(".maps");

/* This CPU's hot lines, or NULL when its events are not counted (-C). */
static __always_inline struct lb_hot *hot_line(__u32 cpu)
{
	if (cpu_filter) { /* the verifier drops this without -C */
		__u32 i = cpu;

		barrier_var(i);
		if (i >= LB_MAX_CPUS || !cpu_on[i])
			return 0;
	}
	return bpf_map_lookup_elem(&hot, &cpu);
}

/* This CPU's aggregate of half: the cold counts, looked up only where one is counted. */
static __always_inline struct lb_pcpu *cold(__u32 half)
{
	return bpf_map_lookup_elem(&pcpu, &half);
}

/* The aggregate outside a program that holds the half (rare paths): NULL under -C. */
static __always_inline struct lb_pcpu *me(void)
{
	__u32 half = glob.epoch & 1;

	if (cpu_filter) {
		__u32 cpu = bpf_get_smp_processor_id();

		barrier_var(cpu);
		if (cpu >= LB_MAX_CPUS || !cpu_on[cpu])
			return 0;
	}
	return cold(half);
}

static __always_inline int task_cpu(struct task_struct *p)
{
	return p->thread_info.cpu; /* tp_btf: a trusted pointer, read directly */
}

static __always_inline int lb_valid(int cpu)
{
	return cpu >= 0 && cpu < ncpus && cpu < LB_MAX_CPUS;
}

/* A CPU's entry; each index checked on its own, where the verifier sees it. */
static __always_inline struct lb_cpu *cpu_at(int cpu)
{
	__u32 i = (__u32)cpu;

	barrier_var(i);
	if (i >= LB_MAX_CPUS)
		return 0;
	return &topo[i];
}

static __always_inline int classify(int a, int b)
{
	struct lb_cpu *x, *y;

	if (a == b)
		return LB_SAME_CPU;
	x = cpu_at(a);
	y = cpu_at(b);
	if (!x || !y)
		return LB_REMOTE;
	if (x->core == y->core)
		return LB_SMT;
	if (x->llc >= 0 && x->llc == y->llc)
		return LB_LLC;
	if (x->node == y->node)
		return LB_NODE;
	return LB_REMOTE;
}

/* Cell (row, col) of a matrix, where only this CPU writes row: no atomic. */
static __always_inline void matrix_own(void *map, int row, int col)
{
	__u32 k = (__u32)row * mat_stride + (__u32)col;
	__u64 *v = bpf_map_lookup_elem(map, &k);

	if (v)
		*v += 1;
}

/* Cell (row, col), where other CPUs may write row too. */
static __always_inline void matrix_shared(void *map, int row, int col)
{
	__u32 k = (__u32)row * mat_stride + (__u32)col;
	__u64 *v = bpf_map_lookup_elem(map, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static __always_inline int log2_bucket(__u64 v)
{
	int k = 0;

	if (v >> 32) { v >>= 32; k += 32; }
	if (v >> 16) { v >>= 16; k += 16; }
	if (v >> 8) { v >>= 8; k += 8; }
	if (v >> 4) { v >>= 4; k += 4; }
	if (v >> 2) { v >>= 2; k += 2; }
	if (v >> 1) { k += 1; }
	return k;
}

/*
 * The log-linear bucket of a delay (model/hist.c's hist_index, capped). 64 bits wide: 6.1's
 * verifier loses the bound of a 32-bit copy (w4 = w3) made before the caller's range check,
 * and refused the index into delay[] ("math between map_value pointer and register with
 * unbounded min value"); a 64-bit copy keeps the bound it learns.
 */
static __always_inline __u64 delay_bucket(__u64 v)
{
	int p;

	if (v < (1 << LB_SUB_BITS))
		return v;
	p = log2_bucket(v);
	if (p >= LB_TOP_BIT)
		return LB_BUCKETS - 1;
	return ((__u64)(p - LB_SUB_BITS + 1) << LB_SUB_BITS) +
	       ((v >> (p - LB_SUB_BITS)) & ((1 << LB_SUB_BITS) - 1));
}

static __always_inline void min_max(unsigned long long *min1, unsigned long long *max, __u64 d)
{
	if (*min1 == 0 || d + 1 < *min1)
		*min1 = d + 1;
	if (d > *max)
		*max = d;
}

#endif
