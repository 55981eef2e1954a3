/*
 * floor.c - runs a command with the floor attached: bench/floor.bpf.c's two empty programs
 * on sched_switch and sched_waking, from the object file beside this binary. Exit status:
 * the command's; 1 when the programs cannot be loaded; 2 on usage. For `make bench` only.
 * Built with -DFLOOR_PROGS=3 as build/floor-ipi: its object's third program too (FLOOR_IPI).
 * With LOCUS_BENCH_PAUSE=DIR, detached and attached again on command (common/bench_pause.h);
 * with FLOOR_PAUSE_STATS=1 as well, the programs stay attached and the command turns the
 * kernel's BPF run-time statistics on and off instead (BPF_ENABLE_STATS, as locus's own-cost
 * windows do): what the statistics' clock reads cost each program run.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/bench_pause.h"

#ifndef FLOOR_PROGS
#define FLOOR_PROGS 2
#endif

static int attach_all(struct bpf_object *obj, struct bpf_link **links)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, obj) {
		if (n == FLOOR_PROGS)
			return -1;
		links[n] = bpf_program__attach(prog);
		if (!links[n])
			return -1;
		n++;
	}
	return n == FLOOR_PROGS ? 0 : -1;
}

struct floor {
	struct bpf_object *obj;
	struct bpf_link *links[FLOOR_PROGS];
	bool on;
	int stats_fd;	/* FLOOR_PAUSE_STATS: the statistics while open (-1: off) */
};

static void detach_all(struct bpf_link **links)
{
	for (int i = 0; i < FLOOR_PROGS; i++) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
}

/* FLOOR_PAUSE_STATS: the command's on and off are the statistics' */
static int stats_set(void *ctx, bool on)
{
	struct floor *f = ctx;

	if (on && f->stats_fd < 0 && (f->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME)) < 0)
		return -1;
	if (!on && f->stats_fd >= 0) {
		close(f->stats_fd);
		f->stats_fd = -1;
	}
	return 0;
}

static int floor_set(void *ctx, bool on)
{
	struct floor *f = ctx;

	if (on && !f->on && attach_all(f->obj, f->links) < 0) {
		detach_all(f->links);
		return -1;
	}
	if (!on && f->on)
		detach_all(f->links);
	f->on = on;
	return 0;
}

int main(int argc, char **argv)
{
	struct floor f = { .stats_fd = -1 };
	const char *st = getenv("FLOOR_PAUSE_STATS");
	struct bench_pause *pause = NULL;
	char path[4096];
	int status = 0, rc = 1;
	pid_t pid;

	if (argc < 3 || strcmp(argv[1], "--")) {
		fprintf(stderr, "usage: floor -- COMMAND [ARGS...]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s.bpf.o", argv[0]);
	f.obj = bpf_object__open_file(path, NULL);
	if (!f.obj || bpf_object__load(f.obj) < 0 || attach_all(f.obj, f.links) < 0) {
		fprintf(stderr, "floor: cannot load and attach %s: %s\n", path, strerror(errno));
		goto cleanup;
	}
	f.on = true;
	pause = bench_pause_start(st && *st == '1' ? stats_set : floor_set, &f);
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "floor: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		goto cleanup;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
cleanup:
	bench_pause_stop(pause);
	if (f.stats_fd >= 0)
		close(f.stats_fd);
	detach_all(f.links);
	bpf_object__close(f.obj);
	return rc;
}
