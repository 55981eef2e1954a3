/* tp_decode.c - sched tracepoint decoding: fields found by name, never at fixed offsets. */
#include "tp_decode.h"

#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "../common/util.h"

/* Field names per event type, in the order tp_decode reads them. */
static const char *const fields[EV_TYPE_NR][8] = {
	[EV_WAKING] = { "pid", "prio", "target_cpu", "comm" },
	[EV_WAKEUP] = { "pid", "prio", "target_cpu", "comm" },
	[EV_WAKEUP_NEW] = { "pid", "prio", "target_cpu", "comm" },
	[EV_SWITCH] = { "prev_pid", "prev_prio", "prev_state", "prev_comm", "next_pid",
			"next_prio", "next_comm" },
	[EV_MIGRATE] = { "pid", "orig_cpu", "dest_cpu" },
	[EV_FORK] = { "parent_pid", "child_pid", "child_comm" },
	[EV_EXIT] = { "pid" },
	[EV_IPI] = { "cpu", "callback" },
	[EV_WAKE_IDLE] = { "cpu" },
	[EV_IRQ_ENTRY] = { "irq", "name" },
	[EV_IRQ_EXIT] = { "irq" },
	[EV_SOFTIRQ_ENTRY] = { "vec" },
	[EV_SOFTIRQ_EXIT] = { "vec" },
	[EV_SETAFFINITY] = { "pid" },
	[EV_SETAFFINITY_RET] = { "ret" },
};

/* A format's field as the decoder reads it: true, or false when there is none. */
static bool field_of(const struct tep_format_field *f, struct tp_field *out)
{
	if (!f)
		return false;
	*out = (struct tp_field){ f->offset, f->size, f->flags };
	return true;
}

int tp_decoder_init(struct tp_decoder *d, struct tep_handle *tep, char *err, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->tep = tep;
	d->swap = tep_is_file_bigendian(tep) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	for (int t = 0; t < EV_TYPE_NR; t++) {
		struct tep_event *ev = event_type_name(t) ?
						tep_find_event_by_name(tep, event_type_system(t),
								       event_type_name(t)) : NULL;

		d->fmt[t].id = -1;
		if (!ev)
			continue;
		if (!d->have_common)
			d->have_common = field_of(tep_find_common_field(ev, "common_type"),
						  &d->common_type);
		for (int i = 0; i < 8 && fields[t][i]; i++) {
			if (field_of(tep_find_field(ev, fields[t][i]), &d->fmt[t].f[i]))
				continue;
			if (t == EV_IPI || t == EV_WAKE_IDLE ||
			    ((EV_IRQ_TYPES | EV_SYSCALL_TYPES) >> t & 1)) {
				/* optional: left out */
				memset(d->fmt[t].f, 0, sizeof(d->fmt[t].f));
				ev = NULL;
				break;
			}
			snprintf(err, len, "tracepoint sched:%s has no field '%s' in this kernel's "
				 "format", event_type_name(t), fields[t][i]);
			return -1;
		}
		if (!ev)
			continue;
		d->fmt[t].id = ev->id;
	}
	if (!d->have_common) {
		snprintf(err, len, "no sched tracepoint formats found");
		return -1;
	}
	return 0;
}

int tp_decoder_require(const struct tp_decoder *d, char *err, size_t len)
{
	if (d->fmt[EV_SWITCH].id < 0) {
		snprintf(err, len, "this kernel has no sched:sched_switch tracepoint");
		return -1;
	}
	if (d->fmt[EV_WAKING].id < 0 && d->fmt[EV_WAKEUP].id < 0) {
		snprintf(err, len, "this kernel has neither sched:sched_waking nor sched:sched_wakeup");
		return -1;
	}
	return 0;
}

int tp_decoder_require_irq(const struct tp_decoder *d, char *err, size_t len)
{
	for (int t = 0; t < EV_TYPE_NR; t++)
		if ((EV_IRQ_TYPES >> t & 1) && d->fmt[t].id < 0) {
			snprintf(err, len, "this kernel has no irq:%s tracepoint (who delayed the "
				 "wakee needs irq_handler_entry/exit and softirq_entry/exit)",
				 event_type_name(t));
			return -1;
		}
	return 0;
}

static int num(const struct tp_decoder *d, const struct tp_field *f, const uint8_t *raw,
	       uint32_t size, int64_t *out)
{
	unsigned long long v;

	if (f->offset < 0 || f->size <= 0 || f->size > 8 || (uint32_t)(f->offset + f->size) > size)
		return -1;
	if (d->swap) {
		v = tep_read_number(d->tep, raw + f->offset, f->size);
	} else {
		/* the hot path: native byte order, read in place */
		switch (f->size) {
		case 1:
			v = raw[f->offset];
			break;
		case 2: {
			uint16_t x;

			memcpy(&x, raw + f->offset, 2);
			v = x;
			break;
		}
		case 4: {
			uint32_t x;

			memcpy(&x, raw + f->offset, 4);
			v = x;
			break;
		}
		case 8:
			memcpy(&v, raw + f->offset, 8);
			break;
		default:
			v = tep_read_number(d->tep, raw + f->offset, f->size);
		}
	}
	/* sign-extend signed fields narrower than 64 bits */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
		v |= ~0ull << (f->size * 8);
	*out = (int64_t)v;
	return 0;
}

static int str_n(const struct tp_decoder *d, const struct tp_field *f, const uint8_t *raw,
		 uint32_t size, char *out, uint32_t cap)
{
	uint32_t off = (uint32_t)f->offset, n = (uint32_t)f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		int64_t loc;

		if (num(d, f, raw, size, &loc) < 0)
			return -1;
		off = (uint32_t)loc & 0xffff;
		n = ((uint32_t)loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint32_t)(f->offset + f->size);
	}
	if (off > size || n > size - off)
		return -1;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, raw + off, n);
	memset(out + n, 0, cap - n); /* comm[16] may lack its NUL */
	return 0;
}

/* A comm field. */
static int str(const struct tp_decoder *d, const struct tp_field *f, const uint8_t *raw,
	       uint32_t size, char out[TASK_COMM_LEN])
{
	return str_n(d, f, raw, size, out, TASK_COMM_LEN);
}

int tp_decode(const struct tp_decoder *d, const void *raw_v, uint32_t size, struct event *e)
{
	const uint8_t *raw = raw_v;
	const struct tp_field *f;
	int64_t type, v[4];
	int t;

	if (num(d, &d->common_type, raw, size, &type) < 0)
		return -1;
	for (t = 0; t < EV_TYPE_NR; t++)
		if (d->fmt[t].id >= 0 && d->fmt[t].id == type)
			break;
	if (t == EV_TYPE_NR)
		return 1; /* another tracepoint */
	e->type = (uint16_t)t;
	f = d->fmt[t].f;
	switch (t) {
	case EV_WAKING:
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
		if (num(d, &f[0], raw, size, &v[0]) || num(d, &f[1], raw, size, &v[1]) ||
		    num(d, &f[2], raw, size, &v[2]) || str(d, &f[3], raw, size, e->wake.comm))
			return -1;
		e->wake.pid = (int32_t)v[0];
		e->wake.prio = (int32_t)v[1];
		e->wake.target_cpu = (int32_t)v[2];
		return 0;
	case EV_SWITCH:
		if (num(d, &f[0], raw, size, &v[0]) || num(d, &f[1], raw, size, &v[1]) ||
		    num(d, &f[2], raw, size, &e->sw.prev_state) ||
		    str(d, &f[3], raw, size, e->sw.prev_comm) || num(d, &f[4], raw, size, &v[2]) ||
		    num(d, &f[5], raw, size, &v[3]) || str(d, &f[6], raw, size, e->sw.next_comm))
			return -1;
		e->sw.prev_pid = (int32_t)v[0];
		e->sw.prev_prio = (int16_t)v[1];
		e->sw.next_pid = (int32_t)v[2];
		e->sw.next_prio = (int16_t)v[3];
		return 0;
	case EV_MIGRATE:
		if (num(d, &f[0], raw, size, &v[0]) || num(d, &f[1], raw, size, &v[1]) ||
		    num(d, &f[2], raw, size, &v[2]))
			return -1;
		e->mig.pid = (int32_t)v[0];
		e->mig.orig_cpu = (int32_t)v[1];
		e->mig.dest_cpu = (int32_t)v[2];
		return 0;
	case EV_FORK:
		if (num(d, &f[0], raw, size, &v[0]) || num(d, &f[1], raw, size, &v[1]) ||
		    str(d, &f[2], raw, size, e->fork.child_comm))
			return -1;
		e->fork.parent_pid = (int32_t)v[0];
		e->fork.child_pid = (int32_t)v[1];
		return 0;
	case EV_EXIT:
		if (num(d, &f[0], raw, size, &v[0]))
			return -1;
		e->exit.pid = (int32_t)v[0];
		return 0;
	case EV_IPI:
	case EV_WAKE_IDLE: /* both name the CPU the wakeup went to */
		if (num(d, &f[0], raw, size, &v[0]) ||
		    (t == EV_IPI && num(d, &f[1], raw, size, &v[1])))
			return -1;
		e->ipi.cpu = (int32_t)v[0];
		e->ipi.callback = t == EV_IPI ? (uint64_t)v[1] : 0;
		return 0;
	case EV_IRQ_ENTRY:
	case EV_IRQ_EXIT:
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
		if (num(d, &f[0], raw, size, &v[0]) ||
		    (t == EV_IRQ_ENTRY && str_n(d, &f[1], raw, size, e->irq.name, IRQ_NAME_LEN)))
			return -1;
		e->irq.num = (int32_t)v[0];
		if (t != EV_IRQ_ENTRY)
			e->irq.name[0] = '\0';
		return 0;
	case EV_SETAFFINITY:
	case EV_SETAFFINITY_RET:
		if (num(d, &f[0], raw, size, &v[0]))
			return -1;
		if (t == EV_SETAFFINITY)
			e->aff.pid = (int32_t)v[0];
		else
			e->aff.ret = v[0];
		return 0;
	}
	return -1;
}
