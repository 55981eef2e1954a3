/*
 * test_pd_survive.c - a recording whose end is missing: the writer's stream
 * cut at every byte of its last records (a kill, a crash mid-write) reads to
 * its last whole record; a finished one is an ordinary file; a file whose
 * writes failed past a size limit stays a stream that says it was cut short.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../collectors/pd_writer.h"
#include "../../collectors/perfdata.h"

#define NREC 40

static const struct pd_writer_event ev = {
	{ .type = PERF_TYPE_SOFTWARE, .size = sizeof(struct perf_event_attr),
	  .config = PERF_COUNT_SW_DUMMY, .sample_period = 1,
	  .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME },
	7, "dummy"
};

/* Sample i: IDENTIFIER, TID, TIME, then i % 5 words of padding (sizes vary). */
static size_t sample(uint8_t *buf, int i)
{
	size_t size = 8 + 24 + (size_t)(i % 5) * 8;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)size };
	uint64_t id = 7, time = 1000000000ull + (uint64_t)i * 1000;
	uint32_t tid[2] = { 100, 100 + (uint32_t)i };

	memset(buf, 0, size);
	memcpy(buf, &h, 8);
	memcpy(buf + 8, &id, 8);
	memcpy(buf + 16, tid, 8);
	memcpy(buf + 24, &time, 8);
	return size;
}

/* Write NREC samples; finish or not (a kill). Returns the offset each record ends at. */
static void write_file(const char *path, bool finish, uint64_t *ends, uint64_t *data_off)
{
	struct pd_writer_meta meta = { NULL, 0, NULL, "test" };
	struct pd_writer w;
	uint8_t buf[128];

	assert_int_equal(pd_writer_open(&w, path, &ev, 1, &meta), 0);
	*data_off = w.data_off;
	for (int i = 0; i < NREC; i++) {
		size_t n = sample(buf, i);

		assert_int_equal(pd_writer_add(&w, buf, n), 0);
		ends[i] = w.data_off + w.data_size + w.buf_len;
	}
	if (finish) {
		assert_int_equal(pd_writer_finish(&w), 0);
		return;
	}
	assert_int_equal(pd_writer_sync(&w), 0);
	close(w.fd); /* killed: no final header */
	unlink(w.reserve);
	free(w.buf);
}

/* Read f's samples to the end; -1 when pd_next failed. */
static int read_samples(struct pd_file *f)
{
	struct pd_record rec;
	int n = 0, r;

	while ((r = pd_next(f, &rec)) > 0)
		n += rec.type == PERF_RECORD_SAMPLE;
	return r < 0 ? -1 : n;
}

static void killed_cut_anywhere(void **state)
{
	char path[] = "/tmp/locus-test-survive-XXXXXX";
	uint64_t ends[NREC], data_off;
	static uint8_t all[1 << 16];
	int fd = mkstemp(path);
	size_t len;
	FILE *in;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, false, ends, &data_off);
	in = fopen(path, "re");
	assert_non_null(in);
	len = fread(all, 1, sizeof(all), in);
	fclose(in);
	assert_int_equal(len, ends[NREC - 1]);
	/* every cut from the first record on: the whole records before it, and "cut short" */
	for (uint64_t cut = data_off; cut <= ends[NREC - 1]; cut++) {
		FILE *out = fopen(path, "we");
		struct pd_file f;
		int whole = 0, n;

		assert_non_null(out);
		assert_int_equal(fwrite(all, 1, cut, out), cut);
		fclose(out);
		while (whole < NREC && ends[whole] <= cut)
			whole++;
		assert_int_equal(pd_open(&f, path), 0);
		assert_true(f.pipe && f.unfinished);
		assert_int_equal(f.nattrs, 1);
		n = read_samples(&f);
		if (n != whole || !f.cut_short)
			fail_msg("cut at %llu (data at %llu): %d read of %d, cut short %d",
				 (unsigned long long)cut, (unsigned long long)data_off, n, whole,
				 f.cut_short);
		pd_close(&f);
	}
	unlink(path);
}

static void finished_is_whole(void **state)
{
	char path[] = "/tmp/locus-test-survive-XXXXXX";
	uint64_t ends[NREC], data_off;
	struct pd_file f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, true, ends, &data_off);
	assert_int_equal(pd_open(&f, path), 0);
	assert_false(f.pipe);
	assert_int_equal(f.data_off, data_off);
	assert_int_equal(read_samples(&f), NREC);
	assert_false(f.cut_short);
	assert_false(f.end_missing);
	assert_string_equal(f.cmdline, "test");
	pd_close(&f);
	unlink(path);
}

/* Writes fail past a size limit (EFBIG): no room for the note either, so the stream stays. */
static void size_limit_stays_stream(void **state)
{
	char path[] = "/tmp/locus-test-survive-XXXXXX";
	struct pd_writer_meta meta = { NULL, 0, NULL, "test" };
	struct rlimit old, lim;
	struct pd_writer w;
	struct pd_file f;
	uint8_t buf[128];
	int fd = mkstemp(path), added = 0, rc = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	assert_int_equal(pd_writer_open(&w, path, &ev, 1, &meta), 0);
	lim = old;
	lim.rlim_cur = w.data_off + 1000; /* room for some records, not all */
	setrlimit(RLIMIT_FSIZE, &lim);
	for (int i = 0; i < 4000 && rc == 0; i++) {
		rc = pd_writer_add(&w, buf, sample(buf, i));
		added += rc == 0;
	}
	assert_true(pd_writer_finish(&w) < 0);
	setrlimit(RLIMIT_FSIZE, &old);
	assert_int_equal(pd_open(&f, path), 0);
	assert_true(f.pipe && f.unfinished);
	rc = read_samples(&f);
	assert_true(rc > 0 && rc < added);
	assert_true(f.cut_short);
	pd_close(&f);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(killed_cut_anywhere),
		cmocka_unit_test(finished_is_whole),
		cmocka_unit_test(size_limit_stays_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
