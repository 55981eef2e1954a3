/*
 * fuzz_sweep.c - libFuzzer entry for the JSON reader behind locus diff: what
 * it accepts is rendered as the loop's text, JSON and SVG, and diffed against
 * itself in text and JSON (make fuzz; a short pass in make check).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
	/* what was accepted must also render and compare */
	{
		struct diff_input in = { "fuzz", &s };
		FILE *out = fopen("/dev/null", "w");

		if (!out)
			abort();
		sweep_report_text(out, &s);
		sweep_report_json(out, &s);
		sweep_report_svg(out, &s);
		diff_report_text(out, &in, &in);
		diff_report_json(out, &in, &in);
		diff_report_svg(out, &in, &in);
		diff_significant(&in, &in);
		fclose(out);
	}
	sweep_set_release(&s);
	return 0;
}
