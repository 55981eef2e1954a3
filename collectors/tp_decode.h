/* tp_decode.h - decode sched tracepoint payloads (PERF_SAMPLE_RAW) with libtraceevent formats. */
#ifndef LOCUS_TP_DECODE_H
#define LOCUS_TP_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/event.h"

struct tep_handle;
struct tep_format_field;

/* Where a field is in a payload: a copy of its format's offset, size and flags, read at
 * every event (the formats' own structs are scattered through libtraceevent's heap). */
struct tp_field {
	int offset, size;
	unsigned long flags;		/* TEP_FIELD_IS_SIGNED, _DYNAMIC, _RELATIVE */
};

/* The fields of one tracepoint, resolved once from its format. */
struct tp_format {
	int id;				/* tracepoint id, -1 when the kernel lacks it */
	struct tp_field f[8];
};

struct tp_decoder {
	struct tep_handle *tep;		/* not owned */
	struct tp_field common_type;
	bool have_common;
	int swap;			/* payloads are in the other byte order */
	struct tp_format fmt[EV_TYPE_NR];
};

/*
 * Resolve every sched tracepoint's fields in tep. A tracepoint the formats
 * lack gets id -1 (a file may hold any subset). Returns 0, or -1 with a reason
 * when there is no sched format at all or one has fields this decoder does not
 * know.
 */
int tp_decoder_init(struct tp_decoder *d, struct tep_handle *tep, char *err, size_t len);
/* What a live collector needs: sched_switch, and sched_waking or sched_wakeup. 0, or -1 why. */
int tp_decoder_require(const struct tp_decoder *d, char *err, size_t len);

/* What who-delayed-the-wakee needs: the four irq tracepoints. 0, or -1 why. */
int tp_decoder_require_irq(const struct tp_decoder *d, char *err, size_t len);

/*
 * Decode a raw payload into e (time, cpu, pid, tid are the caller's). Returns
 * 0; 1 when it is another tracepoint; -1 when it is malformed (too short, a
 * field out of bounds).
 */
int tp_decode(const struct tp_decoder *d, const void *raw, uint32_t size, struct event *e);

#endif
