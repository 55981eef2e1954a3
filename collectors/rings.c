/* rings.c - per-CPU perf ring buffers read in batches (rings.h). */
#include "rings.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../common/util.h"

struct ring {
	struct perf_event_mmap_page *pc;	/* the control page, then the data */
	uint8_t *data;
};

static int event_open(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static size_t map_bytes(const struct rings *rs)
{
	return rs->data_bytes + (size_t)sysconf(_SC_PAGESIZE);
}

int rings_open(struct rings *rs, const int *cpus, int ncpus, struct perf_event_attr *attrs,
	       int nattrs, int pages, const char **what)
{
	int n = ncpus * nattrs;

	memset(rs, 0, sizeof(*rs));
	rs->ncpus = ncpus;
	rs->nattrs = nattrs;
	rs->cpu = xcalloc((size_t)ncpus + 1, sizeof(int));
	rs->fd = xcalloc((size_t)n + 1, sizeof(int));
	rs->r = xcalloc((size_t)ncpus + 1, sizeof(*rs->r));
	rs->data_bytes = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
	rs->copy = xmalloc(65536 + 8);
	memcpy(rs->cpu, cpus, (size_t)ncpus * sizeof(int));
	for (int i = 0; i < n; i++)
		rs->fd[i] = -1;
	*what = "open";
	for (int i = 0; i < n; i++) {
		if ((rs->fd[i] = event_open(&attrs[i % nattrs], cpus[i / nattrs])) < 0)
			goto fail;
	}
	*what = "map";
	for (int c = 0; c < ncpus; c++) {
		int *fd = &rs->fd[c * nattrs];
		void *m = mmap(NULL, map_bytes(rs), PROT_READ | PROT_WRITE, MAP_SHARED, fd[0], 0);

		if (m == MAP_FAILED)
			goto fail;
		rs->r[c].pc = m;
		rs->r[c].data = (uint8_t *)m + sysconf(_SC_PAGESIZE);
		for (int j = 1; j < nattrs; j++)
			if (ioctl(fd[j], PERF_EVENT_IOC_SET_OUTPUT, fd[0]) < 0)
				goto fail;
	}
	return 0;
fail:;
	int err = errno;

	rings_close(rs);
	errno = err;
	return -1;
}

static void each_fd(struct rings *rs, unsigned long req)
{
	for (int i = 0; i < rs->ncpus * rs->nattrs; i++)
		if (rs->fd[i] >= 0)
			ioctl(rs->fd[i], req, 0);
}

void rings_enable(struct rings *rs)
{
	each_fd(rs, PERF_EVENT_IOC_ENABLE);
}

void rings_disable(struct rings *rs)
{
	each_fd(rs, PERF_EVENT_IOC_DISABLE);
}

void rings_poll(struct rings *rs, int timeout_ms)
{
	struct pollfd *p = xcalloc((size_t)rs->ncpus + 1, sizeof(*p));

	for (int c = 0; c < rs->ncpus; c++)
		p[c] = (struct pollfd){ .fd = rs->fd[c * rs->nattrs], .events = POLLIN };
	poll(p, (nfds_t)rs->ncpus, timeout_ms);
	free(p);
}

void rings_read(struct rings *rs, void (*fn)(void *ctx, int cpu, const void *rec), void *ctx)
{
	uint64_t mask = rs->data_bytes - 1, every = rs->data_bytes / 4;

	for (int c = 0; c < rs->ncpus; c++) {
		struct ring *r = &rs->r[c];
		uint64_t head, tail, given;

		if (!r->pc)
			continue;
		head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
		tail = given = r->pc->data_tail;
		while (head - tail >= sizeof(struct perf_event_header)) {
			const struct perf_event_header *h = (const void *)&r->data[tail & mask];
			size_t size = h->size, at = tail & mask;

			if (size < sizeof(*h) || size > head - tail)
				break; /* not the kernel's: stop at it */
			if (at + size > rs->data_bytes) { /* wraps: made whole */
				memcpy(rs->copy, &r->data[at], rs->data_bytes - at);
				memcpy(rs->copy + (rs->data_bytes - at), r->data,
				       size - (rs->data_bytes - at));
				h = (const void *)rs->copy;
			}
			fn(ctx, rs->cpu[c], h);
			tail += size;
			if (tail - given >= every) { /* room back for the kernel, now and then */
				__atomic_store_n(&r->pc->data_tail, tail, __ATOMIC_RELEASE);
				given = tail;
			}
		}
		if (tail != given)
			__atomic_store_n(&r->pc->data_tail, tail, __ATOMIC_RELEASE);
	}
}

void rings_close(struct rings *rs)
{
	for (int c = 0; c < rs->ncpus && rs->r; c++)
		if (rs->r[c].pc)
			munmap(rs->r[c].pc, map_bytes(rs));
	for (int i = 0; i < rs->ncpus * rs->nattrs && rs->fd; i++)
		if (rs->fd[i] >= 0)
			close(rs->fd[i]);
	free(rs->cpu);
	free(rs->fd);
	free(rs->r);
	free(rs->copy);
	memset(rs, 0, sizeof(*rs));
}
