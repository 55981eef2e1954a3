/*
 * test_sources.c - each source refuses, at open and with a reason, a setting that only the
 * other honors (pipeline/source.h): the BPF programs refuse a recording, callchains and
 * the irq tracepoints (struct stream_cfg); the perf stream refuses a BTF file asked of it
 * (struct bpf_src_cfg). Nothing is loaded or opened: the refusal comes first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "../../model/sched_results.h"
#include "../../pipeline/source.h"

/* Open the BPF source with cfg; it must refuse, saying want. */
static void bpf_refuses(const struct source_cfg *cfg, const char *want)
{
	struct sinks none = { .n = 0 };
	char err[320] = "";

	assert_null(source_open_bpf(cfg, &none, err, sizeof(err)));
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "the BPF programs only count"));
}

static void bpf_refuses_stream_settings(void **state)
{
	struct source_cfg cfg = { .collector = COLLECTOR_BPF };

	cfg.stream.callchain = true;
	bpf_refuses(&cfg, "callchains (-g)");
	cfg.stream.callchain = false;
	cfg.stream.blame = true;
	bpf_refuses(&cfg, "irq tracepoints (--blame)");
	cfg.stream.blame = false;
	cfg.stream.record_path = "/nonexistent/never-written.data";
	bpf_refuses(&cfg, "recording a perf.data file");
}

static void stream_refuses_btf(void **state)
{
	struct source_cfg cfg = { .collector = COLLECTOR_PERF, .bpf = { .btf = "/nonexistent" } };
	struct sinks none = { .n = 0 };
	char err[320] = "";

	assert_null(source_open_stream(&cfg, &none, err, sizeof(err)));
	assert_non_null(strstr(err, "a kernel BTF file is for the BPF collector"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bpf_refuses_stream_settings),
		cmocka_unit_test(stream_refuses_btf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
