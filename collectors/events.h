/* events.h - turn event names (libpfm4, perf generic, tracepoints) into perf_event_attr. */
#ifndef LOCUS_EVENTS_H
#define LOCUS_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

enum ev_kind { EV_SOFTWARE, EV_HARDWARE, EV_TRACEPOINT, EV_OTHER };

struct event_desc {
	char name[96];	     /* the name the report prints */
	char encoding[192];  /* the fully qualified encoding (libpfm4 string, tracepoint) */
	struct perf_event_attr attr;
	enum ev_kind kind;
	bool resolved;	     /* false: not supported here, see reason */
	char reason[200];
};

/*
 * Resolve one event name: a tracepoint "sys:name", "hitm" (the HITM event
 * for this CPU model), or any name libpfm4 encodes (perf's generic names
 * included). An event this machine cannot encode comes back with resolved
 * false and a reason. Returns 0, or -1 when the name is unknown anywhere
 * (a usage error; err says why).
 */
int event_resolve(const char *name, struct event_desc *ev, char *err, size_t errlen);

/*
 * The default counting set: software events, then hardware events where the
 * machine allows. Returns the count; *evs is owned by the caller (free()).
 */
int event_default_set(struct event_desc **evs);

/*
 * A comma-separated list of names resolved as event_resolve does, or the default set
 * when list is NULL. Returns the count with *evs owned by the caller (free()), or -1
 * with err saying why (an unknown name, an empty list) and *evs NULL.
 */
int event_resolve_list(const char *list, struct event_desc **evs, char *err, size_t errlen);

/* The libpfm4 name of this CPU model's HITM (or cache-to-cache) event, or NULL. */
const char *event_hitm_name(char *why, size_t len);

#endif
