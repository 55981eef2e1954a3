/* symbols.c - symbol resolution through libdwfl: functions, source lines, data objects. */
#include "symbols.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/util.h"

#define MAX_PROCS 64

struct sym_proc {
	uint32_t pid;
	Dwfl *dwfl;
};

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = NULL,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

void symbols_init(struct symbols *s)
{
	memset(s, 0, sizeof(*s));
}

void symbols_add_map(struct symbols *s, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path)
{
	if (!path || path[0] != '/' || !len)
		return; /* anonymous, [heap], [vdso]: nothing to read symbols from */
	if (s->nreg == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->reg = xrealloc(s->reg, (size_t)s->cap * sizeof(*s->reg));
	}
	s->reg[s->nreg++] = (struct sym_region){ pid, start, start + len, pgoff, xstrdup(path) };
}

/* Report every file of pid once, at the bias of its lowest mapping. */
static Dwfl *session(struct symbols *s, uint32_t pid)
{
	struct stat st;
	Dwfl *d;

	for (int i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return s->procs[i].dwfl;
	if (s->nprocs == MAX_PROCS)
		return NULL;
	d = dwfl_begin(&callbacks);
	if (!d)
		return NULL;
	dwfl_report_begin(d);
	for (int i = 0; i < s->nreg; i++) {
		const struct sym_region *r = &s->reg[i];
		int lowest = i;

		if (r->pid != pid)
			continue;
		/* the file's lowest mapping gives its load bias (start - file offset) */
		for (int j = 0; j < s->nreg; j++)
			if (s->reg[j].pid == pid && !strcmp(s->reg[j].path, r->path) &&
			    s->reg[j].start < s->reg[lowest].start)
				lowest = j;
		for (int j = 0; j < i && lowest == i; j++)
			if (s->reg[j].pid == pid && !strcmp(s->reg[j].path, r->path) &&
			    s->reg[j].start == r->start)
				lowest = j; /* the same mapping twice: report once */
		/* a hostile file may name a FIFO or a device: only regular files are opened */
		if (lowest == i && stat(r->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
			dwfl_report_elf(d, r->path, r->path, -1, r->start - r->pgoff, false);
	}
	dwfl_report_end(d, NULL, NULL);
	s->procs = xrealloc(s->procs, (size_t)(s->nprocs + 1) * sizeof(*s->procs));
	s->procs[s->nprocs++] = (struct sym_proc){ pid, d };
	return d;
}

static const char *lookup_in(Dwfl *d, uint64_t addr, char *buf, size_t len)
{
	Dwfl_Module *m = d ? dwfl_addrmodule(d, addr) : NULL;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name;
	Dwfl_Line *line;
	size_t o;

	if (!m)
		return NULL;
	name = dwfl_module_addrinfo(m, addr, &off, &sym, NULL, NULL, NULL);
	if (!name)
		return NULL;
	o = (size_t)snprintf(buf, len, off ? "%s+0x%llx" : "%s", name, (unsigned long long)off);
	line = dwfl_module_getsrc(m, addr);
	if (line && o < len) {
		int lineno = 0;
		const char *src = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);

		if (src) {
			const char *base = strrchr(src, '/');

			snprintf(buf + o, len - o, " (%s:%d)", base ? base + 1 : src, lineno);
		}
	}
	return buf;
}

void symbols_use_kallsyms(struct symbols *s, const char *path)
{
	s->kallsyms = path;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

int symbols_kernel_range(const char *path, uint64_t *text, uint64_t *etext)
{
	FILE *f = fopen(path, "re");
	char line[512], name[256], type;
	unsigned long long addr;

	*text = *etext = 0;
	while (f && !(*text && *etext) && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*text = addr;
		else if (!strcmp(name, "_etext"))
			*etext = addr;
	}
	if (f)
		fclose(f);
	return *text && *etext > *text ? 0 : -1;
}

uint64_t symbols_kernel_text(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];
	uint64_t text = 0;

	/* _text comes early (after the per-CPU symbols): stop there, read no more */
	while (f && !text && fgets(line, sizeof(line), f)) {
		char *sp = strstr(line, " _text\n");

		if (sp && sp - line > 2 && sp[-2] == ' ')
			text = strtoull(line, NULL, 16);
	}
	if (f)
		fclose(f);
	return text;
}

void symbols_use_kallsyms_text(struct symbols *s, const char *text, size_t len)
{
	s->ktext = text;
	s->ktext_len = len;
}

static void load_kallsyms(struct symbols *s)
{
	FILE *f = s->ktext ? fmemopen((void *)s->ktext, s->ktext_len, "r") :
			     fopen(s->kallsyms, "re");
	char line[512], name[256], type;
	unsigned long long addr;
	int cap = 0;

	s->ksyms_tried = true;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue; /* zero addresses: kptr_restrict hides them */
		if (s->nksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			s->ksyms = xrealloc(s->ksyms, (size_t)cap * sizeof(*s->ksyms));
		}
		s->ksyms[s->nksyms++] = (struct ksym){ addr, xstrdup(name) };
	}
	fclose(f);
	if (s->nksyms)
		qsort(s->ksyms, (size_t)s->nksyms, sizeof(*s->ksyms), by_addr);
}

static const char *kernel_lookup(struct symbols *s, uint64_t addr, char *buf, size_t len)
{
	int lo = 0, hi;

	if (!s->kallsyms && !s->ktext)
		return NULL;
	if (!s->ksyms_tried)
		load_kallsyms(s);
	hi = s->nksyms - 1;
	if (hi < 0 || addr < s->ksyms[0].addr)
		return NULL;
	while (lo < hi) { /* the last symbol at or below addr */
		int mid = (lo + hi + 1) / 2;

		if (s->ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (addr == s->ksyms[lo].addr)
		snprintf(buf, len, "%s [kernel]", s->ksyms[lo].name);
	else
		snprintf(buf, len, "%s+0x%llx [kernel]", s->ksyms[lo].name,
			 (unsigned long long)(addr - s->ksyms[lo].addr));
	return buf;
}

const char *symbols_lookup(struct symbols *s, uint32_t pid, uint64_t addr, char *buf, size_t len)
{
	if (addr >= 0xffff800000000000ull)
		return kernel_lookup(s, addr, buf, len);
	for (int i = 0; i < s->nreg; i++) {
		const struct sym_region *r = &s->reg[i];

		if ((pid && r->pid != pid) || addr < r->start || addr >= r->end)
			continue;
		return lookup_in(session(s, r->pid), addr, buf, len);
	}
	return NULL;
}

struct sym_file {
	char *path;
	Dwfl *dwfl;	/* NULL: the file could not be read */
	bool exec;	/* ET_EXEC: its addresses are absolute */
};

#define MAX_FILES 256

/* The session of one file, its symbols at their link-time addresses. */
static struct sym_file *file_session(struct symbols *s, const char *path)
{
	struct sym_file *f;
	struct stat st;
	Dwfl_Module *m;

	for (int i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].path, path))
			return &s->files[i];
	if (s->nfiles == MAX_FILES)
		return NULL;
	s->files = xrealloc(s->files, (size_t)(s->nfiles + 1) * sizeof(*s->files));
	f = &s->files[s->nfiles++];
	*f = (struct sym_file){ xstrdup(path), NULL, false };
	/* a hostile file may name a FIFO or a device: only regular files are opened */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !st.st_size || !(f->dwfl = dwfl_begin(&callbacks)))
		return f;
	dwfl_report_begin(f->dwfl);
	m = dwfl_report_elf(f->dwfl, path, path, -1, 0, false);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (m) {
		GElf_Addr bias;
		Elf *e = dwfl_module_getelf(m, &bias);
		GElf_Ehdr eh;

		f->exec = e && gelf_getehdr(e, &eh) && eh.e_type == ET_EXEC;
	}
	return f;
}

static const char *kernel_function(struct symbols *s, uint64_t addr, char *buf, size_t len)
{
	char full[512], *plus;

	if (!kernel_lookup(s, addr, full, sizeof(full)))
		return NULL;
	plus = strpbrk(full, "+ ");
	if (plus)
		*plus = '\0';
	snprintf(buf, len, "%s", full);
	return buf;
}

void symbols_add_fork(struct symbols *s, uint32_t pid, uint32_t ppid)
{
	u64map_put(&s->parent, pid, ppid);
}

/* The mapping of pid that holds addr: its own, else its parent's and up, as perf's threads
 * copy their parent's maps at fork and keep them at exec (a frame inside execve after the
 * COMM still returns into the old image). */
static const struct sym_region *region_of(const struct symbols *s, uint32_t pid, uint64_t addr)
{
	for (int up = 0; up < 64; up++) {
		const uint32_t *pp;

		for (int i = 0; i < s->nreg; i++)
			if (s->reg[i].pid == pid && addr >= s->reg[i].start && addr < s->reg[i].end)
				return &s->reg[i];
		pp = u64map_get(&s->parent, pid);
		if (!pp || *pp == pid)
			break;
		pid = *pp;
	}
	return NULL;
}

const char *symbols_function(struct symbols *s, int32_t pid, uint64_t addr, int kernel, char *buf,
			     size_t len)
{
	const struct sym_region *r, *low;
	struct sym_file *f;
	Dwfl_Module *m;
	const char *name;
	uint64_t at;

	if (kernel)
		return kernel_function(s, addr, buf, len);
	r = region_of(s, (uint32_t)pid, addr);
	if (!r || !(f = file_session(s, r->path)) || !f->dwfl)
		return NULL;
	low = r; /* the file's lowest mapping in the process gives its load bias */
	for (int i = 0; i < s->nreg; i++)
		if (s->reg[i].pid == r->pid && s->reg[i].start < low->start &&
		    !strcmp(s->reg[i].path, r->path))
			low = &s->reg[i];
	at = f->exec ? addr : addr - (low->start - low->pgoff);
	m = dwfl_addrmodule(f->dwfl, at);
	name = m ? dwfl_module_addrname(m, at) : NULL;
	if (!name)
		return NULL;
	snprintf(buf, len, "%s", name);
	return buf;
}

static const char *stack_name(void *ctx, int32_t pid, uint64_t addr, int kernel, char *buf,
			      size_t len)
{
	return symbols_function(ctx, pid, addr, kernel, buf, len);
}

struct stack_namer symbols_stack_namer(struct symbols *s)
{
	return (struct stack_namer){ stack_name, s };
}

void symbols_release(struct symbols *s)
{
	for (int i = 0; i < s->nfiles; i++) {
		if (s->files[i].dwfl)
			dwfl_end(s->files[i].dwfl);
		free(s->files[i].path);
	}
	free(s->files);
	u64map_release(&s->parent);
	for (int i = 0; i < s->nreg; i++)
		free(s->reg[i].path);
	for (int i = 0; i < s->nprocs; i++)
		dwfl_end(s->procs[i].dwfl);
	for (int i = 0; i < s->nksyms; i++)
		free(s->ksyms[i].name);
	free(s->ksyms);
	free(s->reg);
	free(s->procs);
	memset(s, 0, sizeof(*s));
}

static const char *any_process(void *ctx, uint64_t addr, char *buf, size_t len)
{
	return symbols_lookup(ctx, 0, addr, buf, len);
}

struct symbolizer symbols_symbolizer(struct symbols *s)
{
	return (struct symbolizer){ any_process, s };
}
