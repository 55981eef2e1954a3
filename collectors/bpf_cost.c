/* bpf_cost.c - the BPF collector's own cost: the kernel's run-time statistics of its programs. */
#include "bpf_sched.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "bpf/sched_bpf.h"
#include "sched.skel.h" /* build/bpf: the skeleton, or a note that there is none */

#ifdef LOCUS_NO_BPF

void bpf_sched_cost(struct bpf_sched *b, struct prov_cost *cost)
{
	(void)b;
	memset(cost, 0, sizeof(*cost));
}

#else

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>

#include "bpf_sched_int.h"

void bpf_cost_start(struct bpf_sched *b)
{
	/*
	 * BPF_ENABLE_STATS (5.8): run_time_ns and run_cnt are kept while the fd is open, as
	 * kernel.bpf_stats_enabled=1 would, without changing the sysctl that others may use.
	 */
	b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (b->stats_fd < 0)
		snprintf(b->stats_why, sizeof(b->stats_why), "BPF run-time statistics unavailable: %s",
			 strerror(errno));
}

void bpf_cost_stop(struct bpf_sched *b)
{
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	b->stats_fd = -1;
}

void bpf_sched_cost(struct bpf_sched *b, struct prov_cost *cost)
{
	struct bpf_program *prog;

	memset(cost, 0, sizeof(*cost));
	if (!b->t0)
		return; /* never attached */
	cost->span_ns = (b->t_end ? b->t_end : now_ns()) - b->t0;
	if (b->stats_fd < 0) {
		snprintf(cost->why, sizeof(cost->why), "%s", b->stats_why);
		return;
	}
	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
			continue; /* not loaded here (the IPI programs on older kernels) */
		cost->runs += info.run_cnt;
		cost->run_ns += info.run_time_ns;
		if (cost->nprogs < PROV_COST_PROGS)
			cost->prog_ids[cost->nprogs++] = info.id;
	}
	cost->measured = true;
}

#endif
