#!/usr/bin/env python3
"""ipi_oracle.py - count, from `perf script` output of a recording, the remote wakeups of a
task tree that sent an IPI to the wakee's target CPU, by the kernel's own sequence, with
no locus code:

  try_to_wake_up on the waker's CPU c emits sched_waking (wakee w, target_cpu = the CPU
  w last ran on), then sched_migrate_task if select_task_rq chose another CPU (dest),
  then, before it returns, at most one ipi:ipi_send_cpu (a reschedule IPI or the
  wakelist's function call) or sched_wake_idle_without_ipi to the CPU chosen. So a
  wakeup's IPI is the first IPI event from c after its sched_waking, with no
  sched_waking or sched_switch on c in between, that goes to the chosen CPU t != c
  (the migration's dest, else the waking's target_cpu; sched_wakeup's target_cpu where
  the file has it) before w runs.

  Counted wakeups: sched_waking of a task of the tree (ROOT and its descendants through
  sched_process_fork) that was not running: its last sched_switch was not a switch-in,
  and it emitted no event since its last switch-out. w runs once it is switched in or
  emits any event (a record emitted in w's context proves w is current, even where the
  ring buffer lost the switch-in).

  Other IPIs: every ipi_send_cpu emitted while a task of the tree was current (the
  event's tid) that is none of those, by callback: 0x0 reschedule, else function call.

usage: perf script -i FILE -F comm,pid,tid,cpu,time,event,trace --ns | ipi_oracle.py ROOT
Prints one JSON object: {"wakeups", "ipi", "polling", "other_reschedule", "other_call"}.
"""
import json
import re
import sys

LINE = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+?):(\S+):\s*(.*)$")
READ = {"sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_switch", "sched_migrate_task",
        "sched_process_fork", "sched_process_exit", "ipi_send_cpu", "sched_wake_idle_without_ipi"}


def main():
    tree = {int(sys.argv[1])}
    running, pending, target = set(), set(), {}
    armed = {}  # CPU -> wakee of the traced wakeup it made last, until its next IPI event
    n = dict(wakeups=0, ipi=0, polling=0, other_reschedule=0, other_call=0)
    for line in sys.stdin:
        m = LINE.match(line)
        if not m or m.group(8) not in READ:
            continue
        cpu, tid, ev = int(m.group(4)), int(m.group(3)), m.group(8)
        f = dict(re.findall(r"(\w+)=(\S*)", m.group(9)))
        if tid in tree and ev != "sched_switch":
            running.add(tid)  # current on this CPU
            pending.discard(tid)
        if ev == "sched_process_fork":
            if int(f["pid"]) in tree:
                tree.add(int(f["child_pid"]))
        elif ev == "sched_switch":
            armed.pop(cpu, None)
            prev, nxt = int(f["prev_pid"]), int(f["next_pid"])
            running.discard(prev)
            pending.discard(prev)  # it ran: it is switched out
            if nxt in tree:
                running.add(nxt)
                pending.discard(nxt)
        elif ev == "sched_waking":
            armed.pop(cpu, None)
            w = int(f["pid"])
            if w in tree and w not in running:
                n["wakeups"] += 1
                pending.add(w)
                target[w] = int(f["target_cpu"])
                armed[cpu] = w
        elif ev == "sched_migrate_task":
            w = int(f["pid"])
            if armed.get(cpu) == w:  # set_task_cpu in the wakeup, on the waker's CPU
                target[w] = int(f["dest_cpu"])
        elif ev == "sched_wakeup":
            w = int(f["pid"])
            if w in pending:
                target[w] = int(f["target_cpu"])
        elif ev in ("ipi_send_cpu", "sched_wake_idle_without_ipi"):
            w, d = armed.pop(cpu, None), int(f["cpu"])
            if w is not None and w in pending and d == target[w] and d != cpu:
                n["ipi" if ev == "ipi_send_cpu" else "polling"] += 1
            elif ev == "ipi_send_cpu" and tid in tree:
                # a symbol where perf resolves it (perf record keeps kallsyms), else hex
                none = f["callback"] in ("0x0", "0", "(nil)")
                n["other_reschedule" if none else "other_call"] += 1
    print(json.dumps(n))


if __name__ == "__main__":
    main()
