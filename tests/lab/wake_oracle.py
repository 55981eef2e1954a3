#!/usr/bin/env python3
"""wake_oracle.py - wakeups of a task tree by locality class, counted from `perf script` text
and the machine's sysfs, written from the kernel's tracepoints, not from locus's code.

A task is in the tree when it is the root (--root TID, the workload's first task) or was
forked by a task in it (sched_process_fork). A task runs from its switch-in until its
switch-out; any event a task emits proves it runs on that CPU (a switch-in the recording
lost). A sched_waking of a task of the tree that is not running is a wakeup: its waker's
CPU is the CPU that emitted it, the wakee's previous CPU its target_cpu field. The CPU
try_to_wake_up chose is where a sched_migrate_task of the wakee emitted on the waker's CPU
moved it, when no switch and no other waking came between on that CPU; otherwise (a later
migration, a load balance, or none before it ran) the previous CPU. The wakeup is placed
when that is known: at such a migration, or when the wakee next runs; one still pending at
the end, or at the task's exit, is not placed. A sched_waking of a running task counts apart.

Classes of (waker CPU, chosen CPU) from sysfs: same_cpu, smt (thread_siblings_list), llc
(cache index3 shared_cpu_list), node (/sys/devices/system/node), remote.

usage: perf script --ns -F pid,tid,cpu,time,event,trace -i FILE |
       wake_oracle.py --root TID [--sysfs /sys]
prints one JSON object: total, placed, woken_while_running, by_class, matrix (waker CPU
rows, chosen CPU columns), pairs ([{waker_tid, wakee_tid, wakeups, by_class}], the waker
being the task that emitted the sched_waking), tasks (the tree's size), events (lines read).
"""
import argparse
import json
import re
import sys

from sysfs_topo import CLASSES, Topology

LINE = re.compile(r"^\s*(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):\s*(.*)$")

FIELDS = {}


def field(rest, name):
    pat = FIELDS.get(name)
    if pat is None:
        pat = FIELDS[name] = re.compile(r"(?<![A-Za-z_])" + name + r"=(-?\d+)")
    m = pat.search(rest)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=int, required=True)
    ap.add_argument("--sysfs", default="/sys")
    a = ap.parse_args()
    topo = Topology(a.sysfs)
    ncpus, cls = topo.ncpus, topo.cls

    tree = {a.root}
    running = {}        # tid -> bool
    pending = {}        # tid -> dict(waker, prev, placed)
    last_waking = {}    # cpu -> wakee tid of the waking last seen there, until a switch
    pairs = {}          # (waker tid, wakee tid) -> placed wakeups by class
    out = {"total": 0, "placed": 0, "woken_while_running": 0, "events": 0,
           "by_class": {k: 0 for k in CLASSES},
           "matrix": [[0] * ncpus for _ in range(ncpus)]}

    def place(tid, target):
        p = pending.get(tid)
        if p is None or p["placed"]:
            return
        p["placed"] = True
        out["placed"] += 1
        k = cls(p["waker"], target)
        out["by_class"][k] += 1
        out["matrix"][p["waker"]][target] += 1
        pair = pairs.setdefault((p["waker_tid"], tid), {k: 0 for k in out["by_class"]})
        pair[k] += 1

    def runs(tid):
        """tid is seen on a CPU: a pending wakeup of it is placed where it was left."""
        if tid in tree and not running.get(tid):
            if tid in pending:
                place(tid, pending[tid]["prev"])
                del pending[tid]
            running[tid] = True

    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        out["events"] += 1
        tid, cpu, ev, rest = int(m.group(2)), int(m.group(3)), m.group(6), m.group(7)
        if ev == "sched:sched_switch":
            prev, nxt = field(rest, "prev_pid"), field(rest, "next_pid")
            runs(prev)
            running[prev] = False
            last_waking.pop(cpu, None)
            if nxt in tree:
                runs(nxt)
            continue
        if tid > 0:
            runs(tid)
        if ev == "sched:sched_waking":
            last_waking.pop(cpu, None)
            p = field(rest, "pid")
            if p not in tree:
                continue
            if running.get(p):
                out["woken_while_running"] += 1
                continue
            out["total"] += 1
            pending[p] = {"waker": cpu, "waker_tid": tid, "prev": field(rest, "target_cpu"),
                          "placed": False}
            last_waking[cpu] = p
        elif ev == "sched:sched_migrate_task":
            p = field(rest, "pid")
            if p in pending and not pending[p]["placed"]:
                dest = field(rest, "dest_cpu")
                place(p, dest if last_waking.get(cpu) == p else pending[p]["prev"])
        elif ev == "sched:sched_process_fork":
            if field(rest, "pid") in tree:
                tree.add(field(rest, "child_pid"))
        elif ev == "sched:sched_process_exit":
            pending.pop(field(rest, "pid"), None)
    out["tasks"] = len(tree)
    out["pairs"] = sorted(({"waker_tid": w, "wakee_tid": e, "wakeups": sum(c.values()),
                            "by_class": c} for (w, e), c in pairs.items()),
                          key=lambda x: -x["wakeups"])
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
