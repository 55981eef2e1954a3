/* procfs.c - thread lists and context-switch counts from /proc. */
#include "procfs.h"

#include <dirent.h>
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
