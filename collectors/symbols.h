/* symbols.h - code and data addresses to names with elfutils, from the maps a run or file saw. */
#ifndef LOCUS_SYMBOLS_H
#define LOCUS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/u64map.h"
#include "../model/stack.h"
#include "../model/symbolize.h"

struct sym_region {
	uint32_t pid;
	uint64_t start, end, pgoff;
	char *path;
};

struct sym_proc;
struct sym_file;

struct ksym {
	uint64_t addr;
	char *name;
};

struct symbols {
	struct sym_region *reg;
	int nreg, cap;
	const char *kallsyms;	/* kernel symbols file for kernel addresses (live runs), or NULL */
	const char *ktext;	/* or kallsyms' text (a recording's), ktext_len bytes */
	size_t ktext_len;
	struct ksym *ksyms;	/* loaded on first use, sorted */
	int nksyms;
	bool ksyms_tried;
	struct sym_proc *procs;	/* one elfutils session per process, built on first use */
	int nprocs;
	struct u64map parent;	/* pid -> the process it forked from (PERF_RECORD_FORK) */
	struct sym_file *files;	/* one elfutils session per file (stack frames), on first use */
	int nfiles;
};

void symbols_init(struct symbols *s);
/*
 * Name kernel addresses from this kallsyms file ("/proc/kallsyms"): only for
 * samples taken on this machine, since another kernel's addresses differ.
 */
void symbols_use_kallsyms(struct symbols *s, const char *path);
/* The address of _text in the kallsyms file at path, 0 when unknown or hidden. */
uint64_t symbols_kernel_text(const char *path);
/* _text and _etext from it: 0, or -1 when either is missing or hidden. */
int symbols_kernel_range(const char *path, uint64_t *text, uint64_t *etext);
/* Name them from kallsyms' text instead (len bytes, held by the caller while s is used). */
void symbols_use_kallsyms_text(struct symbols *s, const char *text, size_t len);
/* A file mapping of process pid (from PERF_RECORD_MMAP/MMAP2 or /proc/PID/maps). */
void symbols_add_map(struct symbols *s, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path);
/* Process pid forked from ppid: its addresses are ppid's where it mapped none itself. */
void symbols_add_fork(struct symbols *s, uint32_t pid, uint32_t ppid);
/*
 * Name addr in process pid (0: any process): "func+0x12 (file.c:42)" for code
 * with debug info, "global+0x8" for data. NULL when nothing covers it.
 */
const char *symbols_lookup(struct symbols *s, uint32_t pid, uint64_t addr, char *buf, size_t len);
/* s as a report's symbolizer: any process's addresses (pid 0). s must outlive it. */
struct symbolizer symbols_symbolizer(struct symbols *s);
/*
 * The function at addr in process pid, without offset or line ("pipe_write"), as perf
 * script names a frame: a kernel address from the kallsyms given, a user one from the
 * file pid mapped there (its ELF symbols, by file offset: one session a file, whatever
 * the process). NULL when nothing names it.
 */
const char *symbols_function(struct symbols *s, int32_t pid, uint64_t addr, int kernel, char *buf,
			     size_t len);
/* s as a stack report's namer (symbols_function). s must outlive it. */
struct stack_namer symbols_stack_namer(struct symbols *s);
void symbols_release(struct symbols *s);

#endif
