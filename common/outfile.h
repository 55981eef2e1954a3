/* outfile.h - an output file written whole or not at all. */
#ifndef LOCUS_OUTFILE_H
#define LOCUS_OUTFILE_H

#include <stdio.h>

/*
 * Write a regular file through a temporary name, renamed into place once
 * complete; anything else that exists (/dev/null, a fifo, a symlink) is
 * written through, never replaced; "-" is standard output. 0, or -1 after
 * saying why.
 */
int write_file_atomically(const char *path, void (*fn)(FILE *f, void *ctx), void *ctx);

#endif
