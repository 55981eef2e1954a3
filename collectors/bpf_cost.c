/*
 * bpf_cost.c - the BPF collector's own cost: the kernel's run-time statistics of its
 * programs, kept in windows so that the statistics (two clock reads per program run)
 * cost the workload little themselves.
 */
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

void bpf_sched_cost_tick(struct bpf_sched *b)
{
	(void)b;
}

uint64_t bpf_sched_runs_missed(struct bpf_sched *b)
{
	(void)b;
	return 0;
}

#else

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <sys/random.h>

#include "bpf_sched_int.h"

/* The kernel's counts for every program of the collector, cumulative since load. */
static void prog_totals(struct bpf_sched *b, uint64_t *runs, uint64_t *ns, struct prov_cost *ids)
{
	struct bpf_program *prog;

	*runs = *ns = 0;
	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
			continue; /* not loaded here (the IPI programs on older kernels) */
		*runs += info.run_cnt;
		*ns += info.run_time_ns;
		if (ids && ids->nprogs < PROV_COST_PROGS)
			ids->prog_ids[ids->nprogs++] = info.id;
	}
}

/*
 * Program runs the kernel skipped since load: a program already running on the CPU
 * (its recursion guard; bpf_prog_info.recursion_misses, 5.12). A skipped fork is a task
 * not followed, a skipped switch a switch not seen: said with the drops.
 */
uint64_t bpf_sched_runs_missed(struct bpf_sched *b)
{
	struct bpf_program *prog;
	uint64_t n = 0;

	bpf_object__for_each_program(prog, b->skel->obj) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
			n += info.recursion_misses;
	}
	return n;
}

static void window_open(struct bpf_sched *b)
{
	/*
	 * BPF_ENABLE_STATS (5.8): the kernel keeps run_time_ns and run_cnt while the fd is
	 * open, as kernel.bpf_stats_enabled=1 would, without touching the sysctl. Counts
	 * are taken as differences across the window: another user's statistics outside
	 * it are not ours.
	 */
	b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (b->stats_fd < 0) {
		snprintf(b->stats_why, sizeof(b->stats_why), "BPF run-time statistics unavailable: %s",
			 strerror(errno));
		return;
	}
	prog_totals(b, &b->win_runs0, &b->win_ns0, NULL);
	b->win_t0 = now_ns();
}

static void window_close(struct bpf_sched *b)
{
	uint64_t runs, ns;

	prog_totals(b, &runs, &ns, NULL);
	b->cost_runs += runs - b->win_runs0;
	b->cost_ns += ns - b->win_ns0;
	b->cost_win_ns += now_ns() - b->win_t0;
	close(b->stats_fd);
	b->stats_fd = -1;
}

void bpf_cost_start(struct bpf_sched *b)
{
	unsigned int r = 0;

	/* a random phase: every part of the run has the same chance to be in a window */
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (unsigned int)now_ns();
	b->cost_tick = r % BPF_COST_EVERY;
	bpf_sched_cost_tick(b);
}

void bpf_sched_cost_tick(struct bpf_sched *b)
{
	bool on = b->cost_tick++ % BPF_COST_EVERY == 0;

	if (on && b->stats_fd < 0 && !b->stats_why[0])
		window_open(b);
	else if (!on && b->stats_fd >= 0)
		window_close(b);
}

void bpf_cost_stop(struct bpf_sched *b)
{
	if (b->stats_fd >= 0)
		window_close(b);
}

void bpf_sched_cost(struct bpf_sched *b, struct prov_cost *cost)
{
	uint64_t runs = 0, ns = 0;

	memset(cost, 0, sizeof(*cost));
	if (!b->t0)
		return; /* never attached */
	cost->span_ns = (b->t_end ? b->t_end : now_ns()) - b->t0;
	prog_totals(b, &runs, &ns, cost);
	cost->runs = b->cost_runs;
	cost->run_ns = b->cost_ns;
	cost->window_ns = b->cost_win_ns;
	if (b->stats_fd >= 0) { /* the window still open, up to now */
		cost->runs += runs - b->win_runs0;
		cost->run_ns += ns - b->win_ns0;
		cost->window_ns += now_ns() - b->win_t0;
	}
	cost->measured = cost->window_ns > 0 && cost->runs > 0;
	if (b->stats_why[0])
		snprintf(cost->why, sizeof(cost->why), "%s", b->stats_why);
	else if (!cost->measured) /* the programs ran, but outside every window */
		snprintf(cost->why, sizeof(cost->why), "too short a run: the statistics are kept "
			 "one reader tick in %d, a random phase, and none fell while the workload "
			 "ran in the %.2f s attached; a run of a few seconds is measured",
			 BPF_COST_EVERY, (double)cost->span_ns / 1e9);
}

#endif
