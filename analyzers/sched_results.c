/* sched_results.c - allocation of the scheduler results structure. */
#include "sched_results.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

void sched_results_init(struct sched_results *r, const struct topology *topo)
{
	size_t n = (size_t)topo->ncpus;

	memset(r, 0, sizeof(*r));
	r->ncpus = topo->ncpus;
	r->topo = topo;
	r->wake_matrix = xcalloc(n * n, sizeof(uint64_t));
	r->prev_matrix = xcalloc(n * n, sizeof(uint64_t));
	r->mig_matrix = xcalloc(n * n, sizeof(uint64_t));
	r->cpu = xcalloc(n, sizeof(*r->cpu));
	r->delay_cpu = xcalloc(n, sizeof(*r->delay_cpu));
	hist_init(&r->delay);
	for (int c = 0; c < LOC_NR; c++)
		hist_init(&r->delay_class[c]);
}

void sched_results_release(struct sched_results *r)
{
	free(r->wake_matrix);
	free(r->prev_matrix);
	free(r->mig_matrix);
	free(r->cpu);
	free(r->delay_cpu);
	free(r->tasks);
	free(r->pairs);
	memset(r, 0, sizeof(*r));
}
