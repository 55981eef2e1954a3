/* pd_consume.c - perf.data records to events, for replay: the file's layout stays here. */
#include "pd_consume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "../common/util.h"
#include "tracing_data.h"

/* MMAP: pid tid addr len pgoff name; MMAP2 adds 32 bytes (dev, inode or build id, prot, flags). */
#define MMAP_NAME_OFF 40
#define MMAP2_NAME_OFF 72
#define LOST_COUNT_OFF 16	/* header, id, lost */
#define COMM_NAME_OFF 16	/* header, pid, tid, then the name (NUL-padded to 8 bytes) */

/* Tracepoint formats from the file: needed before the first sched sample. */
static int setup_decoder(struct pd_reader *rd, const struct pd_file *f, char *err, size_t len)
{
	char why[320];

	if (rd->decoder)
		return 0;
	if (!f->tracing_data && f->copy_cut) {
		snprintf(err, len, "no tracepoint formats: the file is cut short (%llu of the "
			 "%llu data bytes its header says) and the features written after its "
			 "data are gone (copy the whole file)",
			 (unsigned long long)(f->end - f->data_off),
			 (unsigned long long)f->copy_data_size);
		return -1;
	}
	if (!f->tracing_data && f->cut_short && !f->pipe) {
		snprintf(err, len, "no tracepoint formats in the file: perf record was stopped "
			 "before writing them (its header's data size is still 0) (record with "
			 "locus record: its files hold them from the first write)");
		return -1;
	}
	if (!f->tracing_data) {
		snprintf(err, len, "no tracepoint formats (TRACING_DATA) in the file");
		return -1;
	}
	rd->tep = tracing_data_parse_ksyms(f->tracing_data, f->tracing_len, &rd->ksyms,
					   &rd->ksyms_len, why, sizeof(why));
	if (!rd->tep) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	if (tp_decoder_init(&rd->dec, rd->tep, why, sizeof(why)) < 0) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	rd->decoder = true;
	return 0;
}

static void mem_event(const struct pd_sample *s, struct event *e)
{
	e->type = EV_MEM;
	e->mem.ip = s->ip;
	e->mem.addr = s->present & PERF_SAMPLE_ADDR ? s->addr : 0;
	e->mem.phys_addr = s->phys_addr;
	e->mem.data_src = s->data_src;
	e->mem.weight = s->weight & 0xffffffff; /* WEIGHT_STRUCT: the low word is the latency */
}

/* A waking's (the waker's) or a switch's (prev's) callchain, interned: the event's stack id. */
static void add_stack(struct pd_reader *rd, const struct pd_sample *s, struct event *e)
{
	uint32_t id;

	if (e->type != EV_WAKING && e->type != EV_SWITCH)
		return;
	rd->callchains++;
	id = stack_intern(&rd->stacks, (int32_t)s->pid, s->callchain, s->callchain_nr);
	if (e->type == EV_WAKING)
		e->wake.stack = id;
	else
		e->sw.stack = id;
}

static int on_sample(struct pd_reader *rd, struct pd_file *f, const struct pd_record *rec,
		     const struct pd_consumer *c, char *err, size_t len)
{
	struct pd_sample s;
	struct event e;
	int r;

	if (pd_parse_sample(f, rec, &s) < 0) {
		snprintf(err, len, "%s", f->err);
		return -1;
	}
	rd->samples++;
	if (s.present & PERF_SAMPLE_TIME && s.time) {
		if (!rd->first_ns || s.time < rd->first_ns)
			rd->first_ns = s.time;
		if (s.time > rd->last_ns)
			rd->last_ns = s.time;
	}
	memset(&e, 0, sizeof(e));
	if (s.present & PERF_SAMPLE_DATA_SRC) {
		mem_event(&s, &e);
		rd->mem_samples++;
	} else {
		if (s.attr->attr.type != PERF_TYPE_TRACEPOINT || !s.raw)
			return 0;
		if (setup_decoder(rd, f, err, len) < 0)
			return -1;
		r = tp_decode(&rd->dec, s.raw, s.raw_size, &e);
		if (r > 0) {
			rd->other_tracepoints++;
			return 0;
		}
		if (r < 0) {
			rd->undecodable++; /* counted and reported; the rest of the file is still read */
			return 0;
		}
		if (EV_IRQ_TYPES >> e.type & 1) { /* not sched: only blame reads them */
			rd->other_tracepoints++;
			rd->irq_samples++;
		} else {
			rd->sched_samples++;
		}
		if (s.callchain_nr)
			add_stack(rd, &s, &e);
	}
	e.time_ns = s.time;
	e.cpu = (int32_t)s.cpu;
	e.pid = (int32_t)s.pid;
	e.tid = (int32_t)s.tid;
	c->event(c->ctx, &e);
	return 0;
}

static void on_map(const struct pd_record *rec, const struct pd_consumer *c)
{
	size_t name_off = rec->type == PERF_RECORD_MMAP2 ? MMAP2_NAME_OFF : MMAP_NAME_OFF;
	uint32_t pid;
	uint64_t v[3];
	char name[4096];
	size_t n;

	if (rec->size <= name_off)
		return;
	memcpy(&pid, rec->data + 8, 4);
	memcpy(v, rec->data + 16, 24);
	n = strnlen((const char *)rec->data + name_off, rec->size - name_off);
	if (n >= sizeof(name))
		return;
	memcpy(name, rec->data + name_off, n);
	name[n] = '\0';
	c->map(c->ctx, pid, v[0], v[1], v[2], name);
}

/*
 * The time and CPU that sample_id_all ends a non-sample record with (perf gives every
 * attribute the same trailer; with IDENTIFIER, its last word names the attribute): false
 * when there is none, or it would reach into the first body bytes of the record.
 */
static bool trailer(const struct pd_file *f, const struct pd_record *rec, size_t body,
		    uint64_t *time, int32_t *cpu)
{
	const struct perf_event_attr *a;
	uint64_t st;
	size_t end = rec->size, skip;

	if (!f->nattrs)
		return false;
	a = &f->attrs[0].attr;
	st = a->sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		uint64_t id;
		uint32_t *idx;

		if (end < body + 8)
			return false;
		memcpy(&id, rec->data + end - 8, 8);
		idx = u64map_get(&f->ids, id);
		if (idx)
			a = &f->attrs[*idx].attr;
		st = a->sample_type;
		end -= 8;
	}
	if (!a->sample_id_all || !(st & PERF_SAMPLE_TIME))
		return false;
	*cpu = -1;
	if (st & PERF_SAMPLE_CPU) {
		uint32_t c;

		if (end < body + 8)
			return false;
		end -= 8;
		memcpy(&c, rec->data + end, 4);
		*cpu = c > INT32_MAX ? -1 : (int32_t)c;
	}
	skip = 8 * (size_t)(!!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID) + 1);
	if (end < body + skip + 8 * !!(st & PERF_SAMPLE_TID))
		return false;
	end -= skip;
	memcpy(time, rec->data + end, 8);
	return true;
}

/*
 * PERF_RECORD_COMM: a task named at exec (the exec flag), renamed, or (time 0) named
 * when the recording began, as EV_COMM. Left out without a time: it could not be put
 * in order with the samples.
 */
static void on_comm(const struct pd_file *f, const struct pd_record *rec,
		    const struct pd_consumer *c)
{
	struct event e = { .type = EV_COMM };
	uint32_t ids[2];
	size_t n;

	if (rec->size < COMM_NAME_OFF + 8 || !trailer(f, rec, COMM_NAME_OFF + 8, &e.time_ns, &e.cpu))
		return;
	memcpy(ids, rec->data + 8, sizeof(ids));
	e.pid = (int32_t)ids[0];
	e.tid = (int32_t)ids[1];
	n = strnlen((const char *)rec->data + COMM_NAME_OFF, rec->size - COMM_NAME_OFF);
	if (n >= TASK_COMM_LEN)
		n = TASK_COMM_LEN - 1;
	memcpy(e.comm.comm, rec->data + COMM_NAME_OFF, n);
	e.comm.exec = !!(rec->misc & PERF_RECORD_MISC_COMM_EXEC);
	c->event(c->ctx, &e);
}

/* locus record's affinity record (perfdata.h) as EV_AFFINITY; malformed ones are skipped. */
static void on_affinity(struct pd_reader *rd, const struct pd_record *rec,
			const struct pd_consumer *c)
{
	const uint8_t *b = rec->data + 8;
	struct event e = { .type = EV_AFFINITY, .cpu = 0 }; /* no CPU: the reorder's first */
	uint32_t ver, nwords, flags;
	uint64_t *m;

	memcpy(&ver, b + 16, 4);
	memcpy(&nwords, b + 20, 4);
	memcpy(&e.time_ns, b + 24, 8);
	memcpy(&e.aff.pid, b + 32, 4);
	memcpy(&flags, b + 36, 4);
	if (ver != 1 || nwords == 0 || nwords > PD_AFFINITY_MAX_WORDS ||
	    (!(flags & PD_AFFINITY_GONE) &&
	     (size_t)rec->size < 8 + PD_AFFINITY_HEAD + (size_t)nwords * 8)) {
		rd->undecodable++;
		return;
	}
	rd->affinity_records++;
	e.aff.nwords = (int32_t)nwords;
	if (!(flags & PD_AFFINITY_GONE)) {
		m = xmalloc((size_t)nwords * 8);
		memcpy(m, b + PD_AFFINITY_HEAD, (size_t)nwords * 8);
		if (rd->naff == rd->cap_aff) {
			rd->cap_aff = rd->cap_aff ? 2 * rd->cap_aff : 256;
			rd->aff_masks = xrealloc(rd->aff_masks, (size_t)rd->cap_aff * sizeof(*m));
		}
		rd->aff_masks[rd->naff++] = m;
		e.aff.mask = m;
	}
	c->event(c->ctx, &e);
}

_Static_assert(PD_REC_SCHEDSTAT_CPU == SS_REC_CPU && PD_REC_SCHEDSTAT_DOMAIN == SS_REC_DOMAIN,
	       "one numbering of the SCHEDSTAT records");

int pd_consume(struct pd_reader *rd, struct pd_file *f, const struct pd_consumer *c, char *err,
	       size_t len)
{
	struct pd_record rec;
	int r;

	while ((r = pd_next(f, &rec)) > 0) {
		if (rd->progress && (f->records & 0xffff) == 0)
			rd->progress(f, rd->progress_ctx);
		if (rec.type == PERF_RECORD_SAMPLE) {
			if (on_sample(rd, f, &rec, c, err, len) < 0)
				return -1;
		} else if (rec.type == PERF_RECORD_LOST && rec.size >= LOST_COUNT_OFF + 8) {
			struct event e = { .type = EV_LOST };

			memcpy(&e.lost.lost, rec.data + LOST_COUNT_OFF, 8);
			c->event(c->ctx, &e);
		} else if (rec.type == PERF_RECORD_COMM) {
			on_comm(f, &rec, c);
		} else if (rec.type == PD_REC_FINISHED_ROUND) {
			c->round(c->ctx);
		} else if (rec.type == PERF_RECORD_MMAP || rec.type == PERF_RECORD_MMAP2) {
			on_map(&rec, c);
		} else if (rec.type == PERF_RECORD_FORK && c->fork && rec.size >= 8 + 8) {
			uint32_t ids[2]; /* pid, ppid */

			memcpy(ids, rec.data + 8, sizeof(ids));
			if (ids[0] != ids[1]) /* a thread shares its process's mappings */
				c->fork(c->ctx, ids[0], ids[1]);
		} else if (pd_is_affinity(&rec)) {
			on_affinity(rd, &rec, c);
		} else if (rec.type == PD_REC_SCHEDSTAT_CPU || rec.type == PD_REC_SCHEDSTAT_DOMAIN) {
			ss_records_add(&rd->ss, rec.data, rec.size);
		}
	}
	if (r < 0) {
		snprintf(err, len, "%s", f->err);
		return -1;
	}
	return 0;
}

bool pd_reader_waking(const struct pd_reader *rd)
{
	return rd->decoder && rd->dec.fmt[EV_WAKING].id >= 0;
}

bool pd_reader_migrate(const struct pd_reader *rd)
{
	return rd->decoder && rd->dec.fmt[EV_MIGRATE].id >= 0;
}

void pd_reader_release(struct pd_reader *rd)
{
	if (rd->tep)
		tep_free(rd->tep);
	ss_records_release(&rd->ss);
	stack_table_release(&rd->stacks);
	for (int i = 0; i < rd->naff; i++)
		free(rd->aff_masks[i]);
	free(rd->aff_masks);
	memset(rd, 0, sizeof(*rd));
}
