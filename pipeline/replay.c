/* replay.c - a perf.data file through the same analyzers as a live run. */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "../collectors/tracing_data.h"
#include "../common/util.h"

static void analyze(void *ctx, const struct event *e)
{
	wakeup_add(&((struct replay *)ctx)->an, e);
}

/* Tracepoint formats from the file: needed before the first sched sample. */
static int setup_decoder(struct replay *rp, char *err, size_t len)
{
	char why[320];

	if (rp->decoder)
		return 0;
	if (!rp->f.tracing_data) {
		snprintf(err, len, "no tracepoint formats (TRACING_DATA) in the file");
		return -1;
	}
	rp->tep = tracing_data_parse(rp->f.tracing_data, rp->f.tracing_len, why, sizeof(why));
	if (!rp->tep) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	if (tp_decoder_init(&rp->dec, rp->tep, why, sizeof(why)) < 0) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	rp->decoder = true;
	return 0;
}

/* The analyzer starts at the first sched sample: in pipe mode the formats come in the stream. */
static void setup_analyzer(struct replay *rp)
{
	struct wakeup_cfg wc = { 0 };

	wc.topo = &rp->topo;
	wc.system_wide = rp->o->pid == 0;
	wc.waking_source = rp->dec.fmt[EV_WAKING].id >= 0;
	wakeup_init(&rp->an, &wc);
	if (rp->o->pid)
		wakeup_track(&rp->an, rp->o->pid);
	rp->analyzer = true;
}

int replay_open(struct replay *rp, const struct replay_opts *o, char *err, size_t len)
{
	char why[320];

	struct cacheline_cfg cc;

	memset(rp, 0, sizeof(*rp));
	rp->o = o;
	reorder_init(&rp->ro);
	if (pd_open(&rp->f, o->path) < 0) {
		snprintf(err, len, "%s", rp->f.err);
		return -1;
	}
	if (pd_topology(&rp->f, &rp->topo) == 0) {
		snprintf(rp->topo_note, sizeof(rp->topo_note), "%s", rp->topo.source);
	} else if (topology_load(&rp->topo, o->sysfs_root, why, sizeof(why)) == 0) {
		snprintf(rp->topo_note, sizeof(rp->topo_note), "the file has none: %s's (%s)",
			 o->sysfs_root ? "--sysfs-root" : "this machine", rp->topo.source);
	} else {
		snprintf(err, len, "no topology in the file, and %s", why);
		return -1;
	}
	cc = (struct cacheline_cfg){ &rp->topo, o->line_size, o->sort };
	cacheline_init(&rp->cl, &cc);
	symbols_init(&rp->syms);
	return 0;
}

static int on_sample(struct replay *rp, const struct pd_record *rec, char *err, size_t len)
{
	struct pd_sample s;
	struct event e;
	int r;

	if (pd_parse_sample(&rp->f, rec, &s) < 0) {
		snprintf(err, len, "%s", rp->f.err);
		return -1;
	}
	rp->samples++;
	if (s.present & PERF_SAMPLE_DATA_SRC) {
		memset(&e, 0, sizeof(e));
		e.type = EV_MEM;
		e.time_ns = s.time;
		e.cpu = (int32_t)s.cpu;
		e.pid = (int32_t)s.pid;
		e.tid = (int32_t)s.tid;
		e.mem.ip = s.ip;
		e.mem.addr = s.present & PERF_SAMPLE_ADDR ? s.addr : 0;
		e.mem.phys_addr = s.phys_addr;
		e.mem.data_src = s.data_src;
		e.mem.weight = s.weight & 0xffffffff; /* WEIGHT_STRUCT: the low word is the latency */
		rp->mem_samples++;
		cacheline_add(&rp->cl, &e);
		return 0;
	}
	if (s.attr->attr.type != PERF_TYPE_TRACEPOINT || !s.raw)
		return 0;
	if (setup_decoder(rp, err, len) < 0)
		return -1;
	if (!rp->analyzer)
		setup_analyzer(rp);
	memset(&e, 0, sizeof(e));
	r = tp_decode(&rp->dec, s.raw, s.raw_size, &e);
	if (r > 0) {
		rp->other_tracepoints++;
		return 0;
	}
	if (r < 0) {
		rp->undecodable++; /* counted and reported; the rest of the file is still read */
		return 0;
	}
	e.time_ns = s.time;
	e.cpu = (int32_t)s.cpu;
	e.pid = (int32_t)s.pid;
	e.tid = (int32_t)s.tid;
	rp->sched_samples++;
	reorder_add(&rp->ro, &e, analyze, rp);
	return 0;
}

/* MMAP: pid tid addr len pgoff name; MMAP2 adds 32 bytes (dev, inode or build id, prot, flags). */
static void add_map(struct replay *rp, const struct pd_record *rec)
{
	size_t name_off = rec->type == PERF_RECORD_MMAP2 ? 72 : 40;
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
	symbols_add_map(&rp->syms, pid, v[0], v[1], v[2], name);
}

/* How a replay measures: every CPU the file has, delays exact, its drops. */
static void stamp(struct replay *rp, struct sched_results *r)
{
	struct provenance *p = &r->prov;

	memset(p, 0, sizeof(*p));
	p->source = PROV_REPLAY;
	snprintf(p->why, sizeof(p->why), "%s", rp->o->path);
	prov_set_cpus(p, &rp->topo, NULL, 0);
	p->scope = SCOPE_ALL;
	p->scope_pid = rp->o->pid;
	p->delay = DELAY_LOGLIN;
	/* a file's lost and undecodable records are counted whatever they held */
	p->unmeasured = SM_BIT(mem_lost) | SM_BIT(mem_undecodable);
	r->late = rp->ro.late;
	r->undecodable = rp->undecodable;
}

int replay_run(struct replay *rp, char *err, size_t len)
{
	struct pd_record rec;
	int r;

	while ((r = pd_next(&rp->f, &rec)) > 0) {
		if (rp->o->progress && (rp->f.records & 0xffff) == 0)
			rp->o->progress(&rp->f, rp->o->progress_ctx);
		if (rec.type == PERF_RECORD_SAMPLE) {
			if (on_sample(rp, &rec, err, len) < 0)
				return -1;
		} else if (rec.type == PERF_RECORD_LOST && rec.size >= 24 && rp->analyzer) {
			struct event e = { .type = EV_LOST };

			memcpy(&e.lost.lost, rec.data + 16, 8);
			analyze(rp, &e);
		} else if (rec.type == PD_REC_FINISHED_ROUND) {
			reorder_round(&rp->ro, analyze, rp);
		} else if (rec.type == PERF_RECORD_MMAP || rec.type == PERF_RECORD_MMAP2) {
			add_map(rp, &rec);
		}
	}
	if (r < 0) {
		snprintf(err, len, "%s", rp->f.err);
		return -1;
	}
	if (!rp->analyzer) {
		/* no sched samples: an empty analysis, so reports can say so */
		if (!rp->decoder)
			memset(&rp->dec, 0, sizeof(rp->dec));
		rp->dec.fmt[EV_WAKING].id = -1;
		setup_analyzer(rp);
	}
	reorder_flush(&rp->ro, analyze, rp);
	wakeup_finish(&rp->an);
	stamp(rp, wakeup_results(&rp->an));
	cacheline_finish(&rp->cl);
	return 0;
}

void replay_release(struct replay *rp)
{
	if (rp->analyzer)
		wakeup_release(&rp->an);
	reorder_release(&rp->ro);
	cacheline_release(&rp->cl);
	symbols_release(&rp->syms);
	topology_release(&rp->topo);
	if (rp->tep)
		tep_free(rp->tep);
	pd_close(&rp->f);
	memset(rp, 0, sizeof(*rp));
}
