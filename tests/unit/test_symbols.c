/* test_symbols.c - kernel symbols from a kallsyms file; this test's own code and data by elfutils. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "../../collectors/procfs.h"
#include "../../collectors/symbols.h"

long symbols_test_global[4];

static void kernel(void **state)
{
	struct symbols s;
	char buf[128];

	symbols_init(&s);
	assert_null(symbols_lookup(&s, 0, 0xffffffff810a1004ull, buf, sizeof(buf)));
	symbols_use_kallsyms(&s, "tests/fixtures/kallsyms/kallsyms");
	assert_string_equal(symbols_lookup(&s, 0, 0xffffffff810a1004ull, buf, sizeof(buf)),
			    "schedule+0x4 [kernel]");
	assert_string_equal(symbols_lookup(&s, 0, 0xffffffff81000040ull, buf, sizeof(buf)),
			    "secondary_startup_64 [kernel]");
	assert_string_equal(symbols_lookup(&s, 0, 0xffffffff810a1300ull, buf, sizeof(buf)),
			    "schedule_idle+0x100 [kernel]");
	/* below the first symbol: unnamed, not guessed */
	assert_null(symbols_lookup(&s, 0, 0xffff900000000000ull, buf, sizeof(buf)));
	symbols_release(&s);
}

static void add(void *ctx, uint64_t start, uint64_t end, uint64_t off, const char *path)
{
	symbols_add_map(ctx, (uint32_t)getpid(), start, end - start, off, path);
}

__attribute__((noinline)) static int here(void)
{
	return 42;
}

static void self(void **state)
{
	struct symbols s;
	char buf[256];

	symbols_init(&s);
	assert_int_equal(proc_maps(getpid(), add, &s), 0);
	assert_non_null(symbols_lookup(&s, (uint32_t)getpid(), (uint64_t)(uintptr_t)here + 1, buf,
				       sizeof(buf)));
	assert_true(!strncmp(buf, "here+0x1 (test_symbols.c:", 25));
	assert_non_null(symbols_lookup(&s, 0, (uint64_t)(uintptr_t)&symbols_test_global[1], buf,
				       sizeof(buf)));
	assert_string_equal(buf, "symbols_test_global+0x8");
	assert_int_equal(here(), 42);
	symbols_release(&s);
}

/* A child forked from this process then exec'd (a mapping of its own, another file): a frame
 * still in the old image (inside execve, after the COMM) is named through the parent's maps,
 * as perf's threads keep theirs; a process with no parent known stays unnamed. */
static void exec_keeps_parent_maps(void **state)
{
	const uint32_t child = 1u << 30, orphan = child + 1;
	struct symbols s;
	char buf[64];

	symbols_init(&s);
	assert_int_equal(proc_maps(getpid(), add, &s), 0);
	symbols_add_fork(&s, child, (uint32_t)getpid());
	symbols_add_map(&s, child, 0x10000, 0x1000, 0, "/bin/sh");
	symbols_add_map(&s, orphan, 0x10000, 0x1000, 0, "/bin/sh");
	assert_non_null(symbols_function(&s, (int32_t)child, (uint64_t)(uintptr_t)here + 1, 0, buf,
					 sizeof(buf)));
	assert_string_equal(buf, "here");
	assert_null(symbols_function(&s, (int32_t)orphan, (uint64_t)(uintptr_t)here + 1, 0, buf,
				     sizeof(buf)));
	symbols_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel),
		cmocka_unit_test(self),
		cmocka_unit_test(exec_keeps_parent_maps),
	};

	return cmocka_run_group_tests_name("symbols", tests, NULL, NULL);
}
