/* flows.h - scripted wakeup flows played through the wakeup analyzer (report and dashboard goldens). */
#ifndef LOCUS_TEST_FLOWS_H
#define LOCUS_TEST_FLOWS_H

#include "../../analyzers/wakeup.h"
#include "events.h"

#include <stdio.h>

struct flow {
	int waker_cpu, prev_cpu, target_cpu;
	int count;
};

/*
 * One task per flow sleeps on prev_cpu; a waker task on waker_cpu wakes it
 * count times; it runs on target_cpu after 1..7 us and sleeps again.
 */
static inline void play(struct wakeup *w, const struct flow *flows, int nflows)
{
	static const uint64_t every[8] = { ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull };
	uint64_t t = 1000;

	for (int f = 0; f < nflows; f++) {
		int wakee = 1000 + f, waker = 2000 + f;
		struct event e = { .type = EV_AFFINITY };

		e.aff.nwords = 8; /* as the perf stream gives them: both may run anywhere */
		e.aff.mask = every;
		e.aff.pid = wakee;
		wakeup_add(w, &e);
		e.aff.pid = waker;
		wakeup_add(w, &e);
		wakeup_track(w, wakee);
		wakeup_track(w, waker);
		e = ev_switch(t, flows[f].prev_cpu, wakee, S_SLEEP, 0);
		wakeup_add(w, &e);
		for (int i = 0; i < flows[f].count; i++) {
			int cpu = i ? flows[f].target_cpu : flows[f].prev_cpu;

			t += 10000;
			e = ev_waking(t, flows[f].waker_cpu, waker, wakee, cpu);
			wakeup_add(w, &e);
			if (flows[f].target_cpu != cpu) {
				e = ev_migrate(t + 100, flows[f].waker_cpu, waker, wakee, cpu,
					       flows[f].target_cpu);
				wakeup_add(w, &e);
			}
			e = ev_switch(t + 1000 * (uint64_t)(1 + i % 7), flows[f].target_cpu, 0, 0,
				      wakee);
			wakeup_add(w, &e);
			e = ev_switch(t + 9000, flows[f].target_cpu, wakee, S_SLEEP, 0);
			wakeup_add(w, &e);
		}
	}
	wakeup_finish(w);
}

/* The provenance a perf-stream session on every CPU of topo would stamp. */
static inline void test_provenance(struct sched_results *r, const struct topology *topo)
{
	struct provenance *p = &r->prov;

	p->source = PROV_PERF;
	snprintf(p->why, sizeof(p->why), "test events");
	snprintf(p->cpus_asked, sizeof(p->cpus_asked), "all");
	snprintf(p->cpus_honored, sizeof(p->cpus_honored), "0-%d", topo->nonline - 1);
	p->ncpus_honored = topo->nonline;
	p->scope = SCOPE_WORKLOAD;
	p->delay = DELAY_LOGLIN;
	p->affinity_known = p->affinity_calls = true;
	p->unmeasured = SM_BIT(mem_lost) | SM_BIT(mem_undecodable); /* no memory sampling */
}

#endif
