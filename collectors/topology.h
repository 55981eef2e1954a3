/* topology.h - the topology loader: sysfs (or a fixture tree standing in for it) and libnuma. */
#ifndef LOCUS_TOPOLOGY_H
#define LOCUS_TOPOLOGY_H

#include <stddef.h>

#include "../model/topology.h"

/*
 * Read the topology from sysfs under root (NULL or "" for the running
 * system's /sys, using libnuma for nodes and distances when NUMA is
 * available; a fixture directory otherwise, which stands in for /sys).
 * Returns 0, or -1 with a reason in err.
 */
int topology_load(struct topology *t, const char *root, char *err, size_t errlen);
#endif
