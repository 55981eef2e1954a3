/* outfile.h - an output file written whole or not at all. */
#ifndef LOCUS_OUTFILE_H
#define LOCUS_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write a regular file through a temporary name, renamed into place once
 * complete; anything else that exists (/dev/null, a fifo, a symlink) is
 * written through, never replaced; "-" is standard output. 0, or -1 after
 * saying why.
 */
int write_file_atomically(const char *path, void (*fn)(FILE *f, void *ctx), void *ctx);

/*
 * Before anything runs: whether write_file_atomically can write path ("-" and NULL
 * always can): a regular file's directory exists and is writable, anything else that
 * exists is writable and no directory. 0, or -1 with why ("cannot write PATH: ...").
 */
int outfile_check(const char *path, char *why, size_t len);

#endif
