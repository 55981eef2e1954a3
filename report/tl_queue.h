/*
 * tl_queue.h - a timeline's items handed, in order, to a second thread that takes each
 * (a timeline sink: timeline_cfg.emit), so that formatting and writing them runs beside
 * the pass that makes them. Items go over in chunks; the pass waits only when the thread
 * is a whole queue behind.
 */
#ifndef LOCUS_TL_QUEUE_H
#define LOCUS_TL_QUEUE_H

#include "../analyzers/timeline.h"

struct tl_queue;

/* A thread calling take(ctx, item) for every item pushed, in their order. NULL when no
 * thread could be started (the caller then takes the items itself). */
struct tl_queue *tl_queue_start(void (*take)(void *ctx, const struct tl_item *it), void *ctx);
/* it (copied) to the thread. */
void tl_queue_push(struct tl_queue *q, const struct tl_item *it);
/* Every item pushed taken, the thread ended, q freed (NULL: nothing). After it, what
 * take wrote is the caller's to read. */
void tl_queue_finish(struct tl_queue *q);

#endif
