/* tl_queue.c - a timeline's items to a second thread, in chunks (tl_queue.h). */
#include "tl_queue.h"

#include <pthread.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

#define TQ_CHUNK 1024	/* items a hand-over */
#define TQ_CHUNKS 4	/* hand-overs in flight */

struct tl_queue {
	void (*take)(void *ctx, const struct tl_item *it);
	void *ctx;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a chunk handed over, taken, or the end */
	uint64_t handed, taken;	/* chunks, under mu */
	bool done;		/* no more chunks, under mu */
	int nfill;		/* items in the chunk being filled (the pusher's) */
	int count[TQ_CHUNKS];
	struct tl_item items[TQ_CHUNKS][TQ_CHUNK];
};

static void *run(void *arg)
{
	struct tl_queue *q = arg;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		int slot, n;

		while (q->taken == q->handed && !q->done)
			pthread_cond_wait(&q->cv, &q->mu);
		if (q->taken == q->handed)
			break;
		slot = (int)(q->taken % TQ_CHUNKS);
		n = q->count[slot];
		pthread_mutex_unlock(&q->mu);
		for (int i = 0; i < n; i++)
			q->take(q->ctx, &q->items[slot][i]);
		pthread_mutex_lock(&q->mu);
		q->taken++;
		pthread_cond_broadcast(&q->cv);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

struct tl_queue *tl_queue_start(void (*take)(void *ctx, const struct tl_item *it), void *ctx)
{
	struct tl_queue *q = xmalloc(sizeof(*q));

	q->take = take;
	q->ctx = ctx;
	q->handed = q->taken = 0;
	q->done = false;
	q->nfill = 0;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv, NULL);
	if (pthread_create(&q->thread, NULL, run, q)) {
		pthread_cond_destroy(&q->cv);
		pthread_mutex_destroy(&q->mu);
		free(q);
		return NULL;
	}
	return q;
}

/* The chunk being filled to the thread; then wait for the next one to be free. */
static void hand(struct tl_queue *q)
{
	pthread_mutex_lock(&q->mu);
	q->count[q->handed % TQ_CHUNKS] = q->nfill;
	q->handed++;
	pthread_cond_broadcast(&q->cv);
	while (q->handed - q->taken >= TQ_CHUNKS)
		pthread_cond_wait(&q->cv, &q->mu);
	pthread_mutex_unlock(&q->mu);
	q->nfill = 0;
}

void tl_queue_push(struct tl_queue *q, const struct tl_item *it)
{
	struct tl_item *to = &q->items[q->handed % TQ_CHUNKS][q->nfill++];

	if (it->blame.on) {
		*to = *it;
	} else { /* most have none: what comes before it, and that it has none */
		memcpy(to, it, offsetof(struct tl_item, blame));
		to->blame.on = false;
	}
	if (q->nfill == TQ_CHUNK)
		hand(q);
}

void tl_queue_finish(struct tl_queue *q)
{
	if (!q)
		return;
	if (q->nfill)
		hand(q);
	pthread_mutex_lock(&q->mu);
	q->done = true;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->thread, NULL);
	pthread_cond_destroy(&q->cv);
	pthread_mutex_destroy(&q->mu);
	free(q);
}
