/* capabilities.h - `locus doctor`'s probes: a check per capability, what it enables. */
#ifndef LOCUS_CAPABILITIES_H
#define LOCUS_CAPABILITIES_H

#include <stdbool.h>
#include <stddef.h>

enum status { ST_OK, ST_NO, ST_WARN };

struct check {
	enum status st;
	char what[40];		/* the capability */
	char enables[80];	/* what it gives locus */
	char detail[240];	/* what we found / how to get it */
};

#define CAPS_MAX 48

struct capabilities {
	struct check c[CAPS_MAX];
	int n;
	bool sw_ok;		/* software events open: locus can count */
	bool stream_ok;		/* the sched tracepoints open: the perf stream can trace */
	bool bpf_ok;		/* the BPF collector loads (loaded for real, then unloaded) */
};

/* Probe every capability, in the order doctor prints them. */
void capabilities_probe(struct capabilities *caps);
/* How run, top and record will trace the scheduler here, in one sentence (doctor's last). */
const char *capabilities_sched_story(const struct capabilities *c);
/*
 * Whether this machine can count the event name (`locus list`): "ok" with its encoding in
 * detail, "not supported" or "unknown" with the reason there.
 */
const char *capabilities_event(const char *name, char *detail, size_t len);
/* The i-th tracepoint locus reads ("sched:sched_switch", "irq:softirq_entry"), NULL past them. */
const char *capabilities_tracepoint(size_t i);

#endif
