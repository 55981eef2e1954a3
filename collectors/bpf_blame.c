/* bpf_blame.c - the BPF collector's split of the waits read out (bpf_blame.h). */
#include "bpf_blame.h"

#include <stdlib.h>
#include <string.h>

#include "bpf_sched.h"
#include "sched.skel.h" /* build/bpf: the skeleton, or a note that there is none */

void bpf_blame_release(struct bpf_blame *o)
{
	free(o->cpu);
	free(o->culprits);
	memset(o, 0, sizeof(*o));
}

#ifdef LOCUS_NO_BPF

int bpf_sched_blame(struct bpf_sched *b, struct bpf_blame *o)
{
	(void)b, (void)o;
	return -1;
}

#else

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../common/util.h"
#include "bpf_sched_int.h"

static void split_add(struct bpf_blame_split *d, const struct lb_bl_split *s)
{
	d->wakeups += s->wakeups;
	d->wait_ns += s->wait_ns;
	for (int k = 0; k < LB_BL_CAUSES; k++)
		d->ns[k] += s->ns[k];
}

/* Every CPU's value of the per-CPU array into o. 0, or -1. */
static int read_cpus(struct bpf_sched *b, struct bpf_blame *o)
{
	size_t stride = (sizeof(struct lb_bl_cpu) + 7) & ~(size_t)7;
	char *v = xcalloc((size_t)b->nposs, stride);
	uint32_t z = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.lb_bl_cpus), &z, v) < 0) {
		free(v);
		return -1;
	}
	o->ncpus = b->ncpus;
	o->cpu = xcalloc((size_t)b->ncpus + 1, sizeof(*o->cpu));
	for (int c = 0; c < b->nposs; c++) {
		const struct lb_bl_cpu *x = (const struct lb_bl_cpu *)(v + (size_t)c * stride);

		split_add(&o->all, &x->all);
		for (int k = 0; k < LB_CLASSES; k++)
			split_add(&o->cls[k], &x->cls[k]);
		if (c < b->ncpus)
			split_add(&o->cpu[c], &x->all);
		for (int k = 0; k < LB_BL_CAUSES; k++) {
			o->sq[k] += x->sq[k];
			o->xw[k] += x->xw[k];
		}
		o->ww += x->ww;
		o->beyond += x->beyond;
		o->culprits_dropped_ns += x->culprits_dropped_ns;
	}
	free(v);
	return 0;
}

/* The tasks to blame: each one's per-CPU values summed, its name the latest seen. */
static void read_culprits(struct bpf_sched *b, struct bpf_blame *o)
{
	size_t stride = (sizeof(struct lb_bl_culprit) + 7) & ~(size_t)7;
	char *v = xcalloc((size_t)b->nposs, stride);
	int fd = bpf_map__fd(b->skel->maps.bl_culprits), cap = 0, key, next, *prev = NULL;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct bpf_blame_culprit *k;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, v) < 0)
			continue;
		if (o->nculprits == cap) {
			cap = cap ? cap * 2 : 256;
			o->culprits = xrealloc(o->culprits, (size_t)cap * sizeof(*o->culprits));
		}
		k = &o->culprits[o->nculprits++];
		memset(k, 0, sizeof(*k));
		k->tid = key;
		for (int c = 0; c < b->nposs; c++) {
			const struct lb_bl_culprit *x =
				(const struct lb_bl_culprit *)(v + (size_t)c * stride);

			k->running_ns += x->running_ns;
			k->ahead_ns += x->ahead_ns;
			k->wakeups += x->wakeups;
			if (x->comm[0])
				memcpy(k->comm, x->comm, LB_COMM);
		}
	}
	free(v);
}

int bpf_sched_blame(struct bpf_sched *b, struct bpf_blame *o)
{
	memset(o, 0, sizeof(*o));
	if (!b || !b->blame)
		return -1;
	o->every = b->skel->rodata->timed_every > 1 ? b->skel->rodata->timed_every : 1;
	o->irqs = b->blame_irq;
	if (read_cpus(b, o) < 0)
		return -1;
	read_culprits(b, o);
	return 0;
}

#endif
