/*
 * test_idle_shortcuts.c - the idle tracker's shortcuts for waiting judgements (masks rebuilt
 * from the idle mask's changes, the target's answer taken at the run) against the same
 * tracker judging every wakeup whole: chosen cases where the shortcut could go wrong, then
 * random streams, judgement for judgement.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

#include "../../analyzers/idle.h"
#include "../../collectors/topology.h"
#include "idle_machine.h"

/*
 * Where the target's answer at the run does not hold later, the judgement finds what the
 * whole one does. A wait of [40, 50] on CPU 2: (1) its events of 30 and 60 come after the
 * run (a stream out of order across CPUs): it idled through the wait; (2) its periods out
 * of order before the run ([10, 60], [50, 55], then [30, 35]), two more in order after it:
 * the search of the unsorted history ends at [30, 35] at the run, at [10, 60] with more
 * periods; (3) idle from 30 (after a period from 50) through a run at 60, which ends that
 * period: then the history is out of order, and its search later ends at [10, 20]. CPU
 * 1, idle and silent, holds each until it shows itself (the third behind one already
 * waiting, as any waits then); it idled through the wait: passed over unless the target
 * idled (as found in the first two, not in the third).
 */
static void shortcut_limits(void **state)
{
	struct topology t;

	machine(&t, false);
	for (int how = 0; how < 3; how++) {
		struct idle_track it[2];
		struct idle_check r[2];
		const struct idle_check *ready;
		uint64_t snap[1];
		int n;

		for (int k = 0; k < 2; k++) {
			struct idle_track *i = &it[k];
			struct idle_q q = { .wake = 40, .run = 50, .k_wake = 0, .target = 2, .tag = -1,
					    .at_wake = snap };

			idle_init(i, &t);
			i->whole = k == 1;
			busy_all(i, 1);
			idle_set(i, 1, true, 5); /* CPU 1: idle, silent */
			idle_set(i, 2, true, 10);
			if (how != 1)
				idle_set(i, 2, false, 20);
			if (how == 2) { /* [50, 55], then idle from 30 (out of order) through the run */
				idle_set(i, 2, true, 50);
				idle_set(i, 2, false, 55);
				idle_set(i, 2, true, 30);
				idle_enter(i, 2, 60);
				q.run = 60;
			}
			if (how == 1) { /* [10, 60], [50, 55], [30, 35] (out of order), [70, 75] */
				idle_set(i, 2, false, 60);
				idle_set(i, 2, true, 50);
				idle_set(i, 2, false, 55);
				idle_set(i, 2, true, 30);
				idle_set(i, 2, false, 35);
				idle_set(i, 2, true, 70);
				idle_set(i, 2, false, 75);
			}
			idle_snapshot(i, snap);
			q.pos_wake = q.pos_run = idle_pos(i);
			q.f_wake = idle_flips(i) + 1;
			q.k_run = idle_tick(i);
			if (how == 2) { /* one waits already (CPU 1's state): the next waits behind */
				struct idle_q q0 = q;

				q0.target = 0;
				assert_int_equal(idle_judge(i, &q0).verdict, IDLE_DEFERRED);
			}
			r[k] = idle_judge(i, &q);
			if (how == 2) /* [30, 60] closed by the run: the search of it later differs */
				idle_set(i, 2, false, 60);
			assert_int_equal(r[k].verdict, IDLE_DEFERRED); /* CPU 1's state open */
			if (how == 0) { /* CPU 2's events of 30 and 60 come late, in its order */
				idle_set(i, 2, true, 30);
				idle_set(i, 2, false, 60);
			} else { /* more periods, in order */
				if (how == 2) {
					idle_set(i, 2, true, 70);
					idle_set(i, 2, false, 75);
				}
				idle_set(i, 2, true, 80);
				idle_set(i, 2, false, 85);
				idle_set(i, 2, true, 90);
				idle_set(i, 2, false, 95);
			}
			idle_enter(i, 1, 100);
			ready = idle_ready(i, &n);
			assert_int_equal(n, how == 2 ? 2 : 1);
			r[k] = ready[n - 1];
			idle_release(i);
		}
		assert_int_equal(r[1].verdict, how < 2 ? IDLE_NONE : IDLE_PASSED);
		assert_memory_equal(&r[0], &r[1], sizeof(r[0]));
	}
	topology_release(&t);
}

/*
 * The waiting judgements' shortcuts (masks rebuilt from the changes of the idle mask, the
 * target's answer taken at the run) against the same tracker keeping every mask whole and
 * judging every one whole at its turn: random streams of 24 CPUs, in time order and not
 * (events up to 2 us late on their CPU, as bench/synth.c makes), pruned now and then (some
 * with waits over IDLE_KEEP_NS): the same judgements in the same order, field by field.
 */
struct twin {
	struct idle_track a, b;	/* b: whole */
	uint64_t *snap;		/* per pending wakeup */
	int na, nb;
	struct idle_check *ra, *rb;
};

static void twin_take(struct twin *w)
{
	int n;
	const struct idle_check *r = idle_ready(&w->a, &n);

	for (int i = 0; i < n; i++)
		w->ra[w->na++] = r[i];
	r = idle_ready(&w->b, &n);
	for (int i = 0; i < n; i++)
		w->rb[w->nb++] = r[i];
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void shortcuts_equal_whole(void **state)
{
	enum { NC = 24, STEPS = 60000, PEND = 16 };
	static int core[NC], llc[NC], node[NC];
	struct topology t;

	for (int c = 0; c < NC; c++) {
		core[c] = c % 12;
		llc[c] = c % 12 / 4;
		node[c] = c % 12 / 8;
	}
	topology_from_arrays(&t, NC, core, llc, node);
	for (int unsorted = 0; unsorted < 2; unsorted++) {
		struct twin w = { .snap = calloc(PEND, sizeof(uint64_t)),
				  .ra = calloc(STEPS + PEND, sizeof(struct idle_check)),
				  .rb = calloc(STEPS + PEND, sizeof(struct idle_check)) };
		struct { uint64_t wake, pos, f; uint32_t k; bool on; } p[PEND] = { { 0 } };
		uint64_t x = 88172645463325252ull + (uint64_t)unsorted, now = 1000;
		long deferred = 0;

		idle_init(&w.a, &t);
		idle_init(&w.b, &t);
		w.b.whole = true;
		for (int s = 0; s < STEPS; s++) {
			uint64_t r = rnd(&x), at;
			int c = (int)(r % NC), kind = (int)((r >> 8) % 10), i = (int)((r >> 16) % PEND);

			now += 1 + (r >> 24) % 300;
			if (r % 4000 == 0)
				now += 11000000000ull; /* a wait over IDLE_KEEP_NS */
			at = unsorted && (r >> 40) % 3 == 0 && now > 2000 ? now - (r >> 44) % 2000 : now;
			idle_event(&w.a);
			idle_event(&w.b);
			if (kind < 2) {
				idle_set(&w.a, c, true, at);
				idle_set(&w.b, c, true, at);
			} else if (kind < 3) {
				idle_set(&w.a, c, false, at);
				idle_set(&w.b, c, false, at);
			} else if (kind < 4) {
				assert_int_equal(idle_leave(&w.a, c, at, false),
						 idle_leave(&w.b, c, at, false));
			} else if (kind < 5) {
				idle_enter(&w.a, c, at);
				idle_enter(&w.b, c, at);
			} else if (kind < 7 || !p[i].on) { /* a wakeup */
				idle_snapshot(&w.a, &w.snap[i]);
				p[i].wake = now;
				p[i].pos = idle_pos(&w.a);
				p[i].k = idle_tick(&w.a);
				p[i].f = idle_flips(&w.a) + 1;
				p[i].on = true;
			} else { /* its run, on target c: the switch from the idle task, or not */
				if ((r >> 20) % 2) {
					idle_enter(&w.a, c, now);
					idle_enter(&w.b, c, now);
				}
				struct idle_q q = { .wake = p[i].wake, .run = now, .pos_wake = p[i].pos,
						    .pos_run = idle_pos(&w.a), .k_wake = p[i].k,
						    .k_run = idle_tick(&w.a), .target = c, .tag = s,
						    .at_wake = &w.snap[i], .f_wake = p[i].f };
				struct idle_check ja = idle_judge(&w.a, &q), jb = idle_judge(&w.b, &q);

				assert_memory_equal(&ja, &jb, sizeof(ja));
				if (ja.verdict != IDLE_DEFERRED) {
					w.ra[w.na++] = ja;
					w.rb[w.nb++] = jb;
				} else {
					deferred++;
				}
				p[i].on = false;
				idle_leave(&w.a, c, now, true);
				idle_leave(&w.b, c, now, true);
			}
			twin_take(&w);
			if (s % 997 == 0) {
				idle_prune(&w.a, now > 5000 ? now - 5000 : 0, now);
				idle_prune(&w.b, now > 5000 ? now - 5000 : 0, now);
			}
		}
		idle_flush(&w.a);
		idle_flush(&w.b);
		twin_take(&w);
		assert_int_equal(w.na, w.nb);
		assert_true(deferred > 1000);
		for (int i = 0; i < w.na; i++)
			assert_memory_equal(&w.ra[i], &w.rb[i], sizeof(w.ra[i]));
		idle_release(&w.a);
		idle_release(&w.b);
		free(w.snap);
		free(w.ra);
		free(w.rb);
	}
	topology_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shortcuts_equal_whole),
		cmocka_unit_test(shortcut_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
