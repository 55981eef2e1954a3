/* sweep.c - the benchmark loop's data: its measures' table, runs added and released. */
#include "sweep.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static const struct measure_info infos[M_NR] = {
	[M_METRIC] = { "metric", "metric", 1 },
	[M_CS] = { "cs_per_s", "cs/s", 0 },
#define SCHED_MEASURE(field, group, key, label, flags, dash, loop) \
	[M_S_##field] = { #field "_per_s", loop, 0 },
#include "sched_measures.def"
#undef SCHED_MEASURE
	[M_SAME_CPU] = { "same_cpu_pct", "same%", 0 },
	[M_SMT] = { "smt_pct", "smt%", 0 },
	[M_LLC] = { "llc_pct", "llc%", 0 },
	[M_NODE] = { "node_pct", "node%", 0 },
	[M_REMOTE] = { "remote_pct", "rmt%", 0 },
	[M_P99] = { "wake_to_run_p99_us", "p99", -1 },
	[M_IDLE_PCT] = { "idle_passed_pct", "idle%", -1 },
	[M_HITM] = { "hitm_per_s", "hitm/s", -1 },
	[M_ELAPSED] = { "elapsed_s", "wall s", 0 },
	[M_ST_TASK_CLOCK] = { "task_clock_ms", "msec", 0 },
	[M_ST_CS] = { "context_switches", "cs", 0 },
	[M_ST_VOL] = { "voluntary", "vol", 0 },
	[M_ST_INVOL] = { "involuntary", "invol", 0 },
	[M_ST_MIGR] = { "cpu_migrations", "migr", 0 },
	[M_ST_FAULTS] = { "page_faults", "faults", 0 },
	[M_ST_CYCLES] = { "cycles", "cycles", 0 },
	[M_ST_INSNS] = { "instructions", "insns", 0 },
	[M_ST_CREFS] = { "cache_references", "c-refs", 0 },
	[M_ST_CMISS] = { "cache_misses", "c-miss", 0 },
	[M_ST_LLC] = { "llc_load_misses", "LLCmiss", 0 },
	[M_ST_HITM] = { "hitm", "hitm", 0 },
};

/* locus stat's counter names, in the order of the M_ST_* measures. */
static const char *const stat_names[] = {
	"task-clock", "context-switches", "voluntary", "involuntary", "cpu-migrations",
	"page-faults", "cycles", "instructions", "cache-references", "cache-misses",
	"LLC-load-misses", "hitm",
};

int measure_by_stat_name(const char *name)
{
	for (size_t i = 0; i < sizeof(stat_names) / sizeof(stat_names[0]); i++)
		if (!strcmp(stat_names[i], name))
			return M_ST_TASK_CLOCK + (int)i;
	return -1;
}

const struct measure_info *measure_info(enum measure m)
{
	return &infos[m];
}

int measure_by_key(const char *key)
{
	for (int m = 0; m < M_NR; m++)
		if (infos[m].label[0] && !strcmp(infos[m].key, key))
			return m; /* slots of measures the loop does not take have no label */
	return -1;
}

void sweep_set_add(struct sweep_set *s, const struct sweep_run *run)
{
	if (s->nruns == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->runs = xrealloc(s->runs, (size_t)s->cap * sizeof(*s->runs));
	}
	s->runs[s->nruns++] = *run;
}

void sweep_set_release(struct sweep_set *s)
{
	free(s->runs);
	free(s->values);
	memset(s, 0, sizeof(*s));
}

int sweep_better(const struct sweep_set *s, enum measure m)
{
	if (m == M_METRIC)
		return s->metric_higher ? 1 : -1;
	return infos[m].better;
}
