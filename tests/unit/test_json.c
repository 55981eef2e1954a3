/* test_json.c - the JSON writer: nesting, escaping, non-finite numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "../../report/json.h"

static void nesting_and_escaping(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f);
	json_object(&j, NULL);
	json_string(&j, "s", "a\"b\\c\nd\x01");
	json_array(&j, "a");
	json_int(&j, NULL, -3);
	json_number(&j, NULL, 1.5);
	json_number(&j, NULL, NAN);
	json_array_end(&j);
	json_object(&j, "empty");
	json_object_end(&j);
	json_bool(&j, "t", true);
	json_null(&j, "n");
	json_uint(&j, "u", 18446744073709551615ull);
	json_object_end(&j);
	json_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\n"
				 "  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n"
				 "  \"a\": [\n"
				 "    -3,\n"
				 "    1.5,\n"
				 "    null\n"
				 "  ],\n"
				 "  \"empty\": {},\n"
				 "  \"t\": true,\n"
				 "  \"n\": null,\n"
				 "  \"u\": 18446744073709551615\n"
				 "}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nesting_and_escaping),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
