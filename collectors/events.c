/* events.c - event name resolution through libpfm4 and tracefs. */
#include "events.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <perfmon/pfmlib_perf_event.h>

#include "../common/util.h"
#include "probe.h"

static bool pfm_ready;

static bool pfm_init_once(void)
{
	if (!pfm_ready)
		pfm_ready = pfm_initialize() == PFM_SUCCESS;
	return pfm_ready;
}

static int pfm_encode(const char *name, struct perf_event_attr *attr, char *fstr_out, size_t len)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int r;

	memset(&arg, 0, sizeof(arg));
	memset(attr, 0, sizeof(*attr));
	arg.attr = attr;
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	r = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (r == PFM_SUCCESS && fstr_out)
		snprintf(fstr_out, len, "%s", fstr ? fstr : name);
	free(fstr);
	return r;
}

/* Candidates in order; the first libpfm4 encodes for this CPU is the model's. */
static const char *const hitm_candidates[] = {
	"MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD",	    /* SPR, EMR, GNR, ADL P-core */
	"MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM",	    /* SKL .. ICX */
	"MEM_LOAD_UOPS_L3_HIT_RETIRED:XSNP_HITM",   /* HSW, BDW */
	"MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_HITM",  /* SNB, IVB */
	"ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR:FAR_CACHE_NEAR_FAR", /* Zen4 */
	"ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL:EXT_CACHE_RMT",		    /* Zen3 */
};

const char *event_hitm_name(char *why, size_t len)
{
	struct perf_event_attr attr;
	char model[200];

	if (!pfm_init_once()) {
		snprintf(why, len, "libpfm4 failed to initialise");
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(hitm_candidates); i++)
		if (pfm_encode(hitm_candidates[i], &attr, NULL, 0) == PFM_SUCCESS)
			return hitm_candidates[i];
	probe_cpu_model(model, sizeof(model));
	snprintf(why, len, "libpfm4 knows no HITM event for this CPU (%s)", model);
	return NULL;
}

static enum ev_kind kind_of(const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		return EV_SOFTWARE;
	case PERF_TYPE_TRACEPOINT:
		return EV_TRACEPOINT;
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return EV_HARDWARE;
	default:
		return EV_OTHER;
	}
}

/*
 * "sys:name" naming an existing tracepoint: fill attr and return 1; 0 if not
 * one; -1 when it has a tracepoint's shape but tracefs cannot be read here
 * (ev->reason says what would allow it).
 */
static int tracepoint_resolve(const char *name, struct event_desc *ev)
{
	const char *colon = strchr(name, ':');
	char sys[64], path[512], buf[32], why[200];
	const char *dir;
	long id;

	if (!colon || colon == name || strchr(colon + 1, ':') || (size_t)(colon - name) >= sizeof(sys))
		return 0;
	for (const char *p = name; *p; p++)
		if (*p == '/' || *p == '.')
			return 0;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	dir = probe_tracefs(why, sizeof(why));
	if (dir)
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, colon + 1);
	if (!dir || (access(path, F_OK) < 0 && errno == EACCES) ||
	    (access(path, F_OK) == 0 && access(path, R_OK) < 0)) {
		if (geteuid() == 0 && !dir)
			return 0;
		snprintf(ev->reason, sizeof(ev->reason), "tracepoints need root or CAP_PERFMON and a "
			 "readable tracefs (%s; or sysctl kernel.perf_event_paranoid=-1 and mount "
			 "tracefs with mode=755)", dir ? "tracefs is not readable by this user" : why);
		return -1;
	}
	if (read_text_file(path, buf, sizeof(buf)) < 0 || parse_long(buf, 0, 1L << 40, &id) < 0)
		return 0;
	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (unsigned long long)id;
	snprintf(ev->encoding, sizeof(ev->encoding), "tracepoint %s (id %ld)", name, id);
	return 1;
}

/* perf's own name for a generic event, so aliases ("cs") report as perf does. */
static void canonical_name(struct event_desc *ev)
{
	static const struct {
		unsigned int type;
		unsigned long long config;
		const char *name;
	} generic[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "cache-references" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache-misses" },
	};

	/* A modifier (":u") changes what is counted: keep the user's name then. */
	if (strchr(ev->name, ':'))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(generic); i++)
		if (ev->attr.type == generic[i].type && ev->attr.config == generic[i].config)
			snprintf(ev->name, sizeof(ev->name), "%s", generic[i].name);
}

int event_resolve(const char *name, struct event_desc *ev, char *err, size_t errlen)
{
	char why[200];
	const char *pfm_name = name;
	int r;

	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	if (strlen(name) >= sizeof(ev->name)) {
		snprintf(err, errlen, "event name '%.40s...' is too long", name);
		return -1;
	}
	r = tracepoint_resolve(name, ev);
	if (r) {
		ev->kind = EV_TRACEPOINT;
		ev->resolved = r > 0; /* else not supported here, with the reason */
		return 0;
	}
	if (!pfm_init_once()) {
		snprintf(err, errlen, "libpfm4 failed to initialise");
		return -1;
	}
	if (!strcmp(name, "hitm")) {
		pfm_name = event_hitm_name(why, sizeof(why));
		if (!pfm_name) {
			ev->kind = EV_HARDWARE;
			snprintf(ev->reason, sizeof(ev->reason), "%s", why);
			return 0;
		}
		snprintf(ev->name, sizeof(ev->name), "hitm");
	}
	r = pfm_encode(pfm_name, &ev->attr, ev->encoding, sizeof(ev->encoding));
	if (r != PFM_SUCCESS) {
		snprintf(err, errlen, "unknown event '%s': %s (use a libpfm4 or perf name, or "
			 "a tracepoint sys:name; see 'locus list')", name, pfm_strerror(r));
		return -1;
	}
	ev->kind = kind_of(&ev->attr);
	ev->resolved = true;
	canonical_name(ev);
	return 0;
}

static const char *const default_names[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults", "cycles",
	"instructions", "cache-references", "cache-misses", "LLC-load-misses", "hitm",
};

int event_default_set(struct event_desc **evs)
{
	struct event_desc *out = xcalloc(ARRAY_SIZE(default_names), sizeof(*out));
	char err[256], pmu[64];
	bool have_pmu = probe_core_pmu("", pmu, sizeof(pmu));
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(default_names); i++) {
		struct event_desc *ev = &out[n];

		if (event_resolve(default_names[i], ev, err, sizeof(err)) < 0) {
			/* A default libpfm4 cannot encode here: report, don't fail. */
			memset(ev, 0, sizeof(*ev));
			snprintf(ev->name, sizeof(ev->name), "%s", default_names[i]);
			ev->kind = EV_HARDWARE;
			snprintf(ev->reason, sizeof(ev->reason), "%s", err);
		}
		if (ev->kind == EV_HARDWARE && !have_pmu) {
			ev->resolved = false;
			snprintf(ev->reason, sizeof(ev->reason), "%s", probe_no_pmu_reason());
		}
		n++;
	}
	*evs = out;
	return n;
}

int event_resolve_list(const char *list, struct event_desc **evs, char *err, size_t errlen)
{
	char *names, *save = NULL;
	int cap = 8, n = 0;

	if (!list)
		return event_default_set(evs);
	*evs = xcalloc((size_t)cap, sizeof(**evs));
	names = xstrdup(list);
	for (char *tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == cap) {
			cap *= 2;
			*evs = xrealloc(*evs, (size_t)cap * sizeof(**evs));
		}
		if (event_resolve(tok, &(*evs)[n], err, errlen) < 0)
			goto fail;
		n++;
	}
	if (n == 0) {
		snprintf(err, errlen, "empty event list");
		goto fail;
	}
	free(names);
	return n;
fail:
	free(names);
	free(*evs);
	*evs = NULL;
	return -1;
}
