/* names.h - one spelling of a task everywhere a report or the dashboard names it. */
#ifndef LOCUS_NAMES_H
#define LOCUS_NAMES_H

#include <stddef.h>

/*
 * "comm/tid" in at most width columns (0: no limit): the comm is shortened to
 * fit, marked with '~', never the tid; "tid N" when the name was never seen;
 * "(irq or idle)" for tid 0 (a wakeup from interrupt or idle context).
 */
void task_label(char *buf, size_t len, const char *comm, int tid, int width);

#endif
