/* wl_output.c - the workload's output in a file while the dashboard has the screen. */
#include "wl_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/util.h"

int wl_output_open(struct wl_output *o, const char *named)
{
	const char *dir = getenv("TMPDIR");

	memset(o, 0, sizeof(*o));
	o->named = named != NULL;
	if (named)
		snprintf(o->path, sizeof(o->path), "%s", named);
	else
		snprintf(o->path, sizeof(o->path), "%s/locus-top.%d.out", dir && *dir ? dir : "/tmp",
			 (int)getpid());
	o->fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (o->fd < 0) {
		locus_err("cannot write %s: %s", o->path, strerror(errno));
		o->path[0] = '\0';
		return -1;
	}
	return o->fd;
}

const char *wl_output_tail(struct wl_output *o)
{
	FILE *f = fopen(o->path, "re");
	long size, from;
	size_t n;
	char *nl;

	o->tail[0] = '\0';
	if (!f)
		return o->tail;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	from = size > (long)sizeof(o->tail) - 1 ? size - (long)sizeof(o->tail) + 1 : 0;
	fseek(f, from, SEEK_SET);
	n = fread(o->tail, 1, sizeof(o->tail) - 1, f);
	fclose(f);
	o->tail[n] = '\0';
	if (from > 0 && (nl = strchr(o->tail, '\n'))) /* a cut first line is left out */
		memmove(o->tail, nl + 1, strlen(nl + 1) + 1);
	return o->tail;
}

/* At most n last lines of the tail, from where they start. */
static const char *last_lines(const char *tail, int n)
{
	const char *p = tail + strlen(tail);

	if (p > tail && p[-1] == '\n')
		p--;
	while (p > tail && n > 0)
		if (*--p == '\n')
			n--;
	return p == tail ? p : p + 1;
}

#define TAIL_LINES 15

void wl_output_close(struct wl_output *o, bool quiet, bool keep)
{
	struct stat st;
	char size[32];
	const char *tail;

	if (o->fd < 0 || !o->path[0])
		return;
	if (fstat(o->fd, &st) < 0)
		st.st_size = 0;
	close(o->fd);
	o->fd = -1;
	if (o->named || (keep && st.st_size)) {
		if (!quiet)
			locus_err("the workload's output (%s) is in %s",
				  fmt_bytes((uint64_t)st.st_size, size, sizeof(size)), o->path);
		return;
	}
	if (st.st_size && !quiet) { /* what the terminal would have shown last */
		tail = last_lines(wl_output_tail(o), TAIL_LINES);
		locus_err("the workload's output (%s), its last lines (%s is removed; "
			  "--keep-output keeps it):", fmt_bytes((uint64_t)st.st_size, size,
								sizeof(size)), o->path);
		fputs(tail, stderr);
		if (*tail && tail[strlen(tail) - 1] != '\n')
			fputc('\n', stderr);
	}
	unlink(o->path);
}
