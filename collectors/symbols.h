/* symbols.h - code and data addresses to names with elfutils, from the maps a run or file saw. */
#ifndef LOCUS_SYMBOLS_H
#define LOCUS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/symbolize.h"

struct sym_region {
	uint32_t pid;
	uint64_t start, end, pgoff;
	char *path;
};

struct sym_proc;

struct ksym {
	uint64_t addr;
	char *name;
};

struct symbols {
	struct sym_region *reg;
	int nreg, cap;
	const char *kallsyms;	/* kernel symbols file for kernel addresses (live runs), or NULL */
	struct ksym *ksyms;	/* loaded on first use, sorted */
	int nksyms;
	bool ksyms_tried;
	struct sym_proc *procs;	/* one elfutils session per process, built on first use */
	int nprocs;
};

void symbols_init(struct symbols *s);
/*
 * Name kernel addresses from this kallsyms file ("/proc/kallsyms"): only for
 * samples taken on this machine, since another kernel's addresses differ.
 */
void symbols_use_kallsyms(struct symbols *s, const char *path);
/* A file mapping of process pid (from PERF_RECORD_MMAP/MMAP2 or /proc/PID/maps). */
void symbols_add_map(struct symbols *s, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path);
/*
 * Name addr in process pid (0: any process): "func+0x12 (file.c:42)" for code
 * with debug info, "global+0x8" for data. NULL when nothing covers it.
 */
const char *symbols_lookup(struct symbols *s, uint32_t pid, uint64_t addr, char *buf, size_t len);
/* s as a report's symbolizer: any process's addresses (pid 0). s must outlive it. */
struct symbolizer symbols_symbolizer(struct symbols *s);
void symbols_release(struct symbols *s);

#endif
