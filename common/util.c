/* util.c - errors, parsing and number formatting shared by every layer. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

int locus_verbosity;

/* Messages held while a full screen owns the terminal (any thread may add one). */
#define HELD_MAX (64u << 10)
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static bool holding;
static char *held;
static size_t held_len;

static void err_out(const char *fmt, va_list ap)
{
	char buf[8192];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	n = n < 0 ? 0 : n >= (int)sizeof(buf) ? (int)sizeof(buf) - 1 : n;
	pthread_mutex_lock(&held_lock);
	if (holding && held_len + (size_t)n + 9 <= HELD_MAX) {
		held = xrealloc(held, held_len + (size_t)n + 9);
		held_len += (size_t)sprintf(held + held_len, "locus: %s\n", buf);
	} else if (!holding) {
		fflush(stdout);
		fprintf(stderr, "locus: %s\n", buf);
	}
	pthread_mutex_unlock(&held_lock);
}

void locus_err_hold(bool hold)
{
	pthread_mutex_lock(&held_lock);
	holding = hold;
	if (!hold && held_len) {
		fflush(stdout);
		fwrite(held, 1, held_len, stderr);
		held_len = 0;
	}
	pthread_mutex_unlock(&held_lock);
}

void locus_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_out(fmt, ap);
	va_end(ap);
}

void locus_verbose(const char *fmt, ...)
{
	va_list ap;

	if (locus_verbosity <= 0)
		return;
	va_start(ap, fmt);
	err_out(fmt, ap);
	va_end(ap);
}

static void oom(size_t size)
{
	fprintf(stderr, "locus: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xaligned_alloc(size_t align, size_t size)
{
	size_t n = (size + align - 1) / align * align;
	void *p = aligned_alloc(align, n ? n : align);

	if (!p)
		oom(size);
	return p;
}

void *xaligned_realloc(void *p, size_t keep, size_t align, size_t size)
{
	void *n = xaligned_alloc(align, size);

	if (keep)
		memcpy(n, p, keep);
	free(p);
	return n;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		oom(size);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s) + 1);
	return p;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int num_to_long(double v, long min, long max, long *out)
{
	if (!(v >= (double)min && v <= (double)max) || v != (double)(long)v)
		return -1; /* the comparisons fail for NaN; the cast is safe once in range */
	*out = (long)v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || *end || !(d >= min && d <= max))
		return -1; /* the comparisons fail for NaN */
	*out = d;
	return 0;
}

int parse_name(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return -1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int parse_cpu_list(const char *s, int max_cpu, int **cpus, char *err, size_t errlen)
{
	int *out = NULL;
	int n = 0, cap = 0;
	const char *p = s;

	*cpus = NULL;
	if (!s || !*s) {
		snprintf(err, errlen, "empty CPU list");
		return -1;
	}
	while (*p) {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		} else if (*p) {
			goto bad;
		}
		if (hi < lo) {
			snprintf(err, errlen, "CPU range %ld-%ld is reversed", lo, hi);
			free(out);
			return -1;
		}
		if (hi >= max_cpu) {
			snprintf(err, errlen, "CPU %ld does not exist (this machine has CPUs 0-%d)",
				 hi, max_cpu - 1);
			free(out);
			return -1;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				out = xrealloc(out, cap * sizeof(*out));
			}
			out[n++] = (int)c;
		}
	}
	qsort(out, n, sizeof(*out), cmp_int);
	{
		int w = 0;

		for (int i = 0; i < n; i++)
			if (w == 0 || out[w - 1] != out[i])
				out[w++] = out[i];
		n = w;
	}
	*cpus = out;
	return n;
bad:
	snprintf(err, errlen, "'%s' is not a CPU list (use e.g. 0-3,8)", s);
	free(out);
	return -1;
}

int cpu_list_first(const char *list, int max_cpu)
{
	int *cpus, n, first;
	char err[128];

	n = parse_cpu_list(list, max_cpu, &cpus, err, sizeof(err));
	if (n <= 0)
		return -1;
	first = cpus[0];
	free(cpus);
	return first;
}

void fmt_argv(char *const *argv, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; argv && argv[i] && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", argv[i]);
}

const char *fmt_cpu_list(const int *cpus, int n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && o + 1 < len;) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			o += (size_t)snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", cpus[i], cpus[j]);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", cpus[i]);
		i = j + 1;
	}
	return buf;
}

const char *fmt_share(double a, double b, int decimals, char *buf, size_t len)
{
	if (b <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f%%", decimals, 100.0 * a / b);
	return buf;
}

const char *fmt_bytes(uint64_t v, char *buf, size_t len)
{
	if (v < 1024)
		snprintf(buf, len, "%llu bytes", (unsigned long long)v);
	else if (v < 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", (double)v / 1024);
	else if (v < 1024ull * 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", (double)v / (1024 * 1024));
	else
		snprintf(buf, len, "%.2f GiB", (double)v / (1024.0 * 1024 * 1024));
	return buf;
}

const char *fmt_ns(uint64_t ns, char *buf, size_t len)
{
	char whole[32];

	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.2f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else if (ns < 1000000000000ull)
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	else /* 1,000 s and beyond: the seconds with separators */
		snprintf(buf, len, "%s.%03llu s", fmt_count(ns / 1000000000ull, whole, sizeof(whole)),
			 (unsigned long long)(ns % 1000000000ull / 1000000));
	return buf;
}

const char *fmt_ns_short(double ns, char *buf, size_t len)
{
	if (!(ns > 0))
		snprintf(buf, len, "0 ns");
	else if (ns < 999.5)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 9950)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 999500)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else if (ns < 999950000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

const char *fmt_count(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	size_t o = 0;

	for (int i = 0; i < n && o + 1 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}

const char *fmt_si(double v, char *buf, size_t len)
{
	static const char suffix[] = " KMGT";
	int i = 0;

	while (v >= 1000.0 && i < 4) {
		v /= 1000.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.3f %c", v, suffix[i]);
	return buf;
}

ssize_t read_file_head(const char *path, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	return n;
}

int read_text_file(const char *path, char *buf, size_t len)
{
	ssize_t n = read_file_head(path, buf, len - 1);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

char *read_whole_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;
	int bad;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (cap - *len < 65536) {
			cap = cap ? cap * 2 : 262144;
			buf = xrealloc(buf, cap + 1);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0 && *len <= max);
	bad = ferror(f) ? (errno ? errno : EIO) : 0; /* a directory: EISDIR */
	fclose(f);
	if (bad || *len > max) {
		free(buf);
		errno = bad ? bad : EFBIG;
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

uint64_t thread_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The limit at start: process-wide state, as the limit itself is. */
static struct rlimit nofile_at_start;
static int nofile_saved;

void nofile_raise(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	nofile_at_start = rl;
	nofile_saved = 1;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

void nofile_restore(void)
{
	if (nofile_saved)
		setrlimit(RLIMIT_NOFILE, &nofile_at_start);
}

void nofile_original(struct rlimit *rl)
{
	if (nofile_saved)
		*rl = nofile_at_start;
	else
		getrlimit(RLIMIT_NOFILE, rl);
}

const char *fmt_ratio(double r, char *buf, size_t len)
{
	double a = r < 0 ? -r : r;

	if (r == 0)
		snprintf(buf, len, "0");
	else if (a >= 0.1 && a < 10)
		snprintf(buf, len, "%.3f", r);
	else if (a >= 10 && a < 1000)
		snprintf(buf, len, "%.1f", r);
	else if (a >= 0.001 && a < 0.1)
		snprintf(buf, len, "%.3g", r);
	else
		snprintf(buf, len, "%.2e", r);
	return buf;
}

const char *fmt_short(double x, char *buf, size_t len)
{
	static const char unit[] = " KMGTP";
	int u = 0;

	if (x < 0)
		x = 0;
	while (x >= 999.5 && u < 5) {
		x /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, x < 10 && x != (double)(uint64_t)x ? "%.1f" : "%.0f", x);
	else
		snprintf(buf, len, x < 9.995 ? "%.2f%c" : x < 99.95 ? "%.1f%c" : "%.0f%c", x,
			 unit[u]);
	return buf;
}

/* A word that is a number ("6,520", "0", "12.1%;"): it never starts a folded line. */
static bool numeric_word(const char *s, int w)
{
	int i = 0;

	while (i < w && (isdigit((unsigned char)s[i]) || s[i] == ',' || s[i] == '.'))
		i++;
	return i > 0 && (i == w || (i + 1 == w && strchr("%;,)", s[i])) ||
			 (i + 2 == w && s[i] == '%' && strchr(";,)", s[i + 1])));
}

int fprint_folded(FILE *f, const char *lead, const char *text, int indent, int width)
{
	int col = fprintf(f, "%s", lead), lines = 1;
	bool fresh = !*lead || lead[strlen(lead) - 1] == ' ', label_before = false;

	while (*text) {
		int w = (int)strcspn(text, " "), unit = w;
		const char *next = text + w;

		/* a label and the number after it fold together ("ran elsewhere: 139") */
		if (*next == ' ' && w && text[w - 1] == ':') {
			const char *n = next + strspn(next, " ");
			int nw = (int)strcspn(n, " ");

			if (nw && numeric_word(n, nw))
				unit += 1 + nw;
		}
		if (!fresh && col + 1 + unit > width && !(w && numeric_word(text, w) &&
							     label_before)) {
			col = fprintf(f, "\n%*s", indent, "") - 1;
			fresh = true;
			lines++;
		}
		if (!fresh)
			col += fprintf(f, " ");
		for (int i = 0; i < w; i++) /* glue prints as a space */
			fputc(text[i] == FOLD_GLUE ? ' ' : text[i], f);
		col += w;
		fresh = false;
		label_before = w && text[w - 1] == ':';
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', f);
	return lines;
}

char *fold_glue(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = FOLD_GLUE;
	return s;
}

int terminal_columns(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	long n;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	if (cols && parse_long(cols, 40, 1000, &n) == 0) /* not a terminal: as COLUMNS says */
		return (int)n;
	return 80;
}

/* Edits (insert, delete, replace, swap two neighbours) from a to b, capped at 9. */
int edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), d[16][16];

	if (la > 14 || lb > 14)
		return 9;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	}
	return d[la][lb];
}
