/* event.h - the one decoded event stream every collector emits and every analyzer consumes. */
#ifndef LOCUS_EVENT_H
#define LOCUS_EVENT_H

#include <stdint.h>

#define TASK_COMM_LEN 16

enum event_type {
	EV_WAKING,	/* sched_waking: emitted by the waker, target_cpu = wakee's previous CPU */
	EV_WAKEUP,	/* sched_wakeup: target_cpu = the CPU chosen */
	EV_WAKEUP_NEW,	/* sched_wakeup_new: a new task placed */
	EV_SWITCH,	/* sched_switch */
	EV_MIGRATE,	/* sched_migrate_task */
	EV_FORK,	/* sched_process_fork (threads too) */
	EV_EXIT,	/* sched_process_exit */
	EV_IPI,		/* ipi:ipi_send_cpu: an IPI sent from cpu to ipi.cpu */
	EV_WAKE_IDLE,	/* sched_wake_idle_without_ipi: ipi.cpu, polling in idle, needed none */
	EV_LOST,	/* records the kernel dropped (PERF_RECORD_LOST) */
	EV_MEM,		/* a memory access sample (load latency, store, IBS op) */
	EV_COMM,	/* task tid (of process pid) is named comm from time_ns on: at exec, a
			 * rename, or (time 0) when the recording began (PERF_RECORD_COMM);
			 * cpu is where it was reported, not a CPU it runs on at time 0 */
	EV_IRQ_ENTRY,	/* irq:irq_handler_entry: a hardirq handler starts on cpu (irq.num, name) */
	EV_IRQ_EXIT,	/* irq:irq_handler_exit */
	EV_SOFTIRQ_ENTRY, /* irq:softirq_entry: softirq vector irq.num starts on cpu */
	EV_SOFTIRQ_EXIT,  /* irq:softirq_exit */
	EV_SETAFFINITY,	/* syscalls:sys_enter_sched_setaffinity: task tid asks to pin aff.pid
			 * (0: itself); the collector's, never a sink's (it becomes EV_AFFINITY) */
	EV_SETAFFINITY_RET, /* syscalls:sys_exit_sched_setaffinity: the call returned aff.ret */
	EV_AFFINITY,	/* task aff.pid may run on the CPUs of aff.mask from time_ns on (0:
			 * since before the trace began): read when tracing began, or as its
			 * sched_setaffinity returned (collectors/affinity.h); not a sign that
			 * any task runs on cpu */
	EV_TYPE_NR
};

/*
 * sched_switch's prev_state field as the tracepoint's format writes it (the perf stream
 * and files; include/trace/events/sched.h __trace_sched_switch_state, 4.15 and later):
 * 0 for R, else 1 << (state index - 1), and TASK_REPORT_MAX alone when the task was
 * preempted. The kernel counts a switch as involuntary (nivcsw, rusage's ru_nivcsw) when
 * it preempted the task or the task was still TASK_RUNNING: both report no state bit.
 */
#define TASK_REPORT_MAX 0x100		/* "R+": preempted */
#define SWITCH_STATE_MASK (TASK_REPORT_MAX - 1) /* the state bits: S, D, T, t, X, Z, P, I */
#define SWITCH_STATE_EXIT_DEAD 0x10	/* X: 1 << (fls(EXIT_DEAD) - 1) */
#define SWITCH_STATE_EXIT_ZOMBIE 0x20	/* Z */

/* An irq handler's name as irq_handler_entry carries it (request_irq's, e.g.
 * "virtio0-reporting_vq": longer than a comm), cut at 47 bytes; within the union's size. */
#define IRQ_NAME_LEN 48

struct event {
	uint64_t time_ns;
	int32_t cpu;	/* the CPU that emitted it */
	int32_t pid;	/* process (tgid) current on that CPU, from the sample */
	int32_t tid;	/* thread current on that CPU */
	uint16_t type;
	union {
		struct {
			int32_t pid;	/* the wakee (a thread id) */
			int32_t prio;
			int32_t target_cpu;
			char comm[TASK_COMM_LEN];
			uint32_t stack;	/* the waker's callchain (model/stack.h), 0: none */
		} wake;
		struct {
			int32_t prev_pid, next_pid;
			int16_t prev_prio, next_prio;	/* -1 .. 139 */
			uint32_t stack;	/* prev's callchain at the switch (model/stack.h),
					 * 0: none */
			int64_t prev_state;
			char prev_comm[TASK_COMM_LEN];
			char next_comm[TASK_COMM_LEN];
		} sw;
		struct {
			int32_t pid;
			int32_t orig_cpu, dest_cpu;
		} mig;
		struct {
			int32_t parent_pid, child_pid;
			char child_comm[TASK_COMM_LEN];
		} fork;
		struct {
			int32_t pid;
		} exit;
		struct {
			int32_t cpu;		/* the CPU the IPI (or the polling wakeup) went to */
			uint64_t callback;	/* EV_IPI: the function it asks for, 0 none
						 * (a reschedule IPI) */
		} ipi;
		struct {
			uint64_t lost;
		} lost;
		struct {
			int32_t num;		/* the irq number, or the softirq vector */
			char name[IRQ_NAME_LEN]; /* EV_IRQ_ENTRY: the handler's name */
		} irq;
		struct {
			char comm[TASK_COMM_LEN];
			uint8_t exec;	/* renamed by exec (PERF_RECORD_MISC_COMM_EXEC) */
		} comm;
		struct {
			int32_t pid;		/* the task (a thread id) */
			int32_t nwords;		/* EV_AFFINITY: words of mask */
			int64_t ret;		/* EV_SETAFFINITY_RET: the call's result */
			const uint64_t *mask;	/* EV_AFFINITY: CPU c allowed when bit c % 64 of
						 * word c / 64 is set, owned by the source for
						 * the session; NULL: unknown (gone when asked) */
		} aff;
		struct {
			uint64_t ip;		/* the instruction */
			uint64_t addr;		/* the data address, 0 when not captured */
			uint64_t phys_addr;
			uint64_t data_src;	/* perf_mem_data_src bits */
			uint64_t weight;	/* load latency in cycles (low 32 bits of WEIGHT_STRUCT) */
		} mem;
	};
};

/* True when a switch-out was involuntary: still runnable (R) or preempted (R+). */
/* The irq tracepoints' types: only the sinks that ask for them take them (sink.h). */
#define EV_IRQ_TYPES ((1u << EV_IRQ_ENTRY) | (1u << EV_IRQ_EXIT) | (1u << EV_SOFTIRQ_ENTRY) | \
		      (1u << EV_SOFTIRQ_EXIT))

static inline int event_switch_involuntary(const struct event *e)
{
	return (e->sw.prev_state & SWITCH_STATE_MASK) == 0;
}

/* True when it was the task's last switch-out: it exited (X or Z). */
static inline int event_switch_exited(const struct event *e)
{
	return (e->sw.prev_state & (SWITCH_STATE_EXIT_DEAD | SWITCH_STATE_EXIT_ZOMBIE)) != 0;
}

/* The IPI tracepoints' types: read with --ipis (a live collector) or in a recording. */
#define EV_IPI_TYPES ((1u << EV_IPI) | (1u << EV_WAKE_IDLE))

/* The syscall tracepoints the collector reads for EV_AFFINITY: no sink takes them. */
#define EV_SYSCALL_TYPES ((1u << EV_SETAFFINITY) | (1u << EV_SETAFFINITY_RET))

/* The tracepoint of a type ("sched_waking"), NULL for EV_LOST, EV_MEM, EV_COMM and
 * EV_AFFINITY. */
const char *event_type_name(enum event_type type);
/* Its tracepoint system: "sched", "ipi" for EV_IPI, "irq" for EV_IRQ_* and EV_SOFTIRQ_*,
 * "syscalls" for EV_SETAFFINITY* (NULL for EV_LOST, EV_MEM, EV_COMM and EV_AFFINITY). */
const char *event_type_system(enum event_type type);

/* A function events are handed to, one at a time: where a collector or the reorder window
 * delivers them (not a sink: pipeline/sink.h's sinks take them from a source). */
typedef void (*event_fn)(void *ctx, const struct event *e);

#endif
