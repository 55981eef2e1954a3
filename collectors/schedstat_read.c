/* schedstat_read.c - /proc/schedstat read whole, and kernel.sched_schedstats switched on. */
#include "schedstat_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define SYSCTL "/proc/sys/kernel/sched_schedstats"

/*
 * Before version 17 the file names no domain: the scheduler's debugfs does (5.13 and later;
 * "SMT", "MC", "NUMA"), read where it is mounted. Left "" where it is not.
 */
static void name_domains(struct schedstat *s)
{
	char path[96], name[32];

	for (int i = 0; i < s->ndoms; i++) {
		struct ss_domain *d = &s->doms[i];
		size_t n;

		if (d->name[0])
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/name",
			 d->cpu, d->level);
		if (read_text_file(path, name, sizeof(name)) < 0)
			return; /* not mounted, or not this kernel's: none named */
		n = strcspn(name, "\n");
		snprintf(d->name, sizeof(d->name), "%.*s", (int)n, name);
	}
}

int schedstat_read(const char *path, struct schedstat *s, char *err, size_t len)
{
	size_t n; /* a line per CPU and domain: megabytes on a big machine */
	char *buf = read_whole_file(path, 256u << 20, &n);
	int rc;

	memset(s, 0, sizeof(*s));
	if (!buf) {
		snprintf(err, len, "%s: %s%s", path, strerror(errno),
			 errno == ENOENT ? " (a kernel without CONFIG_SCHEDSTATS)" : "");
		return -1;
	}
	rc = schedstat_parse(buf, s, err, len);
	free(buf);
	if (rc == 0)
		name_domains(s);
	return rc;
}

int schedstat_enable(bool *restore, char *err, size_t len)
{
	char v[16];
	FILE *f;

	*restore = false;
	if (read_text_file(SYSCTL, v, sizeof(v)) < 0)
		return 0; /* no switch: the counters always move */
	if (atoi(v) != 0)
		return 0;
	f = fopen(SYSCTL, "w");
	if (!f || fputs("1\n", f) == EOF || fclose(f) != 0) {
		snprintf(err, len, "kernel.sched_schedstats is 0 and cannot be set (%s): the "
			 "counters do not move", strerror(errno));
		return -1;
	}
	*restore = true;
	return 0;
}

void schedstat_restore(bool restore)
{
	FILE *f;

	if (!restore || !(f = fopen(SYSCTL, "w")))
		return;
	fputs("0\n", f);
	fclose(f);
}
