/*
 * sample.h - the one decoder of PERF_RECORD_SAMPLE bodies, driven by the
 * attribute's sample_type in the order the kernel writes the fields
 * (perf_output_sample in kernel/events/core.c). The live stream, the memory
 * sampler and the perf.data reader all decode through it. See docs/decoding.md.
 */
#ifndef LOCUS_SAMPLE_H
#define LOCUS_SAMPLE_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pd_attr;

/* The fixed-size words every sample of an attribute starts with, IDENTIFIER to PERIOD. */
enum sample_word { SW_ID, SW_IP, SW_TID, SW_TIME, SW_ADDR, SW_CPU, SW_PERIOD, SW_NR };

/*
 * What the decoder needs of an attribute, worked out once when the event is
 * opened or its attribute read (sample_layout_of), so that decoding a sample
 * is a length check and loads at known offsets up to the first field of
 * variable size.
 */
struct sample_layout {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t regs_user, regs_intr;	/* sample_regs_user, sample_regs_intr */
	uint32_t head;			/* bytes of the fixed words (IDENTIFIER .. PERIOD) */
	uint32_t off[SW_NR];		/* each word's offset in the body (0 when absent) */
	uint64_t mask[SW_NR];		/* and all ones when present, 0 when absent */
};

/* The fields of a PERF_RECORD_SAMPLE that locus uses; absent ones are 0. */
struct pd_sample {
	const struct pd_attr *attr;	/* the perf.data reader's: the attribute (else NULL) */
	uint64_t sample_type;
	uint64_t ip, addr, id, period, time, weight, data_src, phys_addr, transaction;
	uint32_t pid, tid, cpu;
	const uint8_t *raw;
	uint32_t raw_size;
	uint32_t callchain_nr;		/* CALLCHAIN: its entries (PERF_CONTEXT_* markers among
					 * them), leaf first, pointing into the record */
	const uint8_t *callchain;	/* read them with sample_callchain_ip */
	uint64_t present;		/* the sample_type bits that were in the record */
};

void sample_layout_of(struct sample_layout *l, const struct perf_event_attr *a);
#define SAMPLE_TAIL                                                                            \
	(PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |            \
	 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |                \
	 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR)

/* The most entries a callchain may have (the kernel's sysctl perf_event_max_stack is at most
 * this, plus its context markers); a longer one is a malformed record. */
#define SAMPLE_CALLCHAIN_MAX 65536

/* Entry i (< callchain_nr) of s's callchain (the record may not be 8-byte aligned). */
static inline uint64_t sample_callchain_ip(const struct pd_sample *s, uint32_t i)
{
	uint64_t ip;

	memcpy(&ip, s->callchain + (size_t)i * 8, 8);
	return ip;
}

/*
 * sample_decode's out-of-line parts: every field after the fixed words (READ
 * on) from p to end, and the tail (BRANCH_STACK on) after RAW.
 */
int sample_decode_rest(const struct sample_layout *l, const uint8_t *p, const uint8_t *end,
		       struct pd_sample *s);
int sample_decode_tail(const struct sample_layout *l, const uint8_t *p, const uint8_t *end,
		       struct pd_sample *s);

/* RAW at p: its u32 size, then the bytes. Returns where the next field starts, NULL if short. */
static inline const uint8_t *sample_raw(const uint8_t *p, const uint8_t *end, struct pd_sample *s)
{
	uint32_t n;

	if (end - p < 4)
		return NULL;
	memcpy(&n, p, 4);
	p += 4;
	if ((uint64_t)(end - p) < n)
		return NULL;
	s->raw = p;
	s->raw_size = n;
	return p + n;
}

/* A fixed word, without a branch: an absent one reads word 0 and masks it out. */
static inline uint64_t sample_word(const struct sample_layout *l, const uint8_t *p,
				   enum sample_word w)
{
	uint64_t v;

	memcpy(&v, p + l->off[w], 8);
	return v & l->mask[w];
}

/*
 * Decode a sample record's body (the bytes after its perf_event_header, len of
 * them) into s. Every field is bounds-checked; no allocation. Returns 0, or -1
 * when the body is too short for its fields. Inline: the fixed words are loads
 * at the layout's offsets; the rest (RAW, the tail) is sample_decode_rest.
 */
static inline int sample_decode(const struct sample_layout *l, const void *body, size_t len,
				struct pd_sample *s)
{
	static const uint64_t zero;
	const uint8_t *p = (const uint8_t *)body;
	uint64_t st = l->sample_type, v;

	if (len < l->head)
		return -1;
	s->raw = NULL;
	s->raw_size = 0;
	s->callchain = NULL;
	s->callchain_nr = 0;
	s->weight = s->data_src = s->transaction = s->phys_addr = 0;
	if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN)) {
		struct pd_sample var; /* its own: s's address stays here, so a caller's unread
				     * fields can be left unstored by the compiler */

		if (sample_decode_rest(l, p + l->head, p + len, &var) < 0)
			return -1;
		s->raw = var.raw;
		s->raw_size = var.raw_size;
		s->callchain = var.callchain;
		s->callchain_nr = var.callchain_nr;
		s->weight = var.weight;
		s->data_src = var.data_src;
		s->transaction = var.transaction;
		s->phys_addr = var.phys_addr;
	} else if (st & (PERF_SAMPLE_RAW | SAMPLE_TAIL)) {
		const uint8_t *q = p + l->head;

		if ((st & PERF_SAMPLE_RAW) && !(q = sample_raw(q, p + len, s)))
			return -1;
		if (st & SAMPLE_TAIL) {
			struct pd_sample var;

			var.weight = var.data_src = var.transaction = var.phys_addr = 0;
			if (sample_decode_tail(l, q, p + len, &var) < 0)
				return -1;
			s->weight = var.weight;
			s->data_src = var.data_src;
			s->transaction = var.transaction;
			s->phys_addr = var.phys_addr;
		}
	}
	if (!l->head) /* no fixed word to read one from */
		p = (const uint8_t *)&zero;
	s->attr = NULL;
	s->sample_type = st;
	s->id = sample_word(l, p, SW_ID);
	s->ip = sample_word(l, p, SW_IP);
	v = sample_word(l, p, SW_TID);
	s->pid = (uint32_t)v;
	s->tid = (uint32_t)(v >> 32);
	s->time = sample_word(l, p, SW_TIME);
	s->addr = sample_word(l, p, SW_ADDR);
	s->cpu = (uint32_t)sample_word(l, p, SW_CPU);
	s->period = sample_word(l, p, SW_PERIOD);
	s->present = st;
	return 0;
}

/*
 * The event id of a sample of sample_type st (IDENTIFIER, or ID after the
 * fields perf requires to agree): 1 found, 0 the samples carry none, -1 short.
 */
int sample_id(uint64_t st, const void *body, size_t len, uint64_t *id);
/*
 * The event id of a record of attributes with PERF_SAMPLE_IDENTIFIER: a
 * sample's first word, any other record's last (sample_id_all). -1 when the
 * record is too short to hold one.
 */
int sample_record_id(uint32_t type, const void *body, size_t len, uint64_t *id);
/* Replace that id (a recording gives each event the file's id): 0, or -1 when too short. */
int sample_record_set_id(uint32_t type, void *body, size_t len, uint64_t id);

#endif
