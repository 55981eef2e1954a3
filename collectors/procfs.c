/* procfs.c - thread lists and context-switch counts from /proc. */
#define _GNU_SOURCE /* sched_setaffinity */
#include "procfs.h"

#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

int proc_tids(pid_t pid, pid_t **tids)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	pid_t *out = NULL;
	int n = 0, cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		long tid;

		if (parse_long(de->d_name, 1, 1L << 30, &tid) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			out = xrealloc(out, (size_t)cap * sizeof(*out));
		}
		out[n++] = (pid_t)tid;
	}
	closedir(d);
	if (n == 0) {
		free(out);
		return -ESRCH;
	}
	*tids = out;
	return n;
}

int proc_ctxt_switches(pid_t pid, double *voluntary, double *involuntary)
{
	pid_t *tids;
	int n = proc_tids(pid, &tids);

	if (n < 0)
		return n;
	*voluntary = *involuntary = 0;
	for (int i = 0; i < n; i++) {
		char path[96], line[128];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tids[i]);
		f = fopen(path, "re");
		if (!f)
			continue; /* the thread exited meanwhile */
		while (fgets(line, sizeof(line), f)) {
			unsigned long long v;

			if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1)
				*voluntary += (double)v;
			else if (sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
				*involuntary += (double)v;
		}
		fclose(f);
	}
	free(tids);
	return 0;
}

int proc_task_usage(pid_t pid, double *runtime_ns, double *faults)
{
	char path[64], buf[1024], *p;
	unsigned long long run, minflt, majflt;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (read_text_file(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%llu", &run) != 1)
		return -ENOENT;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_text_file(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	/* fields after the comm, which may hold spaces: state ppid pgrp session tty_nr
	 * tpgid flags minflt cminflt majflt */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %llu %*u %llu", &minflt, &majflt) != 2)
		return -EINVAL;
	*runtime_ns = (double)run;
	*faults = (double)(minflt + majflt);
	return 0;
}

int proc_maps(pid_t pid, void (*fn)(void *ctx, uint64_t start, uint64_t end, uint64_t off,
				    const char *path),
	      void *ctx)
{
	char path[64], line[4352], file[4096];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &start, &end, &off, file) >= 3 &&
		    file[0] == '/')
			fn(ctx, start, end, off, file);
	}
	fclose(f);
	return 0;
}

int proc_each_task(void (*fn)(void *ctx, pid_t pid, pid_t tid, const char *comm), void *ctx)
{
	DIR *d = opendir("/proc"), *td;
	struct dirent *e, *te;
	char path[64], comm[32];
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid, tid;

		if (parse_long(e->d_name, 1, 1L << 22, &pid) < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task", pid);
		td = opendir(path);
		if (!td)
			continue; /* gone since */
		while ((te = readdir(td))) {
			if (parse_long(te->d_name, 1, 1L << 22, &tid) < 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%ld/task/%ld/comm", pid, tid);
			if (read_text_file(path, comm, sizeof(comm)) < 0)
				continue;
			fn(ctx, (pid_t)pid, (pid_t)tid, comm);
			n++;
		}
		closedir(td);
	}
	closedir(d);
	return n;
}

int proc_affinity(pid_t tid, uint64_t *mask, int nwords)
{
	char path[64], buf[4096], err[128], *line, *nl;
	int *cpus = NULL, n;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (read_text_file(path, buf, sizeof(buf)) < 0 || !(line = strstr(buf, "Cpus_allowed_list:")))
		return -1;
	line += strlen("Cpus_allowed_list:");
	while (*line == ' ' || *line == '\t')
		line++;
	if ((nl = strchr(line, '\n')))
		*nl = '\0';
	n = parse_cpu_list(line, 1 << 20, &cpus, err, sizeof(err));
	if (n < 0)
		return -1;
	memset(mask, 0, (size_t)nwords * sizeof(uint64_t));
	for (int i = 0; i < n; i++)
		if (cpus[i] < nwords * 64)
			mask[cpus[i] / 64] |= 1ull << (cpus[i] % 64);
	free(cpus);
	return 0;
}

int proc_affinity_list(pid_t tid, char *buf, size_t len)
{
	char path[64], st[4096], err[128], *line, *nl;
	int *cpus = NULL, n;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (read_text_file(path, st, sizeof(st)) < 0 || !(line = strstr(st, "Cpus_allowed_list:")))
		return -1;
	line += strlen("Cpus_allowed_list:");
	line += strspn(line, " \t");
	if ((nl = strchr(line, '\n')))
		*nl = '\0';
	if ((n = parse_cpu_list(line, 1 << 20, &cpus, err, sizeof(err))) < 0)
		return -1;
	fmt_cpu_list(cpus, n, buf, len);
	free(cpus);
	return 0;
}

int proc_comm(pid_t tid, char *comm, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	return read_text_file(path, comm, len);
}

void visit_cpus(const int *cpus, int n)
{
	cpu_set_t old, one;

	if (sched_getaffinity(0, sizeof(old), &old) < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpus[i], &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			sched_yield(); /* on it now: switched in from whatever ran there */
	}
	sched_setaffinity(0, sizeof(old), &old);
}
