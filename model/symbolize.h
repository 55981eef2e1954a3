/*
 * symbolize.h - names for code and data addresses, as a report asks for them: the model's
 * view of a symbol table (collectors/symbols.c provides one from ELF files and kallsyms).
 */
#ifndef LOCUS_SYMBOLIZE_H
#define LOCUS_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

struct symbolizer {
	/*
	 * Name addr into buf: "func+0x12 (file.c:42)" for code, "global+0x8" for data.
	 * Returns buf, or NULL when nothing covers it (the caller prints the address).
	 */
	const char *(*name)(void *ctx, uint64_t addr, char *buf, size_t len);
	void *ctx;
};

/* The name of addr through sz (NULL: no symbols), or NULL. */
static inline const char *symbolize(const struct symbolizer *sz, uint64_t addr, char *buf,
				    size_t len)
{
	return sz ? sz->name(sz->ctx, addr, buf, len) : NULL;
}

#endif
