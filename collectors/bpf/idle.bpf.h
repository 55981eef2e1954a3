/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idle.bpf.h - part of sched.bpf.c (included there, on core.bpf.h): the
 * idle CPUs passed over, analyzers/idle.h's rule in the kernel. Each CPU keeps
 * whether it is idle in its hot line and its last idle period in a cache line of its
 * own, from its own sched_switch (no shared line written, no atomic); the mask of idle CPUs
 * is built from those lines only for a timed wakeup, kept with it, and checked
 * at the woken task's switch-in with the task's own cpumask; word and CPU loops
 * run in bpf_loop callbacks. An idle period's ends are timed only while a timed
 * wakeup waits (glob.idle_watch, raised at the waking, lowered at the switch-in):
 * the only periods the check measures overlap such a wait, and an end while
 * none waits is one before every wakeup to come, so the transitions of a CPU no
 * timed wakeup waits through read no clock and write only the CPU's hot line.
 */
#ifndef LOCUS_IDLE_BPF_H
#define LOCUS_IDLE_BPF_H

#include "core.bpf.h"

/* Set by user space before load: words of an idle-CPU mask; 0: idle CPUs not kept. */
const volatile unsigned int idle_words = 0;

/*
 * Idle CPUs (analyzers/idle.h, the same rule): each CPU's last idle period (a line
 * each; its state: lb_hot.idle), and per core, LLC and node (0-2) the mask of its CPUs,
 * kept in the row of its first CPU (idle_leader; -1: unknown). User space fills
 * the last two.
 */
struct lb_idle idle_at[LB_IDLE_CPUS];
__u64 near_mask[3][LB_IDLE_CPUS][LB_IDLE_WORDS];
int idle_leader[3][LB_IDLE_CPUS];

/* The index of the one bit set in x, without a branch (a de Bruijn sequence). */
static const unsigned char debruijn[64] = {
	0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28, 62, 5, 39, 46, 44, 42, 22, 9,
	24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58,
	17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
};

static __always_inline int bit_index(__u64 x)
{
	return debruijn[((x * 0x022fdd63cc95386dull) >> 58) & 63];
}

/*
 * This CPU (h its hot line) switches to the idle task (idle) or away from it; *now: read
 * once. Its idle line is written only while a timed wakeup waits: a period's end while
 * none waits is one before every wakeup to come, and the time the line holds then (an
 * earlier end, or 0) is before them too, so the checks read it as they would read 0.
 */
static __always_inline void idle_note(struct lb_hot *h, int cpu, int idle, __u64 *now)
{
	__u32 i = (__u32)cpu;
	struct lb_idle *s;

	barrier_var(i);
	if (LOCUS_NO_IDLE) /* bench-only build (core.bpf.h): idle CPUs not kept */
		return;
	if (!idle_words || i >= LB_IDLE_CPUS)
		return;
	if (!h->idle_known)
		h->idle_known = 1;
	if (!h->idle == !idle)
		return;
	if (glob.idle_watch) {
		if (!*now)
			*now = bpf_ktime_get_ns();
		s = &idle_at[i];
		if (idle)
			s->from = *now;
		else
			s->to = *now;
		barrier(); /* the time first: a reader that sees it idle sees from */
	}
	h->idle = idle != 0;
}

/* CPU c's hot line, read by another CPU (its idle state); NULL past the map. */
static __always_inline struct lb_hot *hot_of(__u32 c)
{
	return bpf_map_lookup_elem(&hot, &c);
}

/* A timed wakeup begins to wait (before its time is read: an idle end after it is timed) */
static __always_inline void idle_watch_on(struct lb_tstate *t)
{
	if (LOCUS_NO_IDLE)
		return;
	if (!idle_words || t->idle_watching)
		return;
	__sync_fetch_and_add(&glob.idle_watch, 1);
	t->idle_watching = 1;
}

/* ... and ends (its switch-in, after the check) */
static __always_inline void idle_watch_off(struct lb_tstate *t)
{
	if (!t->idle_watching)
		return;
	t->idle_watching = 0;
	__sync_fetch_and_add(&glob.idle_watch, -1);
}

/* CPU i, if idle now, into the mask at data (its first member: LB_IDLE_WORDS words). */
static int idle_bit(__u32 i, void *data)
{
	__u64 *w = data;
	struct lb_hot *h;

	if (i >= LB_IDLE_CPUS || i >= (__u32)ncpus)
		return 1;
	h = hot_of(i);
	if (h && h->idle)
		w[(i / 64) & (LB_IDLE_WORDS - 1)] |= 1ull << (i % 64);
	return 0;
}

/* The CPUs idle now, ORed into w (LB_IDLE_WORDS words on the stack). */
static __always_inline void lb_idle_now(__u64 *w)
{
	bpf_loop(idle_words * 64, idle_bit, w, 0);
}

/* The idle CPUs at a timed wakeup, kept with it until it runs. */
static __always_inline void idle_keep(struct lb_tstate *t)
{
	__u64 m[LB_IDLE_WORDS] = {};

	if (LOCUS_NO_IDLE)
		return;
	if (!idle_words)
		return;
	lb_idle_now(m);
	for (int w = 0; w < LB_IDLE_WORDS; w++) {
		if (w >= idle_words)
			break;
		t->idle_at_wake[w] = m[w];
	}
}

/* How long c's last idle period overlapped [wake, run] (idle.c's overlap). */
static __always_inline __u64 idle_overlap(__u32 c, __u64 wake, __u64 run)
{
	struct lb_idle *s;
	struct lb_hot *h;
	__u64 start, end;

	barrier_var(c);
	if (c >= LB_IDLE_CPUS)
		return 0;
	s = &idle_at[c];
	h = hot_of(c);
	if (!h)
		return 0;
	start = s->from > wake ? s->from : wake;
	end = h->idle ? run : s->to;
	return end > start ? end - start : 0;
}

/*
 * The check's state, walked a word at a time by bpf_loop callbacks (the
 * verifier walks each callback once: loops unrolled per word made the
 * programs too large to load at 512 CPUs).
 */
struct idle_ctx {
	__u64 cand[LB_IDLE_WORDS];	/* idle at the wakeup or now, not the target (first:
					 * lb_idle_now() fills it) */
	__u64 cpus;			/* the task's cpumask's address (read a word at a time) */
	__u64 wake, run, full, wait, bits;
	__u32 tg, base;
	int any, some, closest, fail;
};

/* One candidate idle CPU a step: the lowest left in bits. */
static int overlap_bit(__u32 i, void *data)
{
	struct idle_ctx *x = data;
	__u64 low, o;
	__u32 cpu;

	if (!x->bits || x->wait >= x->full)
		return 1;
	low = x->bits & -x->bits;
	x->bits &= x->bits - 1;
	cpu = x->base + (__u32)bit_index(low);
	if (cpu >= (__u32)ncpus)
		return 0;
	o = idle_overlap(cpu, x->wake, x->run);
	if (o > x->wait)
		x->wait = o;
	return 0;
}

/*
 * Word w: any idle CPU, any allowed one (the candidates left in cand[w]: the task's mask
 * read here), and the closest level with one (core, LLC, node).
 */
static int scan_word(__u32 w, void *data)
{
	struct idle_ctx *x = data;
	__u64 cand, ok, allowed;

	if (w >= LB_IDLE_WORDS)
		return 1;
	if (bpf_probe_read_kernel(&allowed, sizeof(allowed), (const void *)(x->cpus + w * 8)) < 0) {
		x->fail = 1;
		return 1;
	}
	cand = x->cand[w];
	ok = cand & allowed;
	x->cand[w] = ok;
	x->any |= cand != 0;
	x->some |= ok != 0;
	for (int k = 0; k < 3 && ok; k++) {
		__u32 ld = (__u32)idle_leader[k][x->tg & (LB_IDLE_CPUS - 1)];

		if (k + 1 >= x->closest)
			break;
		barrier_var(ld);
		if (ld < LB_IDLE_CPUS && (ok & near_mask[k][ld][w])) {
			x->closest = k + 1;
			break;
		}
	}
	return 0;
}

/* Word w's allowed candidates: their overlap with the wait. */
static int overlap_word(__u32 w, void *data)
{
	struct idle_ctx *x = data;

	if (w >= LB_IDLE_WORDS || x->wait >= x->full)
		return 1;
	x->bits = x->cand[w]; /* allowed ones only (scan_word) */
	x->base = w * 64;
	if (x->bits)
		bpf_loop(64, overlap_bit, x, 0);
	return 0;
}

/*
 * A timed wakeup of p waited on target and runs now (run), before this CPU's
 * switch is noted: did it pass over an allowed idle CPU? Counted here, where
 * it ran. The mask is the task's own, as it is now.
 */
/* A function of its own: its state on its own stack, verified once. */
__noinline int idle_check_at(struct lb_pcpu *c, struct lb_tstate *t, __u64 cpus_ptr,
			     int target, __u64 run)
{
	struct idle_ctx x = {};
	__u64 wake, tbit;
	__u32 tg = (__u32)target, tw;
	int cls;
	struct lb_idle *ts;
	struct lb_hot *th;

	barrier_var(tg);
	if (!c || !t)
		return 0;
	wake = t->wake_ns;
	if (!idle_words || tg >= LB_IDLE_CPUS || run < wake)
		return 0;
	ts = &idle_at[tg];
	th = hot_of(tg);
	tw = tg / 64;
	tbit = 1ull << (tg % 64);
	if (!th || !th->idle_known)
		return 0;
	/* the target was idle at the wakeup (and stayed so until now, or left it now) */
	if (ts->from <= wake && (th->idle || ts->to >= run))
		return 0;
	/* the words in use only (idle_words is a constant to the verifier) */
	if (idle_words > LB_IDLE_WORDS)
		return 0;
	lb_idle_now(x.cand);
	for (int w = 0; w < LB_IDLE_WORDS; w++) {
		if (w >= idle_words)
			break;
		x.cand[w] = (x.cand[w] | t->idle_at_wake[w]) & ~(w == tw ? tbit : 0);
	}
	x.tg = tg;
	x.closest = 4;
	x.cpus = cpus_ptr;
	bpf_loop(idle_words, scan_word, &x, 0);
	if (!x.any || x.fail)
		return 0;
	if (!x.some) {
		c->n[LB_idle_not_allowed]++;
		return 0;
	}
	/* the longest overlap; the whole wait as soon as one CPU idled through it */
	x.wake = wake;
	x.run = run;
	x.full = run - wake;
	bpf_loop(idle_words, overlap_word, &x, 0);
	if (x.wait > x.full)
		x.wait = x.full;
	c->n[LB_idle_passed]++;
	c->n[LB_idle_wait_ns] += x.wait;
	if (x.closest >= 1 && x.closest < LB_CLASSES)
		c->idle_closest[x.closest]++;
	cls = lb_valid(t->waker_cpu) ? classify(t->waker_cpu, target) : -1;
	if (cls >= 0 && cls < LB_CLASSES) {
		c->idle_passed_class[cls]++;
		c->idle_wait_class[cls] += x.wait;
	}
	return 0;
}

static __always_inline void lb_idle_check(struct lb_pcpu *c, struct lb_tstate *t,
				       struct task_struct *p, int target, __u64 run)
{
	if (LOCUS_NO_IDLE)
		return;
	__u64 cpus = 0; /* the mask's address as a number: a global function takes no pointer */

	if (!idle_words || bpf_probe_read_kernel(&cpus, sizeof(cpus), &p->cpus_ptr) < 0)
		return;
	idle_check_at(c, t, cpus, target, run);
}

#endif
