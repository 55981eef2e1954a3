/* bench_pause.c - a collector detached and attached on command, for make bench only. */
#include "bench_pause.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"

struct bench_pause {
	pthread_mutex_t lock;
	bool stopped;
	int (*set)(void *ctx, bool on);
	void *ctx;
	char cmd[4096], ack[4096];
};

static void *pause_main(void *arg)
{
	struct bench_pause *p = arg;
	int cmd = open(p->cmd, O_RDONLY | O_CLOEXEC), ack = -1;
	char c, r;

	if (cmd >= 0)
		ack = open(p->ack, O_WRONLY | O_CLOEXEC);
	while (ack >= 0 && read(cmd, &c, 1) == 1) {
		pthread_mutex_lock(&p->lock);
		r = p->stopped || (c != '0' && c != '1') || p->set(p->ctx, c == '1') < 0 ? 'E' : c;
		pthread_mutex_unlock(&p->lock);
		if (write(ack, &r, 1) != 1)
			break;
	}
	if (cmd >= 0)
		close(cmd);
	if (ack >= 0)
		close(ack);
	pthread_mutex_lock(&p->lock);
	if (!p->stopped) { /* the owner frees it at its stop */
		p->set = NULL;
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	pthread_mutex_unlock(&p->lock);
	pthread_mutex_destroy(&p->lock);
	free(p);
	return NULL;
}

struct bench_pause *bench_pause_start(int (*set)(void *ctx, bool on), void *ctx)
{
	const char *dir = getenv("LOCUS_BENCH_PAUSE");
	struct bench_pause *p;
	pthread_t th;

	if (!dir || !*dir)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	p->set = set;
	p->ctx = ctx;
	snprintf(p->cmd, sizeof(p->cmd), "%s/cmd", dir);
	snprintf(p->ack, sizeof(p->ack), "%s/ack", dir);
	if (pthread_create(&th, NULL, pause_main, p) != 0) {
		locus_err("LOCUS_BENCH_PAUSE: cannot start its thread");
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	pthread_detach(th);
	return p;
}

void bench_pause_stop(struct bench_pause *p)
{
	bool gone;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopped = true;
	gone = !p->set; /* the thread has ended: it left p to its owner */
	pthread_mutex_unlock(&p->lock);
	if (gone) {
		pthread_mutex_destroy(&p->lock);
		free(p);
	}
}
