/* procfs.h - what /proc says about a process: its threads and their switch counts. */
#ifndef LOCUS_PROCFS_H
#define LOCUS_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Thread ids of pid (from /proc/PID/task) into a malloc'ed array. Returns count or -errno. */
int proc_tids(pid_t pid, pid_t **tids);

/*
 * Sum voluntary_ctxt_switches and nonvoluntary_ctxt_switches over pid's
 * threads. Returns 0 or -errno.
 */
int proc_ctxt_switches(pid_t pid, double *voluntary, double *involuntary);

/*
 * CPU time (ns, /proc/PID/schedstat) and page faults (minor + major,
 * /proc/PID/stat) of one task so far. Returns 0 or -errno.
 */
int proc_task_usage(pid_t pid, double *runtime_ns, double *faults);

/* A task's name from /proc (any thread), into comm[len]; 0, or -1 when it is gone. */
int proc_comm(pid_t tid, char *comm, size_t len);
/*
 * A task's affinity (Cpus_allowed_list of /proc/TID/status) as a CPU mask of
 * nwords 64-bit words (CPUs beyond are left out). 0, or -1 when it is gone.
 */
int proc_affinity(pid_t tid, uint64_t *mask, int nwords);
/* The same as a CPU list ("0-3,8") into buf; 0, or -1 when it is gone. */
int proc_affinity_list(pid_t tid, char *buf, size_t len);
/*
 * Run the calling thread once on each of the n CPUs (then back on its own
 * mask): each records a switch, which shows whether it was idle.
 */
void visit_cpus(const int *cpus, int n);
/* Every task of the machine: fn(pid, tid, comm) for each thread of each process. Returns the count. */
int proc_each_task(void (*fn)(void *ctx, pid_t pid, pid_t tid, const char *comm), void *ctx);
/* Call fn for every file mapping of pid (/proc/PID/maps). Returns 0 or -errno. */
int proc_maps(pid_t pid, void (*fn)(void *ctx, uint64_t start, uint64_t end, uint64_t off,
				    const char *path),
	      void *ctx);

#endif
