/*
 * src_bpf_blame.c - the BPF source's split of the waits (--sections blame, split in the
 * kernel for the timed wakeups) into the blame results the report renders, with the
 * shares' 95% intervals over the wakeups sampled: what the source fills in the blame
 * sink's stead (stand_in.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../analyzers/blame.h"
#include "../analyzers/blame_live.h"
#include "../analyzers/stats.h"
#include "../collectors/bpf_blame.h"
#include "../common/util.h"
#include "../model/sched_results.h"
#include "src_bpf.h"

_Static_assert(LB_BL_RUNNING == BC_RUNNING && LB_BL_AHEAD == BC_AHEAD &&
		       LB_BL_HARDIRQ == BC_HARDIRQ && LB_BL_SOFTIRQ == BC_SOFTIRQ &&
		       LB_BL_ELSEWHERE == BC_ELSEWHERE && LB_BL_IDLE == BC_IDLE &&
		       LB_BL_UNKNOWN == BC_UNKNOWN && LB_BL_CAUSES == BC_NR,
	       "the programs' causes are the blame analyzer's");
_Static_assert(LB_BL_RING == BLAME_KERNEL_RING, "the report says how many segments are kept");
_Static_assert(LB_CLASSES == LOC_NR, "the programs' classes are enum locality's");

static void split_from(struct blame_split *d, const struct bpf_blame_split *s)
{
	d->wakeups = s->wakeups;
	d->wait_ns = 0;
	for (int k = 0; k < BC_NR; k++) {
		d->ns[k] = s->ns[k];
		d->wait_ns += s->ns[k];
	}
}

static int by_inflicted(const void *a, const void *b)
{
	const struct blame_culprit *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->tid - y->tid;
}

/*
 * Each cause's share X / W of the wait and its 95% interval over the n wakeups sampled,
 * each wakeup a cluster (stats_ratio95: the ratio estimator's where the cause was seen;
 * where no sampled wakeup had it, a bound: the rule of three's share of the wakeups, each
 * as long as the longest wait sampled, and where few had it at least the same bound for
 * that many; w_max: the timed wakeups' longest delay, exact,
 * else the root of the sum of squares; a seen cause's lower end then shrinks by that bound,
 * which the unseen may hold). The kernel keeps the sums in units of 1024 ns.
 */
static void intervals(struct blame_results *r, const struct bpf_blame *o, uint64_t w_max)
{
	double w = (double)r->all.wait_ns, n = (double)r->all.wakeups, u = 1024.0 * 1024.0;
	double unseen = 0;

	for (int k = 0; k < BC_NR; k++) {
		stats_ratio95(n, (double)r->all.ns[k], w, (double)o->sq[k] * u,
			      (double)o->xw[k] * u, (double)o->ww * u, (double)w_max,
			      &r->share_lo[k], &r->share_hi[k]);
		if (!r->all.ns[k] && r->share_hi[k] > unseen)
			unseen = r->share_hi[k];
	}
	/* what the unseen causes may hold (one bound: a wakeup carrying any of them is one the
	 * sample missed) comes out of the seen causes' shares: their lower ends shrink by it */
	for (int k = 0; k < BC_NR; k++)
		if (r->all.ns[k])
			r->share_lo[k] *= 1 - unseen;
}

int bpf_src_blame(struct bpf_sched *bs, const struct sched_results *sched, struct blame_results *r)
{
	struct bpf_blame o;

	memset(r, 0, sizeof(*r));
	if (bpf_sched_blame(bs, &o) < 0)
		return -1;
	r->in_kernel = true;
	r->sample_every = o.every;
	r->irq_source = o.irqs;
	r->ncpus = o.ncpus;
	split_from(&r->all, &o.all);
	for (int c = 0; c < LOC_NR; c++)
		split_from(&r->by_class[c], &o.cls[c]);
	r->cpu = xcalloc((size_t)o.ncpus + 1, sizeof(*r->cpu));
	for (int c = 0; c < o.ncpus; c++)
		split_from(&r->cpu[c], &o.cpu[c]);
	if (sched) { /* beside the split: the same timed wakeups' idle check */
		r->all.idle_passed = sched->idle_passed;
		r->all.idle_passed_ns = sched->idle_wait_ns;
		for (int c = 0; c < LOC_NR; c++) {
			r->by_class[c].idle_passed = sched->idle_passed_class[c];
			r->by_class[c].idle_passed_ns = sched->idle_wait_class[c];
		}
		for (int c = 0; c < o.ncpus && c < sched->ncpus && sched->cpu; c++)
			r->cpu[c].idle_passed = sched->cpu[c].idle_passed;
	}
	r->beyond_history = o.beyond;
	r->culprits_dropped_ns = o.culprits_dropped_ns;
	r->culprits = xcalloc((size_t)o.nculprits + 1, sizeof(*r->culprits));
	for (int i = 0; i < o.nculprits; i++) {
		struct blame_culprit *k = &r->culprits[r->nculprits];
		const struct bpf_blame_culprit *x = &o.culprits[i];

		if (!x->running_ns && !x->ahead_ns)
			continue;
		k->tid = x->tid;
		memcpy(k->comm, x->comm, sizeof(k->comm) < LB_COMM ? sizeof(k->comm) : LB_COMM);
		k->comm[sizeof(k->comm) - 1] = '\0';
		k->running_ns = x->running_ns;
		k->ahead_ns = x->ahead_ns;
		k->ns = x->running_ns + x->ahead_ns;
		k->wakeups = x->wakeups;
		r->nculprits++;
	}
	qsort(r->culprits, (size_t)r->nculprits, sizeof(*r->culprits), by_inflicted);
	intervals(r, &o, sched ? sched->delay.max : 0);
	bpf_blame_release(&o);
	return 0;
}

int bpf_src_blame_live(struct bpf_sched *bs, const struct blame_results *done,
		       const struct sched_results *sched, struct blame_live *dst)
{
	struct blame_results r;

	if (done) {
		blame_live_from(dst, done);
	} else {
		if (bpf_src_blame(bs, sched, &r) < 0)
			return -1;
		blame_live_from(dst, &r);
		free(r.cpu);
		free(r.culprits);
	}
	blame_live_sort(dst);
	return 0;
}
