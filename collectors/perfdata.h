/* perfdata.h - the perf.data format: file and pipe mode, read with every length checked. */
#ifndef LOCUS_PERFDATA_H
#define LOCUS_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/u64map.h"
#include "sample.h"

#define PD_MAGIC 0x32454c4946524550ULL /* "PERFILE2" */
#define PD_HEADER_SIZE 104
#define PD_PIPE_HEADER_SIZE 16
/* locus record's stream until its header is written: the first record's text */
#define PD_UNFINISHED_MARK "locus record: not finished (no file header yet)"

/* Feature bits (perf's header.h). */
enum pd_feature {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14,
	PD_FEAT_CACHE = 20,
	/* locus's own, which perf ignores ("unknown feature"): the end of the recording is
	 * missing (u32 version 1, u32 errno, u64 records kept, u64 records not written) */
	PD_FEAT_LOCUS_END = 255,
	PD_FEAT_BITS = 256
};

/* User record types perf adds to the kernel's. */
enum pd_user_record {
	PD_REC_HEADER_ATTR = 64,
	PD_REC_HEADER_EVENT_TYPE = 65,
	PD_REC_HEADER_TRACING_DATA = 66,
	PD_REC_HEADER_BUILD_ID = 67,
	PD_REC_FINISHED_ROUND = 68,
	PD_REC_ID_INDEX = 69,
	PD_REC_THREAD_MAP = 73,
	PD_REC_CPU_MAP = 74,
	PD_REC_TIME_CONV = 79,
	PD_REC_HEADER_FEATURE = 80,
	PD_REC_COMPRESSED = 81,
	PD_REC_FINISHED_INIT = 82,
	PD_REC_SCHEDSTAT_CPU = 85,	/* perf sched stats record (collectors/schedstat_record.h) */
	PD_REC_SCHEDSTAT_DOMAIN = 86,
	PD_REC_MAX = 128
};

struct pd_attr {
	struct perf_event_attr attr;	/* zero-extended to our size */
	struct sample_layout layout;	/* its samples' (sample.h) */
	uint64_t *ids;
	uint32_t nids;
	char name[128];			/* from EVENT_DESC, or "" */
};

/* One CPU as the recording machine's features describe it. */
struct pd_cpu {
	int core_group;		/* first CPU of its thread-siblings list, -1 unknown */
	int socket, die, node;
	int llc_group;		/* first CPU of its LLC map, -1 unknown */
};

/* One record: valid until the next pd_next. */
struct pd_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const uint8_t *data;		/* the whole record, header included */
	uint64_t offset;		/* in the file or stream */
};

/*
 * A task's affinity in a locus recording (collectors/affinity.h): a record perf skips
 * (PERF_RECORD_HEADER_EVENT_TYPE) whose body is PD_AFFINITY_MAGIC (16 bytes with its NUL),
 * u32 version (1), u32 nwords, u64 time (0: since before the recording), s32 tid, u32
 * flags (PD_AFFINITY_GONE: the task was gone when asked; no mask follows), then nwords
 * u64 words of the mask (CPU c: bit c % 64 of word c / 64).
 */
#define PD_AFFINITY_MAGIC "locus-affinity\0"
#define PD_AFFINITY_HEAD 40	/* the body before the mask */
#define PD_AFFINITY_GONE 1u
#define PD_AFFINITY_MAX_WORDS 1024	/* 65,536 CPUs: within a record's 64 KiB */

/* Whether rec is one of those. */
bool pd_is_affinity(const struct pd_record *rec);

/* How locus record ends the command line it stores: "... [workload pid 1234]". */
#define PD_WORKLOAD_MARK "[workload pid "
/* Before it, the running processes locus record -p added: "... [added pids 10,11]". */
#define PD_ADDED_MARK "[added pids "
#define PD_ADDED_MAX 8

struct pd_file {
	const char *path;
	FILE *fp;
	bool pipe;			/* pipe-mode stream (perf record -o -) */
	uint64_t data_off, data_size;	/* file mode */
	uint64_t file_size;		/* a regular file's size, 0 for a stream */
	uint64_t feat[4];		/* feature bitmap */
	struct pd_attr *attrs;
	int nattrs;
	struct u64map ids;		/* sample id -> attr index */
	/* features */
	uint8_t *tracing_data;
	size_t tracing_len;
	int nr_cpus_avail, nr_cpus_online;
	struct pd_cpu *cpus;		/* nr_cpus_avail entries when CPU_TOPOLOGY was read */
	bool have_topology, have_numa, have_cache;
	int llc_level;
	char hostname[128], osrelease[128], arch[32], cmdline[512];
	int32_t workload_pid;		/* locus record's workload (from the command line), or 0 */
	int32_t added_pids[PD_ADDED_MAX]; /* the processes record -p added to it */
	int nadded;
	/* the stream */
	const uint8_t *map;		/* a file's bytes up to the data's end, mapped (NULL: read) */
	size_t map_len;
	uint64_t map_dropped;		/* pages before it let go (read: not resident for us) */
	uint8_t *buf;			/* current record (up to 64 KiB, plus tracing data) */
	size_t buf_cap;
	uint64_t pos;			/* offset of the next record */
	uint64_t end;			/* end of the data (file mode), or UINT64_MAX */
	uint64_t records;
	uint64_t unknown[PD_REC_MAX];	/* records of types we do not handle */
	uint64_t unknown_total;
	/* a file whose end is missing */
	bool unfinished;		/* locus record's stream that never got its header */
	bool recover;			/* the end may be missing: a record cut short ends the data */
	bool cut_short;			/* the data ended inside a record, or was never finished */
	bool copy_cut;			/* a finished file cut short after it was written (a
					 * partial copy, a full disk): its header's data runs past
					 * the file's end, the feature table after the data is gone */
	uint64_t copy_data_size;	/* copy_cut: the data size its header says */
	uint64_t cut_at;		/* offset of the first byte not read (cut_short) */
	bool end_missing;		/* PD_FEAT_LOCUS_END: a write failed while recording */
	int end_errno;			/* its errno (ENOSPC: the disk was full) */
	uint64_t end_kept, end_unwritten; /* whole records kept, records not written */
	bool peeked;			/* peek holds the next record (a pipe's first data record) */
	struct pd_record peek;
	char err[320];
};


/*
 * Open path ("-" for standard input), read the header, the attributes and
 * the features (a stream's: the header records before its first data record).
 * Returns 0, or -1 with f->err = "<what is wrong> at offset N". A file whose end
 * is missing (locus record's stream never finished, perf record's file with
 * data size 0, a stream cut inside a record, a finished file cut short by a
 * partial copy) is read to its last whole record and says so in cut_short.
 */
int pd_open(struct pd_file *f, const char *path);
/* Next record: 1, 0 at the end of the data, -1 with f->err on a malformed record. */
int pd_next(struct pd_file *f, struct pd_record *rec);
/* Parse a sample record. Returns 0, or -1 with f->err when it is malformed. */
int pd_parse_sample(struct pd_file *f, const struct pd_record *rec, struct pd_sample *s);
void pd_close(struct pd_file *f);

/* Parse one feature section (also used for pipe-mode HEADER_FEATURE records). */
int pd_parse_feature(struct pd_file *f, int feat, const uint8_t *p, size_t len, uint64_t off);

bool pd_has_feature(const struct pd_file *f, int feat);

struct topology;
/*
 * The recording machine's topology from the NRCPUS, CPU_TOPOLOGY,
 * NUMA_TOPOLOGY and CACHE features. Returns 0, or -1 when the file has none.
 */
int pd_topology(const struct pd_file *f, struct topology *t);

/* Whether an attribute of f asks for callchains (PERF_SAMPLE_CALLCHAIN). */
bool pd_has_callchains(const struct pd_file *f);

/* True when the file at path is a perf.data file (locus record's or perf's: "PERFILE2"). */
bool pd_is_recording(const char *path);

#endif
