#!/usr/bin/env python3
"""idle_oracle.py - idle CPUs passed over, counted from `perf script` of a file, every task
tracked (locus report -a), written from the kernel's events, not from locus's code:

- a CPU is idle from a switch to pid 0 until its next event of a task (a sample whose tid
  perf gives as -1, emitted while an exiting task is current, names no task and changes
  nothing); when that is a
  switch away from pid 0, idle until it; otherwise (a task's event, a switch-out or a
  wakeup it made, with no switch to it recorded: the switch-in is inferred) idle until the
  last event pid 0 emitted there, the time from then to the task's event unknown, not idle;
  an idle period still open at the end lasts to the end;
- a wakeup (sched_waking of a task not running) is timed when the task's recorded switch-in
  comes after it; its target is the CPU the kernel chose in that try_to_wake_up: where the
  sched_migrate_task of the wakee that comes next on the waker's CPU moved it (set_task_cpu
  in the same call), else its previous CPU (the waking's target_cpu); a migration later (a
  load balance of the queued task) is not the wakeup's choice; a task seen running by its
  own event first is not timed;
- passed over: the target was not idle throughout from the wakeup to the run, and another
  CPU was idle at the wakeup or at the run (every CPU allowed: a file has no affinity);
- idle wait: the time of the wait during which at least one other CPU was idle.

With --tree PID, only the wakeups of PID and the tasks it forked (sched_process_fork) are
timed. With --pinned CPUS (a list as taskset takes it), those tasks start pinned there, and a
sys_enter_sched_setaffinity naming one (its pid field; 0: the caller) lets it go to every
CPU from then on (the scenario of idle.sh's same-run test: taskset -a -p of the tree); a
wakeup of a pinned task whose only idle CPUs were outside its mask is "not allowed", not
passed over.

usage: perf script --ns -F tid,cpu,time,event,trace -i FILE |
       idle_oracle.py [--passed OUT] [--tree PID [--pinned CPUS]]
prints one JSON object: timed, passed, idle_wait_ns, inferred, unknown_ns (and not_allowed
with --pinned); with --passed, OUT gets one line "tid run_ns" per wakeup passed over (a
trace's flows are checked with it).
"""
import bisect
import json
import re
import sys

LINE = re.compile(r"^\s*(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):\s*(.*)$")


def field(rest, name):
    m = re.search(r"(?<![A-Za-z_])" + name + r"=(-?\d+)", rest)
    return int(m.group(1)) if m else None


def cpu_list(text):
    cpus = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def options(argv):
    opt = {"passed": None, "tree": None, "pinned": None}
    i = 1
    while i + 1 < len(argv):
        opt[argv[i].lstrip("-")] = argv[i + 1]
        i += 2
    if opt["tree"]:
        opt["tree"] = int(opt["tree"])
    if opt["pinned"]:
        opt["pinned"] = cpu_list(opt["pinned"])
    return opt


def main():
    opt = options(sys.argv)
    tree = {opt["tree"]} if opt["tree"] else None  # the tasks followed (None: every one)
    released = {}  # tid -> time its pinning ended (a sched_setaffinity naming it)
    curr = {}      # cpu -> tid running (0 idle), absent: unknown
    opened = {}    # cpu -> [start, last pid-0 event] of its open idle period
    hist = {}      # cpu -> closed idle periods [(start, end)]
    running = {}   # tid -> bool
    pending = {}   # tid -> [wake, target]
    waking_on = {} # cpu -> the wakee of a sched_waking that was its last event
    timed = []     # (wake, run, target, tid)
    inferred = unknown = 0

    def enter(cpu, t):
        if cpu in opened:
            opened[cpu][1] = t
        else:
            opened[cpu] = [t, t]

    def leave(cpu, t, recorded):
        if cpu not in opened:
            return 0
        s, last = opened.pop(cpu)
        end = t if recorded else last
        hist.setdefault(cpu, []).append((s, end))
        return t[0] - end[0]

    def current(cpu, tid, t):
        nonlocal inferred, unknown
        if tid < 0:
            return  # perf could not name the task (one exiting in the switch path): no news
        if tid == 0:
            enter(cpu, t)
            curr[cpu] = 0
        elif curr.get(cpu) != tid:
            if cpu in curr and tid > 0:
                inferred += 1
                if curr[cpu] == 0:
                    unknown += leave(cpu, t, False)
            curr[cpu] = tid
        if tid > 0 and not running.get(tid):
            running[tid] = True
            pending.pop(tid, None)  # running with no switch-in: not timed

    span = [None, None]
    for seq, line in enumerate(sys.stdin):
        m = LINE.match(line)
        if not m:
            continue
        tid, cpu = int(m.group(1)), int(m.group(2))
        # an instant is (time, place in the file): events of the same nanosecond on two
        # CPUs are ordered as the file has them (a CPU that left idle at the wakeup's
        # nanosecond, before it, was not idle at the wakeup)
        t = (int(m.group(3)) * 1000000000 + int(m.group(4).ljust(9, "0")[:9]), seq)
        name, rest = "sched:" + m.group(5).split(":")[-1], m.group(6)
        span = [span[0] if span[0] is not None else t[0], t[0]]
        woke = waking_on.pop(cpu, None)  # the wakee of the waking just before, on this CPU
        if name == "sched:sched_switch":
            prev, nxt = field(rest, "prev_pid"), field(rest, "next_pid")
            current(cpu, prev, t)
            if nxt > 0 and nxt in pending:
                wake, target = pending.pop(nxt)
                if t[0] >= wake[0]:
                    timed.append((wake, t, target, nxt))
            if prev > 0:
                running[prev] = False
            curr[cpu] = nxt
            if nxt == 0:
                enter(cpu, t)
            else:
                leave(cpu, t, True)
                running[nxt] = True
            continue
        current(cpu, tid, t)
        if name == "sched:sys_enter_sched_setaffinity":
            m = re.search(r"pid: 0x([0-9a-f]+)", rest)
            target = int(m.group(1), 16) if m else -1
            target = target or tid
            released.setdefault(target, t)
        elif name == "sched:sched_process_fork":
            if tree is not None and field(rest, "pid") in tree:
                tree.add(field(rest, "child_pid"))
        if name == "sched:sched_waking":
            wakee = field(rest, "pid")
            if wakee > 0 and not running.get(wakee) and (tree is None or wakee in tree):
                pending[wakee] = [t, field(rest, "target_cpu")]
                waking_on[cpu] = wakee
        elif name == "sched:sched_migrate_task":
            p = field(rest, "pid")
            if p == woke and p in pending:  # set_task_cpu in the same try_to_wake_up
                pending[p][1] = field(rest, "dest_cpu")
        elif name == "sched:sched_process_exit":
            pending.pop(field(rest, "pid"), None)

    end = (float("inf"), 0)
    for cpu, (s, last) in opened.items():  # idle to the end
        hist.setdefault(cpu, []).append((s, end))
    starts = {c: [a for a, _ in h] for c, h in hist.items()}

    def around(cpu, x):
        """the end of cpu's idle period around time x, or None"""
        i = bisect.bisect_right(starts.get(cpu, []), x) - 1
        if i >= 0 and hist[cpu][i][1] >= x:
            return hist[cpu][i][1]
        return None

    passed = wait = not_allowed = 0
    passed_list = []
    for wake, run, target, tid in timed:
        e = around(target, wake)
        if e is not None and e >= run:
            continue  # the target idled from the wakeup to the run
        idle = [c for c in hist if c != target and
                (around(c, wake) is not None or around(c, run) is not None)]
        if not idle:
            continue
        pinned = opt["pinned"] is not None and (tid not in released or released[tid] > wake)
        if pinned and not any(c in opt["pinned"] for c in idle):
            not_allowed += 1
            continue
        others = [c for c in hist if c != target and (not pinned or c in opt["pinned"])]
        passed += 1
        passed_list.append((tid, run[0]))
        spans = []
        for c in others:
            i = max(bisect.bisect_right(starts[c], wake) - 1, 0)
            while i < len(hist[c]) and hist[c][i][0] <= run:
                lo, hi = max(hist[c][i][0][0], wake[0]), min(hist[c][i][1][0], run[0])
                if lo <= hi:
                    spans.append((lo, hi))
                i += 1
        spans.sort()
        lo = hi = None
        for a, b in spans:
            if hi is None or a > hi:
                if hi is not None:
                    wait += hi - lo
                lo, hi = a, b
            elif b > hi:
                hi = b
        if hi is not None:
            wait += hi - lo
    if opt["passed"]:
        with open(opt["passed"], "w") as f:
            f.writelines("%d %d\n" % p for p in passed_list)
    out = {"timed": len(timed), "passed": passed, "idle_wait_ns": int(wait),
           "inferred": inferred, "unknown_ns": unknown}
    if opt["pinned"] is not None:
        out["not_allowed"] = not_allowed
        out["span_ns"] = span[1] - span[0] if span[0] is not None else 0
        out["ncpus"] = len(hist)
    print(json.dumps(out))


main()
