/* sink.c - the list of sinks a session feeds (sink.h). */
#include "sink.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stand_in.h"

void sinks_add(struct sinks *l, struct sink *k)
{
	if (l->n == SINKS_MAX) { /* a programming error: SINKS_MAX is the most a command builds */
		fprintf(stderr, "locus: more than %d sinks\n", SINKS_MAX);
		abort();
	}
	l->k[l->n++] = k;
}

void sinks_begin(struct sinks *l, const struct sink_begin *b)
{
	for (int i = 0; i < l->n; i++) {
		if (l->k[i]->begun)
			continue;
		if (l->k[i]->ops->begin)
			l->k[i]->ops->begin(l->k[i], b);
		l->k[i]->begun = true;
	}
}

void sinks_flush(struct sinks *l)
{
	for (int i = 0; i < l->n; i++) {
		struct sink *k = l->k[i];

		if (k->stood_in)
			continue;
		if (k->buf && k->buf->n) {
			k->ops->consume_batch(k, k->buf->ev, k->buf->n);
			k->buf->n = 0;
		}
		if (k->ops->flush)
			k->ops->flush(k);
	}
}

void sinks_snapshot(struct sinks *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->k[i]->ops->snapshot && !l->k[i]->stood_in)
			l->k[i]->ops->snapshot(l->k[i]);
}

void sinks_snapshot_tables(struct sinks *l, struct sched_results *dst)
{
	for (int i = 0; i < l->n; i++)
		if (l->k[i]->ops->snapshot_tables && !l->k[i]->stood_in)
			l->k[i]->ops->snapshot_tables(l->k[i], dst);
}

/* Last added first: a sink fed before the one it consults (the timeline before its judge)
 * finishes after it, told its last verdicts. */
void sinks_end(struct sinks *l, const struct sink_end *e)
{
	for (int i = 0; i < l->n; i++)
		if (l->k[i]->ops->end && !l->k[i]->stood_in)
			l->k[i]->ops->end(l->k[i], e);
}

void sinks_finish(struct sinks *l)
{
	for (int i = l->n - 1; i >= 0; i--)
		if (!l->k[i]->stood_in) /* its source completed its results */
			l->k[i]->ops->finish(l->k[i]);
}

void sinks_release(struct sinks *l)
{
	for (int i = 0; i < l->n; i++)
		l->k[i]->ops->release(l->k[i]);
	l->n = 0;
}

const struct sink *sinks_refusing(const struct sinks *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->k[i]->ops->every_event && !l->k[i]->ops->stand_in)
			return l->k[i];
	return NULL;
}

void sinks_stand_in(struct sinks *l, struct sink_stand_in *si, const struct sink_begin *b)
{
	memset(si, 0, sizeof(*si));
	for (int i = 0; i < l->n; i++) {
		struct sink *k = l->k[i];

		if (!k->ops->stand_in)
			continue; /* fed by another collector (memory samples), or refused before */
		k->ops->stand_in(k, si, b);
		k->stood_in = true;
	}
}

bool sinks_windowed(struct sinks *l, const struct event *e)
{
	uint64_t rel;

	if (e->type == EV_FORK || e->type == EV_EXIT)
		return false; /* trees are followed whatever the window */
	rel = e->time_ns > l->first_ns ? e->time_ns - l->first_ns : 0;
	if (rel >= l->from_ns && (!l->to_ns || rel <= l->to_ns))
		return false;
	l->windowed++;
	return true;
}

struct sink *sinks_raw(const struct sinks *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->k[i]->ops->record)
			return l->k[i];
	return NULL;
}
