/* idle.c - idle CPUs from sched_switch, and wakeups that passed over one (idle.h). */
#include "idle.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define BIT(m, c) ((m)[(c) / 64] >> ((c) % 64) & 1)

static void set_bit(uint64_t *m, int c, bool on)
{
	if (on)
		m[c / 64] |= 1ull << (c % 64);
	else
		m[c / 64] &= ~(1ull << (c % 64));
}

void idle_init(struct idle_track *it, const struct topology *t)
{
	static const enum locality level[3] = { LOC_SMT, LOC_LLC, LOC_NODE };
	int n = t ? t->ncpus : 0;

	memset(it, 0, sizeof(*it));
	it->ncpus = n;
	it->nwords = (n + 63) / 64;
	it->idle = xcalloc((size_t)it->nwords + 1, sizeof(uint64_t));
	it->from = xcalloc((size_t)n + 1, sizeof(uint64_t));
	it->to = xcalloc((size_t)n + 1, sizeof(uint64_t));
	it->known = xcalloc((size_t)n + 1, sizeof(bool));
	/* a mask per group, kept in the row of its first CPU: the few rows a check reads
	 * stay in cache (a row per CPU missed it on every wakeup at 512 CPUs) */
	for (int k = 0; k < 3; k++) {
		it->near[k] = xcalloc((size_t)n * (size_t)it->nwords + 1, sizeof(uint64_t));
		it->leader[k] = xcalloc((size_t)n + 1, sizeof(int));
		for (int a = 0; a < n; a++) {
			int ga = topology_group(t, a, level[k]), first = 0;

			while (ga >= 0 && topology_group(t, first, level[k]) != ga)
				first++;
			it->leader[k][a] = ga >= 0 ? first : -1;
			if (ga >= 0)
				set_bit(it->near[k] + (size_t)first * (size_t)it->nwords, a, true);
		}
		it->wlo[k] = xcalloc((size_t)n + 1, sizeof(int));
		it->whi[k] = xcalloc((size_t)n + 1, sizeof(int));
		for (int a = 0; a < n; a++) {
			const uint64_t *near = it->near[k] +
					       (size_t)(it->leader[k][a] < 0 ? 0 : it->leader[k][a]) *
						       (size_t)it->nwords;

			it->wlo[k][a] = it->nwords;
			it->whi[k][a] = -1;
			for (int w = 0; w < it->nwords && it->leader[k][a] >= 0; w++) {
				if (!near[w])
					continue;
				if (it->wlo[k][a] > w)
					it->wlo[k][a] = w;
				it->whi[k][a] = w;
			}
		}
	}
}

void idle_release(struct idle_track *it)
{
	free(it->idle);
	free(it->from);
	free(it->to);
	free(it->known);
	for (int k = 0; k < 3; k++) {
		free(it->near[k]);
		free(it->leader[k]);
		free(it->wlo[k]);
		free(it->whi[k]);
	}
	memset(it, 0, sizeof(*it));
}

void idle_snapshot(const struct idle_track *it, uint64_t *snap)
{
	memcpy(snap, it->idle, (size_t)it->nwords * sizeof(uint64_t));
}

/*
 * How long one candidate's last idle period overlapped [wake, run]: exact when
 * it began before the wakeup; when it idled again after, that later period
 * only (a lower bound).
 */
static uint64_t overlap(const struct idle_track *it, int c, uint64_t wake, uint64_t run)
{
	uint64_t start = it->from[c] > wake ? it->from[c] : wake;
	uint64_t end = BIT(it->idle, c) ? run : it->to[c];

	return end > start ? end - start : 0;
}

/*
 * The longest overlap of [wake, run] with the last idle period of an allowed CPU but the
 * target, from best on: among CPUs idle now and at the wakeup (both), or now or then.
 * Stops at the whole wait.
 */
static uint64_t longest_overlap(const struct idle_track *it, int target, const uint64_t *allowed,
				const uint64_t *at_wake, uint64_t wake, uint64_t run, bool both,
				uint64_t best)
{
	for (int w = 0; w < it->nwords && best < run - wake; w++) {
		uint64_t cand = (both ? it->idle[w] & at_wake[w] : it->idle[w] | at_wake[w]) &
				(allowed ? allowed[w] : ~0ull);

		while (cand && best < run - wake) {
			int c = w * 64 + __builtin_ctzll(cand);
			uint64_t o;

			cand &= cand - 1;
			if (c == target || c >= it->ncpus)
				continue;
			o = overlap(it, c, wake, run);
			best = o > best ? o : best;
		}
	}
	return best;
}

struct idle_check idle_check(const struct idle_track *it, int target, const uint64_t *allowed,
			     const uint64_t *at_wake, uint64_t wake, uint64_t run)
{
	struct idle_check r = { IDLE_NONE, LOC_REMOTE, 0 };
	uint64_t any = 0, some = 0, tbit;
	int nw = it->nwords, tw;

	if (target < 0 || target >= it->ncpus || !it->known[target])
		return r;
	/* the target was idle at the wakeup (and stayed so until now, or left it now) */
	if (it->from[target] <= wake && (BIT(it->idle, target) || it->to[target] >= run))
		return r;
	tw = target / 64;
	tbit = 1ull << (target % 64);
	for (int w = 0; w < nw; w++) { /* idle CPUs but the target; of them, allowed ones */
		uint64_t cand = (it->idle[w] | at_wake[w]) & ~(w == tw ? tbit : 0);

		any |= cand;
		some |= allowed ? cand & allowed[w] : cand;
	}
	if (!any)
		return r;
	if (!some) {
		r.verdict = IDLE_NOT_ALLOWED;
		return r;
	}
	r.verdict = IDLE_PASSED;
	for (int k = 0; k < 3; k++) { /* the closest: core, then LLC, then node */
		const uint64_t *near;

		if (it->leader[k][target] < 0)
			continue;
		near = it->near[k] + (size_t)it->leader[k][target] * (size_t)nw;
		for (int w = it->wlo[k][target]; w <= it->whi[k][target]; w++) {
			uint64_t cand = (it->idle[w] | at_wake[w]) & near[w] &
					(allowed ? allowed[w] : ~0ull) & ~(w == tw ? tbit : 0);

			if (cand) {
				r.closest = k == 0 ? LOC_SMT : k == 1 ? LOC_LLC : LOC_NODE;
				k = 3;
				break;
			}
		}
	}
	/* the longest overlap; the whole wait as soon as one CPU idled through it: first
	 * among the CPUs idle at both ends (usually idle throughout: the first one ends it),
	 * then among all (no walk over every idle CPU on a mostly idle machine) */
	r.wait_ns = longest_overlap(it, target, allowed, at_wake, wake, run, true, 0);
	r.wait_ns = longest_overlap(it, target, allowed, at_wake, wake, run, false, r.wait_ns);
	if (r.wait_ns > run - wake)
		r.wait_ns = run - wake;
	return r;
}
