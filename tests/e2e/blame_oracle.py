#!/usr/bin/env python3
"""blame_oracle.py - who delayed the wakee, counted from `perf script` of a file.

Written apart from locus's analyzer: the whole trace is read first, each CPU's runs and
interrupt handler stretches are built as interval lists, then each timed wakeup's wait is
cut against them (locus works as a stream, with a history it prunes). The rules are the
ones man/locus-report.1 states: a task runs on a CPU from its switch-in (or, where the
switch was not recorded, from its first event there; the idle task to its last event)
to its switch-out; handler time comes off the task it interrupted, a hardirq inside a
softirq counts once; a move after the wakeup other than try_to_wake_up's own (the waker,
on its CPU, not switched out since, before sched_wakeup) ends a wait elsewhere; chains
are distinct tasks, restarted where they come back to a task, the idle task no link.

Input: perf script --ns -F pid,tid,cpu,time,event,trace on stdin.
Usage: blame_oracle.py [--pid P,...]   (follow them and their children; default every task)
Output: one JSON object.
"""
import bisect
import json
import re
import sys

LINE = re.compile(r"^\s*(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):\s?(.*)$")
CHAIN_MAX = 8


FMT = {
    "sched_switch": re.compile(r"prev_comm=(.*) prev_pid=(-?\d+) prev_prio=\S+ "
                               r"prev_state=(\S+) ==> next_comm=(.*) next_pid=(-?\d+)"),
    "sched_waking": re.compile(r"comm=(.*) pid=(\d+) prio=\S+ target_cpu=(\d+)"),
    "sched_wakeup": re.compile(r"comm=(.*) pid=(\d+) prio=\S+ target_cpu=(\d+)"),
    "sched_migrate_task": re.compile(r"comm=(.*) pid=(\d+) prio=\S+ orig_cpu=(\d+) "
                                     r"dest_cpu=(\d+)"),
    "sched_process_fork": re.compile(r"comm=(.*) pid=(\d+) child_comm=(.*) child_pid=(\d+)"),
    "irq_handler_entry": re.compile(r"irq=(\d+) name=(\S*)"),
    "irq_handler_exit": re.compile(r"irq=(\d+)"),
    "softirq_entry": re.compile(r"vec=(\d+) \[action=(\w+)\]"),
    "softirq_exit": re.compile(r"vec=(\d+)"),
    # no field read: these show only which task runs on their CPU (as every event does)
    "sched_wakeup_new": re.compile(r""),
    "sched_process_exit": re.compile(r""),
    "sched_wake_idle_without_ipi": re.compile(r""),
    "ipi_send_cpu": re.compile(r""),
}


def fields(name, body):
    m = FMT[name].match(body)
    g = m.groups()
    if name == "sched_switch":
        return {"prev_comm": g[0], "prev_pid": int(g[1]), "prev_state": g[2],
                "next_comm": g[3], "next_pid": int(g[4])}
    if name in ("sched_waking", "sched_wakeup"):
        return {"comm": g[0], "pid": int(g[1])}
    if name == "sched_migrate_task":
        return {"pid": int(g[1])}
    if name == "sched_process_fork":
        return {"pid": int(g[1]), "child_pid": int(g[3])}
    if name == "irq_handler_entry":
        return {"name": g[1] or "irq " + g[0]}
    if name == "softirq_entry":
        return {"action": g[1]}
    return {}


def read(f):
    ev = []
    for n, line in enumerate(f):
        m = LINE.match(line)
        if not m:
            continue
        name = m.group(6).split(":")[-1]
        if name not in FMT:
            continue
        t = int(m.group(4)) * 1000000000 + int(m.group(5).ljust(9, "0")[:9])
        ev.append((t, n, int(m.group(1)), int(m.group(2)), int(m.group(3)), name,
                   fields(name, m.group(7))))
    ev.sort(key=lambda e: (e[0], e[1]))
    return ev


class Cpu:
    def __init__(self):
        self.cur, self.since, self.seen, self.known, self.switches = -1, 0, 0, False, 0
        self.segs = []  # (from, to, tid, comm)
        self.pieces = []  # (from, to, soft, name)
        self.comm = ""
        self.hard = None  # (since, name)
        self.soft = None  # [since, name]

    def close(self, to):
        if self.known and to > self.since:
            self.segs.append((self.since, to, self.cur, self.comm))


def main():
    track = None
    if "--pid" in sys.argv:
        track = {int(p) for p in sys.argv[sys.argv.index("--pid") + 1].split(",")}
    ev = read(sys.stdin)
    waking_source = any(e[5] == "sched_waking" for e in ev)
    cpus, comm, running, pending, live = {}, {}, set(), {}, {}
    wakeups = []  # (tid, wake, q, run, cpu, waker_cpu, elsewhere, path)
    chain_len = [0] * (CHAIN_MAX + 1)
    for t, _, pid, tid, c, name, f in ev:
        cp = cpus.setdefault(c, Cpu())
        if name != "sched_switch" and tid >= 0 and cp.known:
            if cp.cur != tid:  # its switch-in was not recorded
                cp.close(cp.seen if cp.cur == 0 else t)
                cp.cur, cp.since, cp.comm = tid, t, comm.get(tid, "")
            cp.seen = t
        own_wake = name in ("sched_waking", "sched_wakeup") and f["pid"] == tid
        if name != "sched_switch" and tid > 0 and not own_wake:
            p = pending.get(tid)
            if p and t >= p["wake"]:
                del pending[tid]  # seen running: not timed
            running.add(tid)
        if name == "irq_handler_entry":
            if cp.soft:
                cp.pieces.append((cp.soft[0], t, True, cp.soft[1]))
            cp.hard = (t, f["name"])
        elif name == "irq_handler_exit":
            if cp.hard:
                cp.pieces.append((cp.hard[0], t, False, cp.hard[1]))
                cp.hard = None
                if cp.soft:
                    cp.soft[0] = t
        elif name == "softirq_entry":
            cp.soft = [t, f["action"]]
        elif name == "softirq_exit":
            if cp.soft and not cp.hard:
                cp.pieces.append((cp.soft[0], t, True, cp.soft[1]))
            cp.soft = None
        elif name == "sched_process_fork":
            if track is not None and f["pid"] in track:
                track.add(f["child_pid"])
        elif name == ("sched_waking" if waking_source else "sched_wakeup"):
            w = f["pid"]
            comm[w] = f["comm"]
            if (track is not None and w not in track) or w in running:
                continue
            if tid <= 0:
                path = []
            elif live.get(tid) and tid != w:
                path = [list(l) for l in live[tid]]  # its links copied: a restart below zeroes one
            else:
                path = [[tid, comm.get(tid, cp.comm if cp.cur == tid else ""), 0]]
            cut = max([i + 1 for i, l in enumerate(path) if l[0] == w] or [0])
            if len(path) == CHAIN_MAX and not cut:
                cut = 1
            if cut:
                path = path[cut:]
                if path:
                    path[0][2] = 0
            path.append([w, comm.get(w, ""), 0])
            pending[w] = {"wake": t, "q": t, "else": 0, "waker": tid, "wcpu": c,
                          "wsw": cp.switches, "seen": False, "path": path}
        elif name == "sched_wakeup":
            p = pending.get(f["pid"])
            if p:
                p["seen"] = True
        elif name == "sched_migrate_task":
            p = pending.get(f["pid"])
            if not p:
                continue
            if (not p["seen"] and c == p["wcpu"] and tid == p["waker"]
                    and cpus[c].switches == p["wsw"]):
                continue  # try_to_wake_up placing it
            if t > p["q"]:
                p["else"] += t - p["q"]
                p["q"] = t
        elif name == "sched_switch":
            prev, nxt = f["prev_pid"], f["next_pid"]
            if cp.known and cp.cur != prev:
                cp.close(cp.seen if cp.cur == 0 else t)
                cp.cur, cp.since, cp.comm = prev, t, comm.get(prev, "")
            cp.close(t)
            if prev > 0:
                comm[prev] = f["prev_comm"]
                running.discard(prev)
                if not f["prev_state"].startswith("R"):
                    live[prev] = None
            cp.known, cp.cur, cp.comm = True, nxt, f["next_comm"]
            cp.since = cp.seen = t
            cp.switches += 1
            if nxt > 0:
                comm[nxt] = f["next_comm"]
                running.add(nxt)
            p = pending.pop(nxt, None) if nxt > 0 else None
            if not p or t < p["wake"]:
                continue
            path = p["path"]
            path[-1][2] = t - p["wake"]
            chain_len[len(path)] += 1
            live[nxt] = path
            wakeups.append((nxt, p["wake"], p["q"], t, c, p["wcpu"], p["else"],
                            [list(l) for l in path]))
    return judge(cpus, wakeups, chain_len)


def overlap(a0, a1, b0, b1):
    return max(0, min(a1, b1) - max(a0, b0))


def judge(cpus, wakeups, chain_len):
    causes = dict.fromkeys(["running", "ahead", "hardirq", "softirq", "elsewhere",
                            "cpu_idle", "unattributed"], 0)
    tasks, irqs, waits, per, delayed = {}, {}, [], [], {}
    starts = {c: [s[0] for s in cp.segs] for c, cp in cpus.items()}
    pstarts = {c: [p[0] for p in cp.pieces] for c, cp in cpus.items()}
    for tid, wake, q, run, c, wcpu, elsewhere, path in wakeups:
        cp = cpus[c]
        mine = {}
        i = max(0, bisect.bisect_right(starts[c], q) - 1)
        net = []
        while i < len(cp.segs) and cp.segs[i][0] < run:
            s = cp.segs[i]
            ov = overlap(s[0], s[1], q, run)
            if ov:
                net.append([s, ov])
            i += 1
        k = max(0, bisect.bisect_right(pstarts[c], q) - 1)
        irq = 0
        while k < len(cp.pieces) and cp.pieces[k][0] < run:
            p = cp.pieces[k]
            ov = overlap(p[0], p[1], q, run)
            k += 1
            if not ov:
                continue
            causes["softirq" if p[2] else "hardirq"] += ov
            irqs[p[3]] = irqs.get(p[3], 0) + ov
            irq += ov
            lo = max(p[0], q)
            for n in net:
                if n[0][0] <= lo < n[0][1]:
                    n[1] -= min(ov, n[1])
                    break
        ran = 0
        for s, ns in net:
            if s[2] == tid or not ns:
                continue
            ran += ns
            if s[2] == 0:
                causes["cpu_idle"] += ns
                continue
            causes["running" if s[0] <= q else "ahead"] += ns
            tasks[s[2]] = tasks.get(s[2], 0) + ns
            mine[s[2]] = mine.get(s[2], 0) + ns
        for k in mine:
            delayed[k] = delayed.get(k, 0) + 1
        causes["elsewhere"] += elsewhere
        causes["unattributed"] += max(0, (run - q) - ran - irq)
        waits.append(run - wake)
        per.append((run - wake, mine))
    comp = sorted((sum(l[2] for l in w[7]) for w in wakeups if len(w[7]) >= 3),
                  reverse=True)[:5]
    out = {"wakeups": len(wakeups), "wait_ns": sum(causes.values()), "causes": causes,
           "tasks": {str(k): v for k, v in tasks.items()}, "irqs": irqs,
           "task_wakeups": {str(k): v for k, v in delayed.items()},
           "chain_len": chain_len, "worst_compound_ns": comp}
    if waits:  # the p99 wakeups: wait >= the smallest w with 99% of the waits <= w
        s = sorted(waits)
        p99 = s[-(len(s) - (len(s) * 99 + 99) // 100) - 1]
        out["p99_ns"] = p99
        share = {}
        for w, mine in per:
            if w >= p99:
                for k, v in mine.items():
                    share[str(k)] = share.get(str(k), 0) + v
        out["p99_tasks"] = share
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    print()
