/* tracing_data.h - perf.data's TRACING_DATA feature: tracepoint formats, read and written. */
#ifndef LOCUS_TRACING_DATA_H
#define LOCUS_TRACING_DATA_H

#include <stddef.h>
#include <stdint.h>

struct tep_handle;

/*
 * Parse a TRACING_DATA blob (as perf writes it) into a new tep handle with
 * every event format it holds. Returns the handle, or NULL with the reason
 * and the blob offset of the problem in err.
 */
struct tep_handle *tracing_data_parse(const uint8_t *blob, size_t len, char *err, size_t errlen);
/* The same, and where the blob's kallsyms section is (*ksyms NULL and *ksyms_len 0 when
 * empty or absent): perf record stores /proc/kallsyms there, locus record -g too. */
struct tep_handle *tracing_data_parse_ksyms(const uint8_t *blob, size_t len, const char **ksyms,
					    size_t *ksyms_len, char *err, size_t errlen);

/*
 * Build a TRACING_DATA blob from tracefs at dir for the given events
 * ("sched_switch" for the sched system, "ipi/ipi_send_cpu" for another). Returns a malloc'ed blob and its length in *len, or
 * NULL with a reason in err.
 */
uint8_t *tracing_data_build(const char *dir, const char *const *events, int nevents, size_t *len,
			    char *err, size_t errlen);
/* The same with the kallsyms file at ksyms ("/proc/kallsyms") in its section, as perf
 * record writes it (NULL: an empty section; an unreadable file: empty too). */
uint8_t *tracing_data_build_ksyms(const char *dir, const char *const *events, int nevents,
				  const char *ksyms, size_t *len, char *err, size_t errlen);

#endif
