/* bpf_stacks.c - the BPF collector's sampled stacks read out (bpf_stacks.h). */
#include "bpf_stacks.h"

#include "bpf/sched_bpf.h"
#include "bpf_sched.h"
#include "sched.skel.h" /* build/bpf: the skeleton, or a note that there is none */

#ifdef LOCUS_NO_BPF

void bpf_sched_stacks_poll(struct bpf_sched *b)
{
	(void)b;
}

int bpf_sched_stacks(struct bpf_sched *b, struct stack_table *tab, struct symbols *syms,
		     struct bpf_stack_row **rows, uint32_t *n, struct bpf_stack_stats *st)
{
	(void)b, (void)tab, (void)syms, (void)rows, (void)n, (void)st;
	return -1;
}

#else

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "bpf_sched_int.h"

_Static_assert(LB_STK_NO_WAKEUP == 5, "the stacks analyzer's STACKS_NO_WAKEUP is LOC_NR");

/*
 * Process pid's executable file mappings from /proc/PID/maps; 0, or -1 when it is gone
 * (no file, or none mapped: a zombie's is empty).
 */
static int read_maps(struct bpf_sched *b, uint32_t pid)
{
	char path[64], line[4096 + 128];
	int before = b->nsmaps;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, off;
		char perm[8];
		int at = 0;
		struct bpf_stack_map *m;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &lo, &hi,
			   perm, &off, &at) < 4 || !at || perm[2] != 'x' || line[at] != '/')
			continue;
		line[strcspn(line, "\n")] = 0;
		if (b->nsmaps == b->capsmaps) {
			b->capsmaps = b->capsmaps ? 2 * b->capsmaps : 64;
			b->smaps = xrealloc(b->smaps, (size_t)b->capsmaps * sizeof(*b->smaps));
		}
		m = &b->smaps[b->nsmaps++];
		*m = (struct bpf_stack_map){ pid, lo, hi - lo, off, xstrdup(line + at) };
	}
	fclose(f);
	return b->nsmaps > before ? 0 : -1;
}

static void saw_tgid(struct bpf_sched *b, int tgid)
{
	if (tgid <= 0 || u64map_get(&b->stk_tgids, (uint64_t)tgid))
		return;
	int gone = read_maps(b, (uint32_t)tgid) < 0;

	u64map_put(&b->stk_tgids, (uint64_t)tgid, gone ? 2 : 1);
	b->stk_ntgids++;
	b->stk_gone += gone;
}

void bpf_sched_stacks_poll(struct bpf_sched *b)
{
	int fd;
	struct lb_stk_key k, next, *prev = NULL;

	if (!b || !b->stack_every)
		return;
	fd = bpf_map__fd(b->skel->maps.stk_counts);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (k.ustack >= 0)
			saw_tgid(b, k.tgid);
		if (k.wk_ustack >= 0)
			saw_tgid(b, k.wk_tgid);
	}
}

/*
 * Whether a kernel frame is the tracing's own, above the tracepoint's caller (the program,
 * bpf_trace_runN, __bpf_trace_*, __traceiter_*): perf's callchain starts below them.
 */
static bool tracing_frame(const struct stack_namer *nm, uint64_t addr)
{
	static const char *const own[] = { "bpf_prog_", "bpf_trace_run", "__bpf_trace_",
					   "__traceiter_", "trace_call_bpf" };
	char buf[256];
	const char *name = nm->name(nm->ctx, 0, addr, 1, buf, sizeof(buf));

	for (size_t i = 0; name && i < sizeof(own) / sizeof(own[0]); i++)
		if (!strncmp(name, own[i], strlen(own[i])))
			return true;
	return false;
}

/* The stack table read out, indexed by id (ids absent: n 0). */
struct stk_ids {
	struct lb_stk_ips *by_id;
	uint32_t n;
};

static void read_ids(struct bpf_sched *b, struct stk_ids *ids)
{
	int fd = bpf_map__fd(b->skel->maps.stk_ids);
	uint64_t h, next, *prev = NULL;
	struct lb_stk_ips e;

	*ids = (struct stk_ids){ 0 };
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		h = next;
		prev = &h;
		if (bpf_map_lookup_elem(fd, &h, &e) < 0 || e.id >= 4u * LB_STACK_ENTRIES)
			continue; /* an id is below the room plus the inserts lost to a race */
		if (e.id >= ids->n) {
			uint32_t n = e.id + 64;

			ids->by_id = xrealloc(ids->by_id, (size_t)n * sizeof(*ids->by_id));
			memset(ids->by_id + ids->n, 0, (size_t)(n - ids->n) * sizeof(*ids->by_id));
			ids->n = n;
		}
		if (e.n > LB_STACK_DEPTH)
			e.n = LB_STACK_DEPTH;
		ids->by_id[e.id] = e;
	}
}

/* Stacks kid (kernel) and uid (user, of tgid) as one callchain in tab, perf's way. */
static uint32_t intern(const struct stk_ids *sids, struct stack_table *tab,
		       const struct stack_namer *nm, int kid, int uid, int tgid)
{
	uint64_t ips[2 * LB_STACK_DEPTH + 2];
	uint32_t n = 0;
	int ids[2] = { kid, uid };
	uint64_t ctx[2] = { (uint64_t)PERF_CONTEXT_KERNEL, (uint64_t)PERF_CONTEXT_USER };

	for (int w = 0; w < 2; w++) {
		const struct lb_stk_ips *e;

		if (ids[w] < 0 || (uint32_t)ids[w] >= sids->n || !sids->by_id[ids[w]].n)
			continue;
		e = &sids->by_id[ids[w]];
		ips[n++] = ctx[w];
		for (uint32_t i = 0, top = !w; i < e->n && e->ip[i]; i++) {
			if (top && tracing_frame(nm, e->ip[i]))
				continue;
			top = 0;
			ips[n++] = e->ip[i];
		}
	}
	/* little-endian words, as the table takes them (x86: the host's) */
	return stack_intern(tab, tgid, (const uint8_t *)ips, n);
}

static void read_stats(struct bpf_sched *b, struct bpf_stack_stats *st)
{
	uint64_t *v = xcalloc((size_t)b->nposs, LB_STK_NR * sizeof(uint64_t));
	uint64_t sum[LB_STK_NR] = { 0 };
	uint32_t z = 0;

	if (!bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.stk_stat), &z, v))
		for (int c = 0; c < b->nposs; c++)
			for (int i = 0; i < LB_STK_NR; i++)
				sum[i] += v[(size_t)c * LB_STK_NR + i];
	free(v);
	st->taken_waker = sum[LB_STK_TAKEN_WAKER];
	st->taken_blocked = sum[LB_STK_TAKEN_BLOCKED];
	st->taken_offwake = sum[LB_STK_TAKEN_OFFWAKE];
	st->enomem = sum[LB_STK_ENOMEM];
	st->eother = sum[LB_STK_EOTHER];
	st->full = sum[LB_STK_FULL];
	st->lost = sum[LB_STK_LOST];
}

int bpf_sched_stacks(struct bpf_sched *b, struct stack_table *tab, struct symbols *syms,
		     struct bpf_stack_row **rows, uint32_t *n, struct bpf_stack_stats *st)
{
	int fd;
	uint32_t cap = 0;
	struct lb_stk_key k, next, *prev = NULL;
	struct lb_stk_val v;
	struct stack_namer nm = symbols_stack_namer(syms);
	struct stk_ids ids;

	*rows = NULL;
	*n = 0;
	if (!b || !b->stack_every)
		return -1;
	memset(st, 0, sizeof(*st));
	st->every_waker = (b->skel->rodata->timed_every > 1 ? b->skel->rodata->timed_every : 1) *
			  LB_STACK_OF_TIMED;
	st->every_blocked = b->stack_every;
	read_stats(b, st);
	bpf_sched_stacks_poll(b); /* the last processes new in the table, if alive */
	/* the mappings first: a symbols' lookup (the tracing's frames, below) settles them */
	for (int i = 0; i < b->nsmaps; i++) {
		const struct bpf_stack_map *m = &b->smaps[i];

		symbols_add_map(syms, m->pid, m->start, m->len, m->pgoff, m->path);
	}
	read_ids(b, &ids);
	fd = bpf_map__fd(b->skel->maps.stk_counts);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct bpf_stack_row *r;

		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v) < 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*rows = xrealloc(*rows, (size_t)cap * sizeof(**rows));
		}
		r = &(*rows)[(*n)++];
		*r = (struct bpf_stack_row){ intern(&ids, tab, &nm, k.kstack, k.ustack, k.tgid), 0, k.kind,
					     k.cls, v.count, v.time_ns };
		if (k.kind == LB_STK_OFFWAKE)
			r->waker = intern(&ids, tab, &nm, k.wk_kstack, k.wk_ustack, k.wk_tgid);
	}
	free(ids.by_id);
	st->tgids = b->stk_ntgids;
	st->tgids_gone = b->stk_gone;
	return 0;
}

#endif
