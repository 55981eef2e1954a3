/* tidmap.c - thread id -> index: pages for the kernel's tid range, a hash beyond (tidmap.h). */
#include "tidmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define NPAGES (TIDMAP_DIRECT / TIDMAP_PAGE)

void tidmap_init(struct tidmap *m)
{
	memset(m, 0, sizeof(*m));
	m->page = xcalloc(NPAGES, sizeof(*m->page));
	m->fill = xcalloc(NPAGES, sizeof(*m->fill));
	u64map_init(&m->far);
}

void tidmap_release(struct tidmap *m)
{
	if (m->page)
		for (size_t i = 0; i < NPAGES; i++)
			free(m->page[i]);
	free(m->page);
	free(m->fill);
	u64map_release(&m->far);
	memset(m, 0, sizeof(*m));
}

int32_t tidmap_far_get(const struct tidmap *m, int32_t tid)
{
	const uint32_t *v = u64map_get(&m->far, (uint32_t)tid);

	return v ? (int32_t)*v : -1;
}

void tidmap_put(struct tidmap *m, int32_t tid, int32_t val)
{
	uint32_t p = (uint32_t)tid >> TIDMAP_SHIFT, i = (uint32_t)tid & (TIDMAP_PAGE - 1);

	if ((uint32_t)tid >= TIDMAP_DIRECT) {
		size_t before = m->far.n;

		u64map_put(&m->far, (uint32_t)tid, (uint32_t)val);
		m->n += m->far.n - before;
		return;
	}
	if (!m->page[p]) {
		m->page[p] = xmalloc(TIDMAP_PAGE * sizeof(int32_t));
		memset(m->page[p], 0xff, TIDMAP_PAGE * sizeof(int32_t));
	}
	if (m->page[p][i] < 0) {
		m->fill[p]++;
		m->n++;
	}
	m->page[p][i] = val;
}

void tidmap_del(struct tidmap *m, int32_t tid)
{
	uint32_t p = (uint32_t)tid >> TIDMAP_SHIFT, i = (uint32_t)tid & (TIDMAP_PAGE - 1);

	if ((uint32_t)tid >= TIDMAP_DIRECT) {
		if (u64map_del(&m->far, (uint32_t)tid))
			m->n--;
		return;
	}
	if (!m->page[p] || m->page[p][i] < 0)
		return;
	m->page[p][i] = -1;
	m->n--;
	if (--m->fill[p] == 0) { /* memory follows the tids in use */
		free(m->page[p]);
		m->page[p] = NULL;
	}
}
