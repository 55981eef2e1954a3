/* sweep_file.h - read a benchmark loop back from the JSON `locus run --json` wrote. */
#ifndef LOCUS_SWEEP_FILE_H
#define LOCUS_SWEEP_FILE_H

#include <stddef.h>

#include "../model/sweep.h"

/*
 * Parse the JSON text of a locus run (one run or a sweep). Returns 0, or -1
 * with a one-line reason in err (s is then empty). Unknown members are
 * ignored; a missing or mistyped required one is an error.
 */
int sweep_parse(const char *text, size_t len, struct sweep_set *s, char *err, size_t errlen);
/* The same from a file (at most 256 MiB). */
int sweep_load(const char *path, struct sweep_set *s, char *err, size_t errlen);

#endif
