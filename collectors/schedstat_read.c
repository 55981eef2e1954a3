/* schedstat_read.c - /proc/schedstat read whole, and kernel.sched_schedstats switched on. */
#include "schedstat_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define SYSCTL "/proc/sys/kernel/sched_schedstats"

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
