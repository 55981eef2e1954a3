/* util.h - small helpers shared by every layer: errors, parsing, number formatting. */
#ifndef LOCUS_UTIL_H
#define LOCUS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Print "locus: <msg>" plus a newline to stderr. */
void locus_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "locus: <msg>" to stderr only when verbose output was asked for. */
void locus_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int locus_verbosity;
/* hold true: keep those messages (a full screen owns the terminal); false: print what was
 * kept, in order, and print as they come again. */
void locus_err_hold(bool hold);

/* malloc/calloc/realloc/strdup that abort with a message on exhaustion. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* Memory on an align-byte boundary (a power of two; size rounded up to a multiple of it). */
void *xaligned_alloc(size_t align, size_t size);
/* The same, grown from p (freed): its first keep bytes copied over. */
void *xaligned_realloc(void *p, size_t keep, size_t align, size_t size);

/*
 * Parse a whole decimal number in [min, max]. Returns 0, or -1 when the text
 * is empty, has trailing garbage or is out of range.
 */
int parse_long(const char *s, long min, long max, long *out);
/*
 * A number read from a file as a whole number in [min, max] (|min|, |max| <=
 * 2^53): 0 with *out, or -1 for NaN, infinities, fractions and anything out
 * of range. Never a cast of an unchecked double (undefined beyond the range).
 */
int num_to_long(double v, long min, long max, long *out);
/*
 * Parse a number, the whole text (strtod's syntax), in [min, max]. Returns 0, or -1 when it is
 * empty, has trailing garbage, is NaN or is out of range.
 */
int parse_double(const char *s, double min, double max, double *out);
/* The index of the name s in names[0..n) (NULL entries never match), or -1 for none. */
int parse_name(const char *s, const char *const *names, int n);

/*
 * Parse a CPU list ("0-3,8,10-11") into a sorted, de-duplicated array of
 * CPU numbers, each below max_cpu. The caller frees *cpus. Returns the count,
 * or -1 with a reason in err.
 */
int parse_cpu_list(const char *s, int max_cpu, int **cpus, char *err, size_t errlen);

/* The lowest CPU of a CPU list text ("0,32" -> 0), or -1 when it is not one. */
int cpu_list_first(const char *list, int max_cpu);

/* Format sorted CPU numbers as a list ("0-3,8"). Returns buf. */
const char *fmt_cpu_list(const int *cpus, int n, char *buf, size_t len);
/* argv's words joined by spaces into buf (truncated to len; "" for NULL). */
void fmt_argv(char *const *argv, char *buf, size_t len);

/*
 * a as a share of b with the given decimals ("12.3%"), or "-" when b is 0:
 * a share of nothing is not a measured 0.
 */
const char *fmt_share(double a, double b, int decimals, char *buf, size_t len);

/* Format a byte count: "812 bytes", "41.3 KiB", "2.4 MiB", "1.20 GiB". */
const char *fmt_bytes(uint64_t v, char *buf, size_t len);

/*
 * A duration, the one formatter of times in every text: "350 ns", "5.12 us", "1.20 ms",
 * "2.003 s" (three decimals in seconds, 1,000 s and beyond with separators: "1,234.567 s").
 */
const char *fmt_ns(uint64_t ns, char *buf, size_t len);
/* The same units for narrow columns (the dashboard's, the loop's): "350 ns", "5.1 us",
 * "512 us", "94.4 ms", "1.20 s". */
const char *fmt_ns_short(double ns, char *buf, size_t len);
/* Format an integer with thousands separators ("40,012") into buf. */
const char *fmt_count(uint64_t v, char *buf, size_t len);
/* A compact number for narrow columns: "812", "4.3", "52.7K", "1.20M" (negatives as 0). */
const char *fmt_short(double x, char *buf, size_t len);
/*
 * A ratio readable at every scale, three significant digits or more: "0.955", "1.000",
 * "22.5", "0.0123", "1.23e-05", "4.56e+04" (never "0.00" for a ratio that is not 0).
 */
const char *fmt_ratio(double r, char *buf, size_t len);
/* Format a rate with a K/M/G suffix ("32.41 K") into buf. */
const char *fmt_si(double v, char *buf, size_t len);

/* The first bytes of a file, up to len, into buf: how many read, -1 when it cannot be read. */
ssize_t read_file_head(const char *path, void *buf, size_t len);
/* Read a whole small text file into buf (NUL-terminated, trailing newline cut). */
int read_text_file(const char *path, char *buf, size_t len);
/*
 * Read a whole file of up to max bytes into a malloc'ed buffer, NUL-terminated
 * (*len bytes before it). NULL with errno set: the open's error, EIO, or EFBIG
 * beyond max.
 */
char *read_whole_file(const char *path, size_t max, size_t *len);

struct rlimit;
/*
 * Raise the soft RLIMIT_NOFILE to the hard limit (one fd per CPU and event
 * adds up on big machines), keeping the original for the workload and for
 * reports: nofile_restore() puts it back (in the child before exec).
 */
void nofile_raise(void);
void nofile_restore(void);
/* The limit locus was started with. */
void nofile_original(struct rlimit *rl);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);
/* The CPU time (user and system) of the calling thread in nanoseconds, 0 when unknown. */
uint64_t thread_cpu_ns(void);
/* Edits (insert, delete, replace, swap two neighbours) from a to b, capped at 9. */
int edit_distance(const char *a, const char *b);
/*
 * Prose within width columns: lead, then text's words folded, each line after the
 * first indented by indent spaces (a word longer than a line goes whole on its own),
 * a newline at the end. Returns the lines written.
 */
int fprint_folded(FILE *f, const char *lead, const char *text, int indent, int width);
/* A space fprint_folded prints but never breaks at ("1.20 ms", "7 tasks: 681"). */
#define FOLD_GLUE '\x1f'
/* s's spaces into FOLD_GLUE, in place: one word to fprint_folded. Returns s. */
char *fold_glue(char *s);
/* Columns of the terminal on stdout; else $COLUMNS (40-1000) when set, else 80. */
int terminal_columns(void);

#endif
