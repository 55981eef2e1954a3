/* fuzz_perfdata.c - libFuzzer entry for the perf.data reader (make fuzz). */
#include "target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];

	if (fuzz_one(data, size, err, sizeof(err)) < 0)
		abort(); /* rejected without saying why */
	return 0;
}
