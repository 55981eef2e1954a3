/* replay.h - replay a perf.data file through the decoder, the reorder window and the analyzer. */
#ifndef LOCUS_REPLAY_H
#define LOCUS_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "../analyzers/cacheline.h"
#include "../analyzers/reorder.h"
#include "../analyzers/wakeup.h"
#include "../collectors/perfdata.h"
#include "../collectors/symbols.h"
#include "../collectors/topology.h"
#include "../collectors/tp_decode.h"

struct replay_opts {
	const char *path;	/* "-" for standard input */
	const char *sysfs_root;	/* topology when the file carries none (NULL: this machine) */
	int32_t pid;		/* follow this task tree only; 0: every task */
	unsigned line_size;	/* cacheline size for memory samples (64 or 128) */
	enum cl_sort sort;	/* rank lines by local, remote or total HITM */
	void (*progress)(const struct pd_file *f, void *ctx); /* called every 64k records */
	void *progress_ctx;
};

struct replay {
	struct pd_file f;
	struct tep_handle *tep;
	struct tp_decoder dec;
	bool decoder;
	struct reorder ro;
	struct wakeup an;
	bool analyzer;
	struct topology topo;
	char topo_note[400];		/* where the topology came from */
	uint64_t samples, sched_samples, other_tracepoints, undecodable;
	struct cacheline cl;		/* memory samples (perf c2c / mem record, locus) */
	struct symbols syms;		/* the file's MMAP and MMAP2 records */
	uint64_t mem_samples;
	const struct replay_opts *o;
};

/*
 * Open the file and choose the topology. Returns 0, or -1 with the reason in
 * err ("<what is wrong> at offset N" for a malformed file).
 */
int replay_open(struct replay *rp, const struct replay_opts *o, char *err, size_t len);
/* Read every record and finish the analysis. Returns 0, or -1 with the reason in err. */
int replay_run(struct replay *rp, char *err, size_t len);
void replay_release(struct replay *rp);

#endif
