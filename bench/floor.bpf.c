// SPDX-License-Identifier: GPL-2.0
/*
 * floor.bpf.c - the floor of any BPF scheduler collector: two empty tp_btf programs on
 * the tracepoints every collector needs (sched_switch, sched_waking). What they cost the
 * workload is the least a BPF collector can cost it; bench/perturb.sh states every other
 * variant's perturbation as a multiple of it. Built for `make bench` only. With FLOOR_IPI
 * (build/floor-ipi) a third empty program on ipi_send_cpu: the least a collector that
 * attributes IPIs (as locus's default does) can cost.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch)
{
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(floor_waking)
{
	return 0;
}

#ifdef FLOOR_IPI
SEC("tp_btf/ipi_send_cpu")
int BPF_PROG(floor_ipi)
{
	return 0;
}
#endif

char LICENSE[] SEC("license") = "GPL";
