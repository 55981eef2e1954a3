/* blame_irq.c - the interrupt handlers' stretches on each CPU (irq:irq_handler_entry/exit,
 * irq:softirq_entry/exit), named, for the blame analyzer (blame.h). */
#include <stdio.h>

#include "../common/util.h"
#include "blame.h"
#include "blame_int.h"

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
	"RCU",
};

static void add_piece(struct bl_cpu *c, uint64_t from, uint64_t to, int16_t irq, bool soft)
{
	if (to <= from)
		return;
	if (c->pn == c->pcap) {
		c->pcap = c->pcap ? 2 * c->pcap : 64;
		c->pc = xrealloc(c->pc, (size_t)c->pcap * sizeof(*c->pc));
	}
	c->pc[c->pn++] = (struct bl_piece){ from, to, irq, soft };
}

/* The row of an interrupt handler in the results (-1: beyond BLAME_IRQS). */
static int16_t irq_row(struct blame *b, bool soft, int32_t num, const char *name)
{
	struct blame_irq *q;

	for (int i = 0; i < b->r.nirqs; i++)
		if (b->r.irqs[i].soft == soft && b->r.irqs[i].num == num)
			return (int16_t)i;
	if (b->r.nirqs == BLAME_IRQS)
		return -1;
	q = &b->r.irqs[b->r.nirqs];
	q->soft = soft;
	q->num = num;
	if (soft && num >= 0 && (size_t)num < ARRAY_SIZE(softirq_names))
		snprintf(q->name, sizeof(q->name), "%s", softirq_names[num]);
	else if (soft)
		snprintf(q->name, sizeof(q->name), "vec %d", (int)num);
	else if (name && name[0])
		snprintf(q->name, sizeof(q->name), "%s", name);
	else
		snprintf(q->name, sizeof(q->name), "irq %d", (int)num);
	return (int16_t)b->r.nirqs++;
}

void bl_on_irq(struct blame *b, struct bl_cpu *c, const struct event *e)
{
	uint64_t t = e->time_ns;

	switch (e->type) {
	case EV_IRQ_ENTRY:
		if (c->soft_on) /* the softirq stops while the hardirq runs */
			add_piece(c, c->soft_since, t, c->soft_irq, true);
		c->hard_on = true;
		c->hard_since = t;
		c->hard_irq = irq_row(b, false, e->irq.num, e->irq.name);
		break;
	case EV_IRQ_EXIT:
		if (!c->hard_on)
			break; /* entered before the stream began */
		add_piece(c, c->hard_since, t, c->hard_irq, false);
		c->hard_on = false;
		c->soft_since = t;
		break;
	case EV_SOFTIRQ_ENTRY:
		c->soft_on = true;
		c->soft_since = t;
		c->soft_irq = irq_row(b, true, e->irq.num, NULL);
		break;
	case EV_SOFTIRQ_EXIT:
		if (c->soft_on && !c->hard_on)
			add_piece(c, c->soft_since, t, c->soft_irq, true);
		c->soft_on = false;
		break;
	default:
		break;
	}
}
