/* event.c - the tracepoint name of each event type. */
#include "event.h"

#include <stddef.h>

static const char *const names[EV_TYPE_NR] = {
	[EV_WAKING] = "sched_waking",	    [EV_WAKEUP] = "sched_wakeup",
	[EV_WAKEUP_NEW] = "sched_wakeup_new", [EV_SWITCH] = "sched_switch",
	[EV_MIGRATE] = "sched_migrate_task", [EV_FORK] = "sched_process_fork",
	[EV_EXIT] = "sched_process_exit",   [EV_IPI] = "ipi_send_cpu",
	[EV_WAKE_IDLE] = "sched_wake_idle_without_ipi",
	[EV_IRQ_ENTRY] = "irq_handler_entry", [EV_IRQ_EXIT] = "irq_handler_exit",
	[EV_SOFTIRQ_ENTRY] = "softirq_entry", [EV_SOFTIRQ_EXIT] = "softirq_exit",
	[EV_SETAFFINITY] = "sys_enter_sched_setaffinity",
	[EV_SETAFFINITY_RET] = "sys_exit_sched_setaffinity",
};

const char *event_type_name(enum event_type type)
{
	return type < EV_TYPE_NR ? names[type] : NULL;
}

const char *event_type_system(enum event_type type)
{
	if (!event_type_name(type))
		return NULL;
	if (type == EV_IPI)
		return "ipi";
	if (EV_SYSCALL_TYPES >> type & 1)
		return "syscalls";
	return EV_IRQ_TYPES >> type & 1 ? "irq" : "sched";
}
