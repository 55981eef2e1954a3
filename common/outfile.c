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
