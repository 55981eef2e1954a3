/* outfile.c - writing an output file whole or not at all (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* Close f and say so if anything written to it was lost. */
static int close_checked(FILE *f, const char *what)
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad) {
		locus_err("cannot write %s: %s", what, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int write_file_atomically(const char *path, void (*fn)(FILE *f, void *ctx), void *ctx)
{
	char tmp[4096];
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-")) {
		fn(stdout, ctx);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* /dev/null, a fifo, a terminal, a symlink: write through it, never replace it */
		f = fopen(path, "w");
		if (!f) {
			locus_err("cannot write %s: %s", path, strerror(errno));
			return -1;
		}
		fn(f, ctx);
		return close_checked(f, path);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		locus_err("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fn(f, ctx);
	if (close_checked(f, path) < 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		locus_err("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int outfile_check(const char *path, char *why, size_t len)
{
	char dir[4096];
	struct stat st;
	char *slash;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!path[0]) {
		snprintf(why, len, "an empty output path");
		return -1;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, len, "cannot write %s: it is a directory", path);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) { /* /dev/null, a fifo: written through */
			if (access(path, W_OK) < 0) {
				snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
				return -1;
			}
			return 0;
		}
	}
	/* a regular file is replaced through PATH.tmp in its directory */
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "cannot write %s: no directory %s", path, dir);
		return -1;
	}
	if (access(dir, W_OK) < 0) {
		snprintf(why, len, "cannot write %s: %s (directory %s)", path, strerror(errno), dir);
		return -1;
	}
	return 0;
}
