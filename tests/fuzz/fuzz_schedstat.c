/*
 * fuzz_schedstat.c - libFuzzer entry for the /proc/schedstat reader: what it
 * accepts is differenced with itself and rendered in text and JSON.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/schedstat.h"
#include "../../report/json.h"
#include "../../report/schedstat_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256] = "";
	struct schedstat s, d;
	FILE *out;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (schedstat_parse(text, &s, err, sizeof(err)) < 0) {
		free(text);
		if (!err[0])
			abort(); /* rejected without saying why */
		return 0;
	}
	out = fopen("/dev/null", "w");
	if (!out)
		abort();
	if (schedstat_delta(&s, &s, &d, err, sizeof(err)) == 0) {
		struct json j;

		schedstat_report_text(out, &d, "");
		json_init(&j, out);
		json_object(&j, NULL);
		schedstat_report_json(&j, &d, "");
		json_object_end(&j);
		json_end(&j);
		schedstat_release(&d);
	}
	schedstat_report_text(out, NULL, err);
	fclose(out);
	schedstat_release(&s);
	free(text);
	return 0;
}
