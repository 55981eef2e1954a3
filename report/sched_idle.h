/* sched_idle.h - the "idle CPUs passed over" section of the scheduler reports. */
#ifndef LOCUS_SCHED_IDLE_H
#define LOCUS_SCHED_IDLE_H

#include <stdio.h>

#include "../model/sched_results.h"

struct json;

/* The rule the counts follow, in one line (depends on whether affinity was known). */
const char *sched_idle_rule(const struct sched_results *r);
/* The text section (or one line saying this collector does not measure it). */
void sched_idle_text(FILE *f, const struct sched_results *r);
/* "idle_passed_over_detail": by class, closest idle CPU, the rule (null when not measured). */
void sched_idle_json(struct json *j, const struct sched_results *r);

#endif
