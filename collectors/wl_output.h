/* wl_output.h - the workload's output in a file while the dashboard has the screen. */
#ifndef LOCUS_WL_OUTPUT_H
#define LOCUS_WL_OUTPUT_H

#include <stdbool.h>

struct wl_output {
	char path[4096];	/* where the workload writes, or "" (the terminal) */
	bool named;		/* the user chose it (kept even when empty) */
	int fd;			/* open for the workload, or -1 */
	char tail[8192];	/* its last whole lines, after wl_output_tail */
};

/*
 * Open named, or $TMPDIR/locus-top.PID.out when named is NULL. Returns the fd
 * for the workload's stdout and stderr, or -1 after saying why.
 */
int wl_output_open(struct wl_output *o, const char *named);
/* The end of the file, whole lines only, into o->tail. */
const char *wl_output_tail(struct wl_output *o);
/*
 * Close. A file the user named, or ours with keep, stays and is said (unless quiet); ours
 * is removed otherwise, its last lines first printed on stderr (unless quiet), as the
 * terminal would have shown them.
 */
void wl_output_close(struct wl_output *o, bool quiet, bool keep);

#endif
