/* proctree.c - find and end the processes a workload left running (see proctree.h). */
#include "proctree.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/util.h"
#include "procfs.h"

struct pent {
	pid_t pid, ppid, pgrp;
	char comm[20];
	bool live, in;
};

/* /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and ')'. */
static int read_stat(long pid, struct pent *p)
{
	char path[64], buf[512], *open, *close_;
	char state;
	int ppid, pgrp;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (read_text_file(path, buf, sizeof(buf)) < 0)
		return -1;
	open = strchr(buf, '(');
	close_ = strrchr(buf, ')');
	if (!open || !close_ || close_ < open ||
	    sscanf(close_ + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
		return -1;
	memset(p, 0, sizeof(*p));
	p->pid = (pid_t)pid;
	p->ppid = ppid;
	p->pgrp = pgrp;
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(close_ - open - 1), open + 1);
	p->live = state != 'Z' && state != 'X' && state != 'x';
	return 0;
}

static struct pent *scan(int *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct pent *ps = NULL;
	int cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		long pid;

		if (parse_long(e->d_name, 1, 1L << 22, &pid) < 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			ps = xrealloc(ps, (size_t)cap * sizeof(*ps));
		}
		if (read_stat(pid, &ps[*n]) == 0)
			(*n)++;
	}
	closedir(d);
	return ps;
}

/* Mark the descendants of what is marked (never self or skip). */
static void close_over(struct pent *ps, int n, pid_t self, pid_t skip)
{
	bool grew = true;

	while (grew) {
		grew = false;
		for (int i = 0; i < n; i++) {
			if (ps[i].in || ps[i].pid == self || ps[i].pid == skip)
				continue;
			for (int k = 0; k < n; k++) {
				if (ps[k].in && ps[k].pid == ps[i].ppid) {
					ps[i].in = grew = true;
					break;
				}
			}
		}
	}
}

/* Mark the tree: seeds (the group, our children), then their descendants. */
static void mark(struct pent *ps, int n, pid_t pgid, pid_t self, pid_t skip)
{
	for (int i = 0; i < n; i++)
		ps[i].in = ps[i].pid != self && ps[i].pid != skip &&
			   (ps[i].pgrp == pgid || ps[i].ppid == self);
	close_over(ps, n, self, skip);
}

int proctree_switches(pid_t root, double *vol, double *invol)
{
	int n, tasks = 0;
	struct pent *ps = scan(&n);

	*vol = *invol = 0;
	for (int i = 0; i < n; i++)
		ps[i].in = ps[i].pid == root;
	close_over(ps, n, getpid(), 0);
	for (int i = 0; i < n; i++) {
		double v, iv;

		if (ps[i].in && ps[i].live && proc_ctxt_switches(ps[i].pid, &v, &iv) == 0) {
			*vol += v;
			*invol += iv;
			tasks++;
		}
	}
	free(ps);
	return tasks;
}

/* Reap our adopted children that have exited (only those of the tree). */
static void reap_tree(const struct pent *ps, int n, pid_t self)
{
	for (int i = 0; i < n; i++)
		if (ps[i].in && ps[i].ppid == self)
			waitpid(ps[i].pid, NULL, WNOHANG);
}

/* The tree's live processes; sig > 0 sends it to each. Names the first few into names. */
static int visit(pid_t pgid, pid_t skip, int sig, char *names, size_t len)
{
	pid_t self = getpid();
	int n, live = 0;
	struct pent *ps = scan(&n);
	size_t at = 0;

	mark(ps, n, pgid, self, skip);
	reap_tree(ps, n, self);
	if (names && len)
		names[0] = 0;
	for (int i = 0; i < n; i++) {
		if (!ps[i].in || !ps[i].live)
			continue;
		live++;
		if (sig > 0)
			kill(ps[i].pid, sig);
		if (names && at + 40 < len)
			at += (size_t)snprintf(names + at, len - at, "%s%s[%d]", at ? ", " : "",
					       ps[i].comm, (int)ps[i].pid);
		else if (names && at < len && !strstr(names, "..."))
			at += (size_t)snprintf(names + at, len - at, ", ...");
	}
	free(ps);
	return live;
}

int proctree_find(pid_t pgid, pid_t skip, char *names, size_t len)
{
	return visit(pgid, skip, 0, names, len);
}

static void nap_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Send sig until none is left or budget_ms ran out; returns how many are left. */
static int until_gone(pid_t pgid, pid_t skip, int sig, int budget_ms)
{
	int left = visit(pgid, skip, sig, NULL, 0);

	for (int waited = 0; left && waited < budget_ms; waited += 20) {
		nap_ms(20);
		left = visit(pgid, skip, 0, NULL, 0);
	}
	return left;
}

int proctree_end(pid_t pgid, pid_t skip, int grace_ms, struct proc_left *left)
{
	int after_term, after_kill;

	memset(left, 0, sizeof(*left));
	left->n = proctree_find(pgid, skip, left->names, sizeof(left->names));
	if (!left->n)
		return 0;
	/* a child forked meanwhile is found on the next visit and signalled too */
	after_term = until_gone(pgid, skip, SIGTERM, grace_ms);
	left->termed = left->n - after_term;
	if (after_term) {
		after_kill = until_gone(pgid, skip, SIGKILL, 1000);
		left->killed = after_term - after_kill;
		if (left->killed < 0)
			left->killed = 0;
	}
	if (left->termed < 0)
		left->termed = 0;
	return left->n;
}

void proctree_describe(const struct proc_left *left, bool interrupted, char *buf, size_t len)
{
	char how[96];

	if (!left->n) {
		buf[0] = 0;
		return;
	}
	if (left->killed)
		snprintf(how, sizeof(how), "%d ended by SIGTERM, %d by SIGKILL after the grace period",
			 left->termed, left->killed);
	else
		snprintf(how, sizeof(how), "ended by SIGTERM");
	snprintf(buf, len, "the workload %s %d process%s running (%s): %s",
		 interrupted ? "was interrupted and left" : "exited and left", left->n,
		 left->n == 1 ? "" : "es", left->names, how);
}
