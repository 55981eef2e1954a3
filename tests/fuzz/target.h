/* target.h - the fuzz target: one input file through the whole perf.data replay. */
#ifndef LOCUS_FUZZ_TARGET_H
#define LOCUS_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../pipeline/replay.h"

/*
 * Write data to a scratch file and replay it. Returns 1 when it was read,
 * 0 when it was rejected with a message in err, -1 when it was rejected
 * without one (a defect: every rejection must say why).
 */
static inline int fuzz_one(const uint8_t *data, size_t size, char *err, size_t errlen)
{
	static char path[64];
	struct replay_opts o = { path, "tests/fixtures/topology/desktop-4c8t", 0, 64, CL_SORT_TOTAL,
				 NULL, NULL };
	struct replay *rp = calloc(1, sizeof(*rp));
	FILE *f;
	int ok;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/locus-fuzz-%d.data", (int)getpid());
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	err[0] = '\0';
	ok = replay_open(rp, &o, err, errlen) == 0 && replay_run(rp, err, errlen) == 0;
	replay_release(rp);
	free(rp);
	if (ok)
		return 1;
	return err[0] ? 0 : -1;
}

#endif
