/* sched_idle.h - idle CPUs passed over, and IPIs, in the scheduler reports. */
#ifndef LOCUS_SCHED_IDLE_H
#define LOCUS_SCHED_IDLE_H

#include <stdio.h>

#include "../model/sched_results.h"

struct json;

/* The rule the counts follow, in one line (depends on whether affinity was known). */
const char *sched_idle_rule(const struct sched_results *r);
/* What the idle wait of the wakeups passed over is, as r's source measures it. */
const char *sched_idle_wait_def(const struct sched_results *r);
/* The text section (or one line saying this collector does not measure it). */
void sched_idle_text(FILE *f, const struct sched_results *r);
/* "idle_passed_over_detail": by class, closest idle CPU, the rule (null when not measured). */
void sched_idle_json(struct json *j, const struct sched_results *r);
/* Remote wakeups that sent an IPI or woke a polling idle CPU, by class, and the other
 * IPIs by kind (text lines). */
void sched_ipi_text(FILE *f, const struct sched_results *r);
/* "other_ipis": {reschedule, function_call, rule} and "ipi_by_class": {smt:
 * {remote_wakeups, ipi_sent, polling_idle_no_ipi}, ...}, each null when not measured. */
void sched_ipi_json(struct json *j, const struct sched_results *r);

#endif
