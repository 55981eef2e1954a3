/* launcher.h - start a workload held at the exec until counters are armed; relay signals. */
#ifndef LOCUS_LAUNCHER_H
#define LOCUS_LAUNCHER_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "proctree.h"

struct launcher {
	pid_t pid;	   /* workload pid, or 0 when there is none (-a, -p); also its process group */
	pid_t guard;	   /* ends the workload's group if locus dies, or 0 */
	int guard_fd;	   /* write end of the guard's pipe: EOF without a byte means locus died */
	int go_fd;	   /* write end: one byte releases the child to exec */
	int err_fd;	   /* read end: errno from a failed exec, EOF on success */
	int sig_fd;	   /* signalfd for INT, TERM, HUP, CHLD */
	int watch_fd;	   /* pidfd of a process to wait for (-p), or -1 */
	int input_fd;	   /* launcher_wait also returns (false) when this is readable, or -1 */
	int output_fd;	   /* the workload's stdout and stderr go here, or -1: locus's own */
	int interrupts;	   /* SIGINT/SIGTERM/SIGHUP received so far */
	int last_signal;   /* the last of them, or 0 */
	bool exited;	   /* the workload (or watched process) is gone */
	int status;	   /* wait status of the workload once exited */
	struct rusage ru;  /* its resource usage (includes reaped descendants) */
	double pre_voluntary;	   /* switches of the held child before its exec */
	double pre_involuntary;
	double pre_runtime_ns;	   /* CPU time and page faults of the held child before exec */
	double pre_faults;
	int exec_errno;	   /* errno of a failed exec, or 0 */
	char *const *argv; /* the workload's command line */
};

/*
 * Block the relayed signals and create the signalfd; make locus the subreaper of what
 * it starts (an orphaned descendant becomes its child, not init's, so none escapes).
 * Call once, before launcher_fork. Returns 0 or -errno.
 */
int launcher_init(struct launcher *l);

/*
 * Fork the workload in a process group of its own; the child waits for
 * launcher_start before it execs argv. A guard process in that group kills
 * the group if locus dies. Returns 0 or -errno (the fork failed).
 */
int launcher_fork(struct launcher *l, char *const argv[]);

/*
 * Release the child to exec. Returns 0 once the exec succeeded, or -errno of
 * a failed exec (the child has then exited 127 and been reaped).
 */
int launcher_start(struct launcher *l);

/* Also end when process pid exits (for -p). Returns 0 or -errno. */
int launcher_watch(struct launcher *l, pid_t pid);

/*
 * Wait up to timeout_ms (-1: forever) for the workload to exit or a signal.
 * INT, TERM and HUP are forwarded to the workload's process group (the
 * terminal no longer reaches it); a second SIGINT kills the whole group.
 * Returns true when collection should stop: the workload exited, or an
 * interrupt arrived and there is no workload to wait for.
 */
bool launcher_wait(struct launcher *l, int timeout_ms);

/*
 * Ask the workload's group to end (SIGTERM), or end it (SIGKILL) when force.
 * The caller goes on waiting with launcher_wait.
 */
void launcher_stop(struct launcher *l, bool force);

/*
 * After the workload exited: end what remains of its tree (its group, their descendants,
 * daemons adopted by locus as their subreaper): SIGTERM, then SIGKILL after grace_ms.
 * left says what was found and how it ended (left->n 0: nothing remained).
 */
void launcher_end_tree(struct launcher *l, int grace_ms, struct proc_left *left);

/* Kill and reap a workload group that is still running, close every fd, dismiss the guard. */
void launcher_release(struct launcher *l);

/* The workload's exit status as a shell reports it (code or 128+signal). */
int launcher_exit_code(const struct launcher *l);

#endif
