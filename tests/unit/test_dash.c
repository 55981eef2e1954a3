/* test_dash.c - dashboard renders from fixed results (2 to 512 CPUs), keys, interval deltas. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzers/sched_delta.h"
#include "../../report/dash.h"
#include "../../report/names.h"
#include "flows.h"
#include "golden.h"
#include "../../collectors/topology.h"

struct scene {
	const char *fixture;	/* NULL: a 2-CPU machine built from arrays */
	struct flow fl[6];
	int nflows;
};

static const struct scene scenes[] = {
	{ NULL, { { 0, 1, 1, 40 }, { 1, 0, 0, 30 }, { 0, 0, 0, 5 } }, 3 },
	{ "tests/fixtures/topology/desktop-4c8t",
	  { { 1, 5, 5, 40 }, { 1, 2, 2, 25 }, { 0, 0, 0, 10 }, { 3, 6, 3, 5 } }, 4 },
	{ "tests/fixtures/topology/2s16c2t-64",
	  { { 0, 32, 32, 50 }, { 0, 1, 1, 30 }, { 0, 16, 16, 9 }, { 5, 5, 5, 20 },
	    { 17, 40, 17, 6 }, { 63, 2, 31, 3 } }, 6 },
	{ "tests/fixtures/topology/8n512",
	  { { 0, 256, 256, 50 }, { 0, 1, 1, 30 }, { 0, 16, 16, 20 }, { 0, 32, 32, 10 },
	    { 300, 300, 300, 15 }, { 511, 100, 200, 4 } }, 6 },
};

static void load_topo(const struct scene *s, struct topology *topo)
{
	static const int core[2] = { 0, 1 }, llc[2] = { 0, 0 }, node[2] = { 0, 0 };
	char err[256];

	if (!s->fixture) {
		topology_from_arrays(topo, 2, core, llc, node);
		snprintf(topo->source, sizeof(topo->source), "two CPUs");
		return;
	}
	assert_int_equal(topology_load(topo, s->fixture, err, sizeof(err)), 0);
}

/* The workload's output file and its tail, when a test shows them (else NULL). */
static const char *test_output_path, *test_output_tail;
/* The antagonists pane's data and why not, when a test shows it (ui.blame_pane). */
static const struct blame_live *test_blame;
static const char *test_blame_why;

/* A view with fixed counters: rates rise and fall over 90 intervals. */
static void fixed_view(struct dash_view *v, const struct sched_results *r,
		       const struct topology *topo, const struct dash_ui *ui)
{
	memset(v, 0, sizeof(*v));
	v->r = r;
	v->topo = topo;
	v->span_s = (double)(r->last_ns - r->first_ns) / 1e9;
	v->interval_s = 1;
	v->command = "locus bench pingpong --loops 1000000";
	v->state = "running, pid 4242";
	v->elapsed_s = 93;
	v->total = r;
	v->cannot = "cache-misses, HITM (no hardware PMU: perf_event_open of cycles says ENOENT)";
	for (int s = 0; s < DS_NR; s++) {
		struct dash_series_state *st = &v->series[s];

		st->supported = s < DS_CACHE_MISS;
		if (!st->supported) {
			snprintf(st->why, sizeof(st->why), "no hardware PMU");
			continue;
		}
		for (int i = 0; i < 90; i++)
			dash_series_push(st, (double)((i * 37 + s * 11) % 50) * 100.0 * (s + 1));
		st->rate = st->hist[st->nhist - 1];
		st->total = (uint64_t)(st->rate * 93);
	}
	v->mem_why = "no PMU here: memory sampling needs PEBS (Intel) or IBS (AMD)";
	v->output_path = test_output_path;
	v->output_tail = test_output_tail;
	v->blame = test_blame;
	v->blame_why = test_blame_why;
	v->ui = ui;
}

static char *render_scene(const struct scene *s, int w, int h, bool utf8,
			  const struct dash_ui *ui, const struct cl_summary *lines, int nlines)
{
	struct topology topo;
	struct wakeup an;
	struct wakeup_cfg cfg = { 0 };
	struct dash_view v;
	struct canvas c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	load_topo(s, &topo);
	cfg.topo = &topo;
	cfg.waking_source = true;
	cfg.affinity_events = true; /* as the perf stream */
	wakeup_init(&an, &cfg);
	play(&an, s->fl, s->nflows);
	test_provenance(wakeup_results(&an), &topo);
	fixed_view(&v, wakeup_results(&an), &topo, ui);
	v.lines = lines;
	v.nlines = nlines;
	canvas_init(&c, w, h, utf8);
	dash_render(&c, &v);
	f = open_memstream(&buf, &len);
	canvas_print(&c, f);
	fclose(f);
	canvas_release(&c);
	wakeup_release(&an);
	topology_release(&topo);
	return buf;
}

static void check(int scene, int w, int h, bool utf8, const struct dash_ui *ui,
		  const char *golden)
{
	static const struct dash_ui plain = { 0 };
	char *text = render_scene(&scenes[scene], w, h, utf8, ui ? ui : &plain, NULL, 0);
	char path[256];
	int lines = 0;

	snprintf(path, sizeof(path), "tests/golden/dash/%s", golden);
	assert_int_equal(golden_compare(path, text), 0);
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, h);
	free(text);
}

static void two_cpus(void **state)
{
	check(0, 80, 24, true, NULL, "2cpu_80x24.txt");
	check(0, 200, 60, true, NULL, "2cpu_200x60.txt");
	check(0, 80, 24, false, NULL, "2cpu_80x24_ascii.txt");
}

static void eight_cpus(void **state)
{
	check(1, 80, 24, true, NULL, "8cpu_80x24.txt");
	check(1, 200, 60, true, NULL, "8cpu_200x60.txt");
}

static void sixty_four_cpus(void **state)
{
	check(2, 80, 24, true, NULL, "64cpu_80x24.txt");
	check(2, 200, 60, true, NULL, "64cpu_200x60.txt");
}

static void five_twelve_cpus(void **state)
{
	check(3, 80, 24, true, NULL, "512cpu_80x24.txt");
	check(3, 200, 60, true, NULL, "512cpu_200x60.txt");
}

static void focus_sort_help_small(void **state)
{
	struct dash_ui ui = { 0 };

	assert_int_equal(dash_key(&ui, '2'), DASH_REDRAW);
	assert_int_equal(dash_key(&ui, 's'), DASH_REDRAW); /* previous CPU x target */
	assert_int_equal(ui.sort[PANE_HEATMAP], 1);
	assert_int_equal(dash_key(&ui, 'i'), DASH_REDRAW);
	check(2, 80, 24, true, &ui, "64cpu_80x24_prev_cumulative.txt");
	assert_int_equal(dash_key(&ui, '?'), DASH_REDRAW);
	check(0, 80, 24, true, &ui, "2cpu_80x24_help.txt");
	assert_int_equal(dash_key(&ui, 'x'), DASH_REDRAW); /* any key closes help */
	assert_false(ui.help);
	check(0, 30, 8, true, &ui, "2cpu_too_small.txt");
	check(0, 60, 20, true, NULL, "2cpu_60x20.txt");
}

/* The workload writes to a file: its path in the header, key o shows the last lines. */
static void workload_output(void **state)
{
	struct dash_ui ui = { 0 };
	char out[64];

	assert_int_equal(dash_key(&ui, 'o'), DASH_REDRAW);
	assert_true(ui.output);
	test_output_path = "/tmp/locus-top.4242.out";
	test_output_tail = "Running in process mode with 4 groups\nprogress 1\nprogress 2\n"
			   "\033[31mred\tand an escape\n";
	check(0, 120, 30, true, &ui, "2cpu_120x30_output.txt");
	test_output_tail = "";
	check(0, 120, 30, true, &ui, "2cpu_120x30_output_empty.txt");
	test_output_path = test_output_tail = NULL;
	/* the command is shortened at an argument, never cut inside one */
	dash_shorten("tbench -t 10 2 127.0.0.1", 40, out, sizeof(out));
	assert_string_equal(out, "tbench -t 10 2 127.0.0.1");
	dash_shorten("hackbench -g 4 -l 20000", 18, out, sizeof(out));
	assert_string_equal(out, "hackbench -g 4 ...");
	dash_shorten("hackbench -g 4 -l 20000", 17, out, sizeof(out));
	assert_string_equal(out, "hackbench -g ...");
	dash_shorten("averyveryverylongcommand x", 10, out, sizeof(out));
	assert_string_equal(out, "averyve...");
	/* one spelling of a task: the comm shortened, never the tid */
	task_label(out, sizeof(out), "pgbench", 227465, 13);
	assert_string_equal(out, "pgben~/227465");
	task_label(out, sizeof(out), "pgbench", 227465, 0);
	assert_string_equal(out, "pgbench/227465");
	task_label(out, sizeof(out), "", 17129, 20);
	assert_string_equal(out, "tid 17129");
	task_label(out, sizeof(out), "swapper/0", 0, 20);
	assert_string_equal(out, "(irq or idle)");
}

/* The antagonists pane: a hog first, the split by cause; BPF's reason; key a, 5, tab. */
static void antagonists_pane(void **state)
{
	static struct blame_culprit k[] = {
		{ 4242, "perl", 30100000, 6100000, 24000000, 912, 0 },
		{ 31, "kworker/1:1", 5200000, 5200000, 0, 1100, 0 },
		{ 2001, "hackbench", 1900000, 400000, 1500000, 77, 0 },
	};
	struct blame_live b = { true, { 1234, 41200000, { 6100000 + 200000 + 600000,
		24000000 + 1500000 + 100000, 300000, 2100000, 4000000, 2300000, 0 },
		400, 5000000 }, k, 3, 3, false, 0 };
	struct dash_ui ui = { .blame_pane = true };
	char *text;

	(void)state;
	test_blame = &b;
	check(1, 120, 40, true, &ui, "8cpu_120x40_antagonists.txt");
	check(1, 80, 24, true, &ui, "8cpu_80x24_antagonists.txt");
	check(1, 200, 60, true, &ui, "8cpu_200x60_antagonists.txt");
	text = render_scene(&scenes[1], 120, 40, true, &ui, NULL, 0);
	assert_non_null(strstr(text, "perl                 4242    30.1 ms  73.1%       912    80%"));
	free(text);
	assert_int_equal(dash_key(&ui, '5'), DASH_REDRAW);
	assert_int_equal(ui.focus, PANE_BLAME);
	assert_int_equal(dash_key(&ui, 's'), DASH_REDRAW); /* by wakeups delayed */
	check(1, 120, 40, true, &ui, "8cpu_120x40_antagonists_by_wakeups.txt");
	assert_int_equal(dash_key(&ui, 's'), DASH_REDRAW);
	assert_int_equal(ui.sort[PANE_BLAME], 0); /* two orders */
	assert_int_equal(dash_key(&ui, '\t'), DASH_REDRAW);
	assert_int_equal(ui.focus, PANE_COUNTERS);
	assert_int_equal(dash_key(&ui, DASH_KEY_BTAB), DASH_REDRAW);
	assert_int_equal(ui.focus, PANE_BLAME);
	assert_int_equal(dash_key(&ui, 'a'), DASH_REDRAW); /* hidden: the focus leaves it */
	assert_true(ui.blame_hidden);
	assert_int_equal(ui.focus, PANE_COUNTERS);
	assert_int_equal(dash_key(&ui, '5'), DASH_NONE);
	assert_int_equal(dash_key(&ui, DASH_KEY_BTAB), DASH_REDRAW);
	assert_int_equal(ui.focus, PANE_CPUS);
	text = render_scene(&scenes[1], 120, 40, true, &ui, NULL, 0);
	assert_null(strstr(text, "antagonists: who"));
	free(text);
	/* the BPF collector's split in the kernel: sampled, said so, and what it has not */
	ui.blame_hidden = false;
	ui.focus = 0;
	b.in_kernel = true;
	b.sample_every = 20;
	check(1, 120, 40, true, &ui, "8cpu_120x40_antagonists_kernel.txt");
	text = render_scene(&scenes[1], 120, 40, true, &ui, NULL, 0);
	assert_non_null(strstr(text, "split in the kernel: 1 in 20 wakeups (sampled)"));
	assert_non_null(strstr(text, "not in the kernel's split: irq names, chains, p99"));
	assert_non_null(strstr(text, "perl                 4242    30.1 ms  73.1%       912    80%"));
	free(text);
	/* a source that cannot: why not, never a made-up 0 */
	test_blame = NULL;
	test_blame_why = "not supported by the BPF collector (it counts in the kernel; this needs "
			 "every event: use --collector perf)";
	check(1, 120, 40, true, &ui, "8cpu_120x40_antagonists_bpf.txt");
	test_blame_why = NULL;
	/* no pane asked for: key a does nothing */
	ui = (struct dash_ui){ 0 };
	assert_int_equal(dash_key(&ui, 'a'), DASH_NONE);
	assert_int_equal(dash_key(&ui, '5'), DASH_NONE);
}

static void cachelines_pane(void **state)
{
	static const struct dash_ui ui = { 0 };
	const struct cl_summary l[] = {
		{ 0x7f3a12c40, 812, 12, 800, 900, 4000, 2, 2 },
		{ 0x55d0e0a080, 40, 40, 0, 300, 100, 1, 3 },
	};
	char *text = render_scene(&scenes[1], 120, 40, true, &ui, l, 2);

	assert_int_equal(golden_compare("tests/golden/dash/8cpu_120x40_lines.txt", text), 0);
	assert_non_null(strstr(text, "0x0007f3a12c40 HITM 812 (remote 800)"));
	free(text);
}

/* As an unprivileged user: nothing traced, and every pane says why instead of showing zeros. */
static void not_traced(void **state)
{
	static const struct dash_ui ui = { 0 };
	static const char why[] = "cannot read the sched tracepoint formats under "
				  "/sys/kernel/tracing/events (tracefs missing or not readable: "
				  "run as root)";
	struct topology topo;
	struct sched_results empty;
	struct dash_view v;
	struct canvas c;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	load_topo(&scenes[0], &topo);
	memset(&empty, 0, sizeof(empty));
	memset(&v, 0, sizeof(v));
	v.r = &empty;
	v.topo = &topo;
	v.interval_s = 1;
	v.command = "sh -c 'while :; do echo progress; sleep 0.2; done'";
	v.state = "running";
	v.elapsed_s = 2;
	v.why_not = why;
	v.cannot = "cache-misses (no hardware PMU); hitm (no hardware PMU)";
	for (int s = 0; s < DS_NR; s++)
		snprintf(v.series[s].why, sizeof(v.series[s].why), "not traced: %s", why);
	v.mem_why = "no mem-loads/ldlat, ibs_op or arm_spe";
	v.output_path = "/tmp/locus-top.4242.out";
	v.ui = &ui;
	canvas_init(&c, 110, 32, true);
	dash_render(&c, &v);
	f = open_memstream(&text, &len);
	canvas_print(&c, f);
	fclose(f);
	canvas_release(&c);
	assert_int_equal(golden_compare("tests/golden/dash/2cpu_110x32_not_traced.txt", text), 0);
	/* no pane claims an empty measurement */
	assert_null(strstr(text, "no wakeups"));
	assert_null(strstr(text, "no placed wakeups"));
	assert_null(strstr(text, "no scheduler events"));
	assert_non_null(strstr(text, "run as root"));
	free(text);
	topology_release(&topo);
}

/* A replayed file's span can be anything: the header's clock must not overflow (UBSan). */
static void hostile_span(void **state)
{
	static const struct dash_ui ui = { 0 };
	const double spans[] = { 1.8e10, 1e300, -5, NAN, INFINITY };
	struct topology topo;
	struct sched_results empty;
	struct dash_view v;
	struct canvas c;

	load_topo(&scenes[0], &topo);
	memset(&empty, 0, sizeof(empty));
	for (size_t i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		memset(&v, 0, sizeof(v));
		v.r = &empty;
		v.topo = &topo;
		v.command = "x";
		v.state = "exited 0";
		v.elapsed_s = spans[i];
		v.span_s = spans[i];
		v.ui = &ui;
		canvas_init(&c, 80, 24, true);
		dash_render(&c, &v);
		canvas_release(&c);
	}
	topology_release(&topo);
}

static void keys(void **state)
{
	struct dash_ui ui = { 0 };

	assert_int_equal(dash_key(&ui, 'q'), DASH_QUIT);
	assert_int_equal(dash_key(&ui, ' '), DASH_PAUSE);
	assert_true(ui.paused);
	assert_int_equal(dash_key(&ui, '\t'), DASH_REDRAW);
	assert_int_equal(ui.focus, PANE_HEATMAP);
	assert_int_equal(dash_key(&ui, DASH_KEY_BTAB), DASH_REDRAW);
	assert_int_equal(dash_key(&ui, DASH_KEY_BTAB), DASH_REDRAW);
	assert_int_equal(ui.focus, PANE_CPUS);
	assert_int_equal(dash_key(&ui, DASH_KEY_UP), DASH_REDRAW);
	assert_int_equal(ui.scroll[PANE_CPUS], 0);
	assert_int_equal(dash_key(&ui, DASH_KEY_PGDN), DASH_REDRAW);
	assert_int_equal(ui.scroll[PANE_CPUS], 10);
	assert_int_equal(dash_key(&ui, DASH_KEY_HOME), DASH_REDRAW);
	assert_int_equal(ui.scroll[PANE_CPUS], 0);
	assert_int_equal(dash_key(&ui, 'r'), DASH_RESET);
	assert_int_equal(dash_key(&ui, 'Z'), DASH_NONE);
	assert_int_equal(dash_pane_rows(80, 24, PANE_TASKS), 6);
	assert_int_equal(dash_pane_rows(30, 8, PANE_TASKS), 0);
}

static void series_history(void **state)
{
	struct dash_series_state s = { 0 };

	for (int i = 0; i < DASH_HIST + 5; i++)
		dash_series_push(&s, i);
	assert_int_equal(s.nhist, DASH_HIST);
	assert_true(s.hist[0] == 5.0);
	assert_true(s.hist[DASH_HIST - 1] == DASH_HIST + 4);
}

/* The interval between two snapshots holds exactly what was played in between. */
static void interval_delta(void **state)
{
	const struct flow a[] = { { 0, 1, 1, 40 }, { 1, 0, 0, 30 } };
	const struct flow b[] = { { 0, 0, 0, 25 } };
	struct sched_results first = { 0 }, second = { 0 }, d = { 0 };
	struct topology topo;
	struct wakeup an;
	struct wakeup_cfg cfg = { 0 };
	uint64_t sum = 0;

	load_topo(&scenes[0], &topo);
	cfg.topo = &topo;
	cfg.waking_source = true;
	cfg.affinity_events = true; /* as the perf stream */
	wakeup_init(&an, &cfg);
	play(&an, a, 2);
	sched_results_copy(&first, wakeup_results(&an));
	play(&an, b, 1); /* a new wakee and waker (tids 1000, 2000 again: flow 0) */
	sched_results_copy(&second, wakeup_results(&an));
	sched_results_delta(&d, &second, &first);
	assert_int_equal(d.wakeups, second.wakeups - first.wakeups);
	assert_int_equal(d.wakeups, 25);
	for (int i = 0; i < 4; i++)
		sum += d.wake_matrix[i];
	assert_int_equal(sum, d.wakeups_placed);
	assert_int_equal(d.wake_matrix[0], 25); /* CPU 0 woke onto CPU 0 */
	assert_int_equal(d.by_class[LOC_SAME_CPU], 25);
	assert_int_equal(d.delay.count, second.delay.count - first.delay.count);
	assert_int_equal(d.switch_in_inferred, second.switch_in_inferred - first.switch_in_inferred);
	assert_int_equal(d.unknown_ns, second.unknown_ns - first.unknown_ns);
	for (int c = 0; c < 2; c++)
		assert_int_equal(d.cpu[c].switch_in_inferred,
				 second.cpu[c].switch_in_inferred - first.cpu[c].switch_in_inferred);
	assert_int_equal(d.npairs, 1);
	assert_int_equal(d.pairs[0].count, 25);
	assert_int_equal(d.pairs[0].waker_tid, 2000);
	/* delays of 1..7 us: percentiles of the interval stay within them */
	assert_true(hist_percentile(&d.delay, 50) >= 1000 && hist_percentile(&d.delay, 99) <= 7000);
	sched_results_delta(&d, &second, &second);
	assert_int_equal(d.wakeups, 0);
	assert_int_equal(d.switch_in_inferred, 0);
	assert_int_equal(d.npairs, 0);
	assert_int_equal(d.delay.count, 0);
	assert_int_equal(hist_percentile(&d.delay, 50), 0);
	sched_results_release(&first);
	sched_results_release(&second);
	sched_results_release(&d);
	wakeup_release(&an);
	topology_release(&topo);
}

static void hist_subtract(void **state)
{
	struct hist a, b, d;

	hist_init(&a);
	hist_init(&b);
	for (int i = 1; i <= 100; i++)
		hist_add(&a, (uint64_t)i * 1000);
	b = a;
	for (int i = 0; i < 10; i++)
		hist_add(&a, 1000000);
	hist_sub(&d, &a, &b);
	assert_int_equal(d.count, 10);
	assert_true(d.min <= 1000000 && d.max == 1000000);
	assert_true(hist_percentile(&d, 50) >= 960000 && hist_percentile(&d, 50) <= 1000000);
}

/* The row y of a canvas as text (UTF-8), trailing blanks kept. */
static void row_of(const struct canvas *c, int y, char *out, size_t len)
{
	size_t o = 0;

	for (int x = 0; x < c->w && o + 4 < len; x++) {
		uint32_t ch = c->cell[(size_t)y * (size_t)c->w + (size_t)x].ch;

		if (ch == 0x2026) {
			memcpy(out + o, "\xe2\x80\xa6", 3);
			o += 3;
		} else {
			out[o++] = ch ? (char)ch : ' ';
		}
	}
	out[o] = '\0';
}

/* A label that does not fit is cut with an ellipsis, never silently; padding is not text. */
static void cut_labels(void **state)
{
	struct canvas c;
	char row[256];

	for (int utf8 = 0; utf8 < 2; utf8++) {
		canvas_init(&c, 20, 4, utf8);
		canvas_clear(&c);
		assert_int_equal(canvas_text(&c, 0, 0, 12, CV_NORMAL, "no hardware PMU: none"), 12);
		row_of(&c, 0, row, sizeof(row));
		assert_string_equal(row, utf8 ? "no hardware\xe2\x80\xa6        " :
						"no hardwa...        ");
		canvas_text(&c, 0, 1, 8, CV_NORMAL, "cs vol      "); /* padding: clipped, no mark */
		row_of(&c, 1, row, sizeof(row));
		assert_string_equal(row, "cs vol              ");
		canvas_text(&c, 14, 2, 0, CV_NORMAL, "to the edge"); /* the canvas's edge cuts too */
		row_of(&c, 2, row, sizeof(row));
		assert_string_equal(row, utf8 ? "              to th\xe2\x80\xa6" :
						"              to ...");
		canvas_wrap(&c, 0, 3, 20, 1, CV_NORMAL, "wrapped words that run over the rows");
		row_of(&c, 3, row, sizeof(row));
		assert_string_equal(row, utf8 ? "wrapped words that\xe2\x80\xa6 " :
						"wrapped words...    ");
		canvas_release(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_cpus), cmocka_unit_test(eight_cpus),
		cmocka_unit_test(sixty_four_cpus), cmocka_unit_test(five_twelve_cpus),
		cmocka_unit_test(focus_sort_help_small), cmocka_unit_test(cachelines_pane),
		cmocka_unit_test(workload_output), cmocka_unit_test(not_traced),
		cmocka_unit_test(antagonists_pane),
		cmocka_unit_test(hostile_span), cmocka_unit_test(cut_labels),
		cmocka_unit_test(keys), cmocka_unit_test(series_history),
		cmocka_unit_test(interval_delta), cmocka_unit_test(hist_subtract),
	};

	return cmocka_run_group_tests_name("dash", tests, NULL, NULL);
}
