/* fuzz_sweep.c - libFuzzer entry for the JSON reader behind locus diff (make fuzz). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../collectors/sweep_file.h"
#include "../../report/sweep_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep_set s;
	char err[400] = "";

	if (sweep_parse((const char *)data, size, &s, err, sizeof(err)) < 0) {
		if (!err[0])
			abort(); /* rejected without saying why */
		return 0;
	}
	/* what was accepted must also be comparable */
	{
		struct diff_input in = { "fuzz", &s };

		diff_significant(&in, &in);
	}
	sweep_set_release(&s);
	return 0;
}
