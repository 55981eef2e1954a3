/* sched_record.c - ring-buffer records to a perf.data file: samples get the file's ids. */
#include "sched_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "perfdata.h"
#include "procfs.h"
#include "symbols.h"
#include "tracing_data.h"

/* Other records end with sample_id_all's fields: pid/tid, time, cpu/res, IDENTIFIER last. */
#define TRAILER_SIZE 32

/* A task's affinity (EV_AFFINITY) into the file (a machine of over 65,536 CPUs goes
 * without: -E2BIG, not an error of the file). */
static void put_affinity(struct sched_record *r, const struct event *a)
{
	int err = pd_writer_affinity(&r->w, a->time_ns, a->aff.pid, a->aff.mask, a->aff.nwords);

	if (err && err != -E2BIG && !r->write_err)
		r->write_err = err;
}

void sched_record_affinity(struct sched_record *r, const struct event *a)
{
	put_affinity(r, a);
	r->pass_records++;
}

void sched_record_sched(struct sched_record *r, const struct sched_collector *s, const void *rec)
{
	const struct perf_event_header *h = rec;
	int err = 0;

	if (h->type == PERF_RECORD_SAMPLE) {
		uint8_t buf[65536];
		struct pd_sample smp;
		uint16_t tp;
		uint64_t id = 0;

		/* sched.c's layout (IDENTIFIER, TID, TIME, CPU, RAW): common_type leads RAW */
		if (sample_decode(&s->layout, h + 1, h->size - sizeof(*h), &smp) < 0 ||
		    smp.raw_size < 2)
			return;
		memcpy(&tp, smp.raw, 2);
		for (int i = 0; i < s->nopened; i++)
			if (s->attrs[i].config == tp)
				id = r->ev[i].id;
		memcpy(buf, rec, h->size);
		sample_record_set_id(h->type, buf + sizeof(*h), h->size - sizeof(*h), id);
		err = pd_writer_add(&r->w, buf, h->size);
	} else if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_COMM ||
		   h->type == PERF_RECORD_FORK || h->type == PERF_RECORD_EXIT ||
		   h->type == PERF_RECORD_MMAP2) {
		uint8_t buf[8192];

		if (h->size > sizeof(buf) || h->size < 8 + TRAILER_SIZE)
			return;
		/* the trailer's id is the kernel's: the file's is the switch event's (task
		 * records come from it; a lost count from any ring, all sampled alike) */
		memcpy(buf, rec, h->size);
		sample_record_set_id(h->type, buf + sizeof(*h), h->size - sizeof(*h), r->task_id);
		err = pd_writer_add(&r->w, buf, h->size);
	} else {
		return;
	}
	if (err && !r->write_err)
		r->write_err = err;
	r->pass_records++;
}

/* A COMM record for a task that was there before the recording: perf script names it too. */
static void synth_comm(void *ctx, pid_t pid, pid_t tid, const char *comm)
{
	struct sched_record *r = ctx;
	uint8_t rec[8 + 8 + 24 + TRAILER_SIZE] = { 0 };
	size_t n = strnlen(comm, 15) + 1, body = 16 + ((n + 7) & ~(size_t)7);
	size_t size = body + TRAILER_SIZE;
	struct perf_event_header h = { PERF_RECORD_COMM, 0, (uint16_t)size };
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)tid };
	int err;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, ids, sizeof(ids));
	memcpy(rec + 16, comm, n - 1);
	/* the trailer: this task, time 0 (before every sample), CPU 0, the switch event's id */
	memcpy(rec + body, ids, sizeof(ids));
	memcpy(rec + size - 8, &r->task_id, 8);
	err = pd_writer_add(&r->w, rec, size);
	if (err && !r->write_err)
		r->write_err = err;
}

/*
 * With callchains, the kernel's text as perf record maps it (PERF_RECORD_MMAP of pid -1,
 * "[kernel.kallsyms]_text" at _text, up to _etext): perf script then names kernel frames
 * (from this machine's kallsyms), and locus report knows the file's kernel lies there.
 */
static void synth_kernel_map(struct sched_record *r)
{
	static const char name[] = "[kernel.kallsyms]_text";
	uint8_t rec[8 + 32 + 24 + TRAILER_SIZE] = { 0 }; /* header, pid tid start len pgoff */
	size_t body = 8 + 32 + ((sizeof(name) + 7) & ~(size_t)7), size = body + TRAILER_SIZE;
	struct perf_event_header h = { PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, (uint16_t)size };
	uint32_t ids[2] = { UINT32_MAX, 0 };
	uint64_t v[3], text, etext;
	int err;

	if (symbols_kernel_range("/proc/kallsyms", &text, &etext) < 0)
		return; /* hidden (kptr_restrict): perf names none either */
	v[0] = text;
	v[1] = etext - text;
	v[2] = text;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, ids, sizeof(ids));
	memcpy(rec + 16, v, sizeof(v));
	memcpy(rec + 40, name, sizeof(name));
	memcpy(rec + body, ids, sizeof(ids)); /* the trailer: time 0, CPU 0, the switch's id */
	memcpy(rec + size - 8, &r->task_id, 8);
	err = pd_writer_add(&r->w, rec, size);
	if (err && !r->write_err)
		r->write_err = err;
}

void sched_record_mem(struct sched_record *r, const void *rec, int idx)
{
	const struct perf_event_header *h = rec;
	uint64_t id = r->mem_id + (uint64_t)(idx >= 0 && idx < r->nmem ? idx : 0);
	uint8_t buf[8192];
	int err;

	r->pass_records++; /* one of the rings' records: the pass ends with a round */
	if (!r->nmem || h->size > sizeof(buf) || h->size < 8 + 8)
		return;
	memcpy(buf, rec, h->size);
	/* samples lead with IDENTIFIER; other records end with it (sample_id_all) */
	sample_record_set_id(h->type, buf + sizeof(*h), h->size - sizeof(*h), id);
	err = pd_writer_add(&r->w, buf, h->size);
	if (err && !r->write_err)
		r->write_err = err;
	if (h->type == PERF_RECORD_SAMPLE)
		r->mem_samples++;
}

/* The tracepoint formats of what s opened, as perf's TRACING_DATA (NULL when unreadable). */
static uint8_t *formats(const struct sched_collector *s, size_t *len)
{
	const char *names[EV_TYPE_NR];
	char full[EV_TYPE_NR][80], err[256];
	uint8_t *td;

	for (int i = 0; i < s->nopened; i++) { /* "ipi/ipi_send_cpu" beside "sched_switch" */
		bool sched = !strcmp(event_type_system(s->opened[i]), "sched");

		snprintf(full[i], sizeof(full[i]), "%s%s%s",
			 sched ? "" : event_type_system(s->opened[i]), sched ? "" : "/",
			 event_type_name(s->opened[i]));
		names[i] = full[i];
	}
	/* with callchains, the kernel's symbols too, as perf record stores them: a file named
	 * on another machine or kernel names its kernel frames */
	td = tracing_data_build_ksyms(s->tracefs, names, s->nopened,
				      s->callchain ? "/proc/kallsyms" : NULL, len, err, sizeof(err));
	if (!td)
		locus_err("%s: the file will lack tracepoint formats", err);
	return td;
}

/*
 * The command line with what locus report follows: "... [added pids 10,11]" (-p beside the
 * command), then "... [workload pid 1234]", the tree it follows.
 */
static void header_line(char *line, size_t len, const struct sched_record_meta *m)
{
	snprintf(line, len, "%s", m->cmdline ? m->cmdline : "locus");
	for (int i = 0; i < m->nadded; i++)
		snprintf(line + strlen(line), len - strlen(line), "%s%d%s",
			 i ? "," : " " PD_ADDED_MARK, (int)m->added[i], i + 1 < m->nadded ? "" : "]");
	if (m->workload > 0)
		snprintf(line + strlen(line), len - strlen(line), " " PD_WORKLOAD_MARK "%d]",
			 (int)m->workload);
}

int sched_record_open(struct sched_record *r, const struct sched_collector *s,
		      const struct mem_plan *mem, const char *path,
		      const struct sched_record_meta *m, char *err, size_t len)
{
	char line[1400];
	struct pd_writer_meta meta = { NULL, 0, m->topo, line };
	int rc;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < s->nopened; i++) {
		snprintf(r->names[i], sizeof(r->names[i]), "%s:%s", event_type_system(s->opened[i]),
			 event_type_name(s->opened[i]));
		r->ev[i] = (struct pd_writer_event){ s->attrs[i], (uint64_t)i + 1, r->names[i] };
		if (s->opened[i] == EV_SWITCH)
			r->task_id = (uint64_t)i + 1;
	}
	r->mem_id = (uint64_t)s->nopened + 1;
	for (int i = 0; mem && i < mem->n; i++)
		r->ev[s->nopened + r->nmem++] = (struct pd_writer_event){
			mem->attr[i], r->mem_id + (uint64_t)i, mem->name[i] };
	header_line(line, sizeof(line), m);
	meta.tracing_data = formats(s, &meta.tracing_len);
	rc = pd_writer_open(&r->w, path, r->ev, s->nopened + r->nmem, &meta);
	free((void *)meta.tracing_data);
	if (rc < 0) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(-rc));
		return -1;
	}
	/* the kernel reports the comm of tasks that exec or fork from now on; the others' first */
	proc_each_task(synth_comm, r);
	if (s->callchain)
		synth_kernel_map(r);
	return 0;
}

void sched_record_round(struct sched_record *r)
{
	const struct perf_event_header round = { PD_REC_FINISHED_ROUND, 0, 8 };
	uint64_t n = r->pass_records;

	r->pass_records = 0;
	/* perf sorts each round's records; a round ends with every ring drained */
	if (n && !r->write_err)
		pd_writer_add(&r->w, &round, sizeof(round));
	/* the file holds every pass: a recording killed now keeps it */
	if (n && !r->write_err && pd_writer_sync(&r->w) < 0)
		r->write_err = -r->w.err;
}

int sched_record_add(struct sched_record *r, const uint8_t *recs, size_t len)
{
	for (size_t at = 0; at + 8 <= len;) {
		uint16_t size;
		int rc;

		memcpy(&size, recs + at + 6, 2);
		if (size < 8 || at + size > len)
			return -EINVAL;
		rc = pd_writer_add(&r->w, recs + at, size);
		if (rc < 0) {
			if (!r->write_err)
				r->write_err = rc;
			return rc;
		}
		at += size;
	}
	return 0;
}

int sched_record_finish(struct sched_record *r)
{
	int rc = pd_writer_finish(&r->w);

	if (rc < 0 && !r->write_err)
		r->write_err = rc;
	return r->write_err;
}
