/* names.c - one spelling of a task everywhere a report or the dashboard names it. */
#include "names.h"

#include <stdio.h>
#include <string.h>

void task_label(char *buf, size_t len, const char *comm, int tid, int width)
{
	char id[24];
	int room, n;

	if (tid <= 0) {
		snprintf(buf, len, "(irq or idle)");
		return;
	}
	if (!comm || !comm[0]) {
		snprintf(buf, len, "tid %d", tid);
		return;
	}
	n = snprintf(id, sizeof(id), "/%d", tid);
	room = width > 0 ? width - n : 16;
	if ((int)strnlen(comm, 16) <= room) {
		snprintf(buf, len, "%.16s%s", comm, id);
	} else if (room >= 2) {
		snprintf(buf, len, "%.*s~%s", room - 1, comm, id);
	} else {
		snprintf(buf, len, "%d", tid); /* no room for any of the name: the tid alone */
	}
}
