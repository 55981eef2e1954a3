/* launcher.c - fork a workload held before exec, release it, relay signals, reap it. */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/exitcodes.h"
#include "../common/util.h"
#include "procfs.h"

static sigset_t relayed_set(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	return set;
}

int launcher_init(struct launcher *l)
{
	sigset_t set = relayed_set();

	memset(l, 0, sizeof(*l));
	l->go_fd = l->err_fd = l->sig_fd = l->watch_fd = l->input_fd = l->output_fd = -1;
	l->guard_fd = -1;
	/* a daemon the workload starts (double fork) is reparented to locus, which ends it */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	l->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (l->sig_fd < 0)
		return -errno;
	return 0;
}

static void child_exec(int go_rd, int err_wr, int out_fd, char *const argv[])
{
	sigset_t set = relayed_set();
	char go;
	int e;
	ssize_t r;

	sigprocmask(SIG_UNBLOCK, &set, NULL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0); /* a group of its own: locus relays signals and can end the whole tree */
	/* if locus dies (a crash, SIGKILL), the workload it measures goes with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (out_fd >= 0 && (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0))
		_exit(EXIT_LOCUS_NOEXEC);
	nofile_restore(); /* the workload runs with the limits it was given */
	do {
		r = read(go_rd, &go, 1);
	} while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(EXIT_LOCUS_NOEXEC); /* locus went away before releasing us */
	close(go_rd);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(EXIT_LOCUS_NOEXEC);
	_exit(EXIT_LOCUS_NOEXEC);
}

/*
 * The guard: in the workload's group, it waits on a pipe locus holds. A byte
 * dismisses it; end of file without one means locus died: it kills the group.
 */
static void guard_main(int rd, pid_t pgid)
{
	sigset_t set;
	char c;
	ssize_t r;

	sigfillset(&set);
	sigdelset(&set, SIGKILL);
	sigprocmask(SIG_SETMASK, &set, NULL); /* relayed INT/TERM are the workload's, not its */
	prctl(PR_SET_NAME, "locus-guard");
	setpgid(0, pgid);
	if (rd != 3 && dup2(rd, 3) < 0)
		_exit(0);
	syscall(SYS_close_range, 4u, ~0u, 0u); /* no perf, BPF or file descriptors held */
	do {
		r = read(3, &c, 1);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		kill(-pgid, SIGKILL);
	_exit(0);
}

static void start_guard(struct launcher *l)
{
	int p[2];
	pid_t g;

	if (pipe2(p, O_CLOEXEC) < 0)
		return; /* the workload still dies with locus through its parent-death signal */
	g = fork();
	if (g == 0) {
		close(p[1]);
		guard_main(p[0], l->pid);
	}
	close(p[0]);
	if (g < 0) {
		close(p[1]);
		return;
	}
	setpgid(g, l->pid);
	l->guard = g;
	l->guard_fd = p[1];
}

static void stop_guard(struct launcher *l)
{
	int st;

	if (l->guard_fd < 0)
		return;
	if (write(l->guard_fd, "q", 1) < 0) {
		/* it is gone already */
	}
	close(l->guard_fd);
	l->guard_fd = -1;
	while (waitpid(l->guard, &st, 0) < 0 && errno == EINTR)
		;
	l->guard = 0;
}

int launcher_fork(struct launcher *l, char *const argv[])
{
	int go[2], err[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -e;
	}
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		child_exec(go[0], err[1], l->output_fd, argv);
	}
	close(go[0]);
	close(err[1]);
	l->exited = false;
	l->status = 0;
	l->exec_errno = 0;
	memset(&l->ru, 0, sizeof(l->ru));
	setpgid(pid, pid); /* as the child does: whichever runs first */
	l->pid = pid;
	l->go_fd = go[1];
	l->err_fd = err[0];
	l->argv = argv;
	start_guard(l);
	return 0;
}

static void reap(struct launcher *l)
{
	int st;
	pid_t r;

	do {
		r = wait4(l->pid, &st, 0, &l->ru);
	} while (r < 0 && errno == EINTR);
	if (r == l->pid) {
		l->status = st;
		l->exited = true;
	}
}

int launcher_start(struct launcher *l)
{
	char go = 'g';
	int e = 0;
	ssize_t r;

	/* What the held child switched before exec is not the workload's. */
	proc_ctxt_switches(l->pid, &l->pre_voluntary, &l->pre_involuntary);
	proc_task_usage(l->pid, &l->pre_runtime_ns, &l->pre_faults);
	if (write(l->go_fd, &go, 1) != 1)
		return -errno;
	close(l->go_fd);
	l->go_fd = -1;
	do {
		r = read(l->err_fd, &e, sizeof(e));
	} while (r < 0 && errno == EINTR);
	close(l->err_fd);
	l->err_fd = -1;
	if (r == (ssize_t)sizeof(e)) {
		l->exec_errno = e;
		reap(l);
		return -e;
	}
	return 0;
}

int launcher_watch(struct launcher *l, pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		return -errno;
	l->watch_fd = fd;
	return 0;
}

static void try_reap(struct launcher *l)
{
	int st;
	pid_t r;

	if (!l->pid || l->exited)
		return;
	r = wait4(l->pid, &st, WNOHANG, &l->ru);
	if (r == l->pid) {
		l->status = st;
		l->exited = true;
	}
	/*
	 * Reap any other child (the guard, once the group is killed) so no zombie lingers;
	 * look first (WNOWAIT): reaping the workload here would lose its status, and with it
	 * the only SIGCHLD that ends the wait (a hang once seen after a second Ctrl-C).
	 */
	for (;;) {
		siginfo_t si = { 0 };

		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == 0)
			break;
		if (si.si_pid == l->pid) {
			if (!l->exited && wait4(l->pid, &st, WNOHANG, &l->ru) == l->pid) {
				l->status = st;
				l->exited = true;
			}
			break;
		}
		if (waitpid(si.si_pid, &st, WNOHANG) <= 0)
			break;
	}
}

/* The workload's group; the workload alone should its group be missing. */
static void signal_group(const struct launcher *l, int sig)
{
	if (kill(-l->pid, sig) < 0 && errno == ESRCH && !l->exited)
		kill(l->pid, sig);
}

static void on_signal(struct launcher *l, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;

	if (sig == SIGCHLD) {
		try_reap(l);
		return;
	}
	l->interrupts++;
	l->last_signal = sig;
	if (!l->pid)
		return;
	/* the group, even after its leader exited: what it started may still run */
	if (l->interrupts >= 2 && sig == SIGINT) {
		signal_group(l, SIGKILL);
		return;
	}
	if (!l->exited)
		signal_group(l, sig); /* the terminal's signals reach locus's group only */
}

void launcher_stop(struct launcher *l, bool force)
{
	if (l->pid > 0 && !l->exited)
		signal_group(l, force ? SIGKILL : SIGTERM);
}

bool launcher_wait(struct launcher *l, int timeout_ms)
{
	struct pollfd pfd[3] = {
		{ .fd = l->sig_fd, .events = POLLIN },
		{ .fd = l->watch_fd, .events = POLLIN },	/* negative fds are ignored */
		{ .fd = l->input_fd, .events = POLLIN },
	};
	struct signalfd_siginfo si;

	if (l->pid && !l->exited)
		try_reap(l);
	if (l->exited)
		return true;
	if (poll(pfd, 3, timeout_ms) < 0 && errno != EINTR)
		return true;
	while (read(l->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		on_signal(l, &si);
	if (l->watch_fd >= 0 && (pfd[1].revents & POLLIN))
		l->exited = true;
	if (l->pid)
		return l->exited;
	return l->exited || l->interrupts > 0;
}

void launcher_end_tree(struct launcher *l, int grace_ms, struct proc_left *left)
{
	memset(left, 0, sizeof(*left));
	if (l->pid > 0 && l->exited)
		proctree_end(l->pid, l->guard, grace_ms, left);
}

void launcher_release(struct launcher *l)
{
	if (l->go_fd >= 0)
		close(l->go_fd); /* the held child reads EOF and exits */
	if (l->pid && !l->exited) {
		if (l->go_fd < 0)
			signal_group(l, SIGKILL);
		reap(l);
	}
	stop_guard(l);
	if (l->err_fd >= 0)
		close(l->err_fd);
	if (l->sig_fd >= 0)
		close(l->sig_fd);
	if (l->watch_fd >= 0)
		close(l->watch_fd);
	l->go_fd = l->err_fd = l->sig_fd = l->watch_fd = l->input_fd = -1;
}

int launcher_exit_code(const struct launcher *l)
{
	if (l->exec_errno)
		return EXIT_LOCUS_NOEXEC;
	if (!l->pid || !l->exited)
		return EXIT_LOCUS_OK;
	return EXIT_FROM_WAIT(l->status);
}
