/* metric.h - a benchmark's figure of merit, found in its output by a preset or a regex. */
#ifndef LOCUS_METRIC_H
#define LOCUS_METRIC_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

struct metric {
	char name[64];		/* "tbench MB/sec", or the regex */
	char unit[24];
	bool higher_better;
	regex_t re;		/* one capture group: the number */
	bool compiled;
	regex_t re2;		/* a preset's fallback when re finds nothing */
	bool have_re2;
};

/*
 * Set up a metric from a preset name (tbench, hackbench, pgbench, sysbench,
 * netperf, schbench, pingpong) or else a POSIX extended regex with one
 * capture group. direction: "higher", "lower", or NULL (the preset's;
 * higher for a regex). Returns 0, or -1 with a one-line reason in err.
 */
int metric_init(struct metric *m, const char *spec, const char *direction, char *err,
		size_t len);
/* The value of the last match in text. Returns 0, or -1 when nothing matches. */
int metric_find(const struct metric *m, const char *text, double *value);
void metric_release(struct metric *m);
/* The preset names, comma separated, for messages. */
const char *metric_presets(void);

#endif
