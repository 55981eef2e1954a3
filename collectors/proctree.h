/*
 * proctree.h - what a workload leaves behind: the processes of its group and their
 * descendants, and those locus adopted as their subreaper (daemons whose parent exited),
 * found in /proc and ended.
 */
#ifndef LOCUS_PROCTREE_H
#define LOCUS_PROCTREE_H

#include <stdbool.h>
#include <sys/types.h>

/* What was left running and what became of it. */
struct proc_left {
	int n;			/* processes found running after the workload exited */
	int termed;		/* of them, those that ended on SIGTERM */
	int killed;		/* those that needed SIGKILL after the grace period */
	char names[200];	/* "sleep[1234], tbench_srv[99]" (the first few) */
};

/*
 * The live processes of group pgid, the children of this process (adopted as their
 * subreaper) except skip, and the descendants of both. Fills names (the first few as
 * "comm[pid]") and returns how many, 0 when none. Never signals.
 */
int proctree_find(pid_t pgid, pid_t skip, char *names, size_t len);

/*
 * End what proctree_find finds: SIGTERM to each, a grace period of grace_ms (reaping the
 * adopted), then SIGKILL to what is left; fills left. Returns left->n.
 */
int proctree_end(pid_t pgid, pid_t skip, int grace_ms, struct proc_left *left);

/*
 * Voluntary and involuntary switches so far of the live tasks of root's tree (root and its
 * descendants, every thread: /proc/PID/task/N/status). Returns how many processes were
 * read. Reaped children's switches are gone from /proc: the sums can step back.
 */
int proctree_switches(pid_t root, double *vol, double *invol);

/* One line for a report: "the workload left 1 process running (sleep[12]): ended by SIGTERM". */
void proctree_describe(const struct proc_left *left, bool interrupted, char *buf, size_t len);

#endif
