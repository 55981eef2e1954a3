#!/usr/bin/env python3
"""trace_check.py - check a Chrome trace-event JSON file against the format's documented
rules (the Trace Event Format document that chrome://tracing and the Perfetto UI follow),
and, given `perf script` output of the same recording, against perf's own decoding:

  format:  a {"traceEvents": [...]} object; every event has a known phase and the fields
           that phase requires (X: name, ts, dur >= 0, pid, tid; s/f: id, cat, name, ts,
           pid, tid, and f binds with "bp":"e"; i: scope s in g/p/t; C: name and numeric
           args; M: process_name / thread_name / thread_sort_index with args); each flow id
           has one start and one finish, the finish not before the start; on every track
           the complete events are in time order and do not overlap; every track used
           is named.
  oracle:  (with --perf-script FILE [--from S --to S]) the running periods that begin in
           the window are perf's switch-ins to a task (next_pid != 0) in the window, one
           for one, on the same CPU at the same nanosecond with the same name; the flows
           are perf's wakeups (sched_waking or sched_wakeup of a task not running) whose
           task then switched in, both inside the window. A sample by another task than
           the one its CPU last switched to marks a switch-in the kernel did not record:
           the trace's period marked "start" begins there (same CPU, ns, tid and the
           sample's comm: perf's name for the task then), and that wakeup makes no flow.
           With --show-task-events, a PERF_RECORD_COMM of the running task that changes
           its name (exec, a rename) ends its period and begins one under the new name
           (start "exec" or "renamed", same CPU and ns).

usage: trace_check.py TRACE.json [--perf-script FILE] [--from S] [--to S]
Prints a summary line; exits 1 with the first violation.
"""
import argparse
import collections
import json
import re
import sys

PHASES = {"X", "s", "f", "i", "C", "M"}


def fail(msg):
    print("trace_check: " + msg)
    sys.exit(1)


def ns(ts):
    """ts in microseconds (a JSON number) to integer ns"""
    return int(round(float(ts) * 1000))


def check_format(doc):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("not a {\"traceEvents\": [...]} object")
    evs = doc["traceEvents"]
    flows = collections.defaultdict(lambda: {"s": [], "f": []})
    tracks = collections.defaultdict(list)
    named = set()
    used = set()
    for i, e in enumerate(evs):
        ph = e.get("ph")
        if ph not in PHASES:
            fail("event %d: unknown phase %r" % (i, ph))
        need = {"X": ("name", "ts", "dur", "pid", "tid"), "s": ("id", "cat", "name", "ts", "pid", "tid"),
                "f": ("id", "cat", "name", "ts", "pid", "tid", "bp"), "i": ("name", "ts", "pid", "tid", "s"),
                "C": ("name", "ts", "pid", "args"), "M": ("name", "pid", "args")}[ph]
        for k in need:
            if k not in e:
                fail("event %d (%s): no %r" % (i, ph, k))
        if ph in "Xsfi":
            if not isinstance(e["pid"], int) or not isinstance(e["tid"], int):
                fail("event %d: pid and tid must be integers" % i)
            used.add((e["pid"], e["tid"]))
        if ph == "X":
            if e["dur"] < 0:
                fail("event %d: negative duration" % i)
            tracks[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["dur"]), i))
        elif ph in "sf":
            flows[e["id"]][ph].append(ns(e["ts"]))
            if ph == "f" and e["bp"] != "e":
                fail("event %d: a flow finish binds with bp \"e\"" % i)
        elif ph == "i" and e["s"] not in ("g", "p", "t"):
            fail("event %d: instant scope %r" % (i, e["s"]))
        elif ph == "C":
            if not e["args"] or not all(isinstance(v, (int, float)) for v in e["args"].values()):
                fail("event %d: a counter's args must be numbers" % i)
        elif ph == "M":
            if e["name"] not in ("process_name", "thread_name", "thread_sort_index", "process_sort_index"):
                fail("event %d: metadata %r" % (i, e["name"]))
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
    for fid, p in flows.items():
        if len(p["s"]) != 1 or len(p["f"]) != 1:
            fail("flow %r: %d starts and %d finishes" % (fid, len(p["s"]), len(p["f"])))
        if p["f"][0] < p["s"][0]:
            fail("flow %r finishes before it starts" % fid)
    for tr, xs in tracks.items():
        xs.sort()
        for (t0, d0, i0), (t1, _d1, i1) in zip(xs, xs[1:]):
            if t0 + d0 > t1:
                fail("track %r: events %d and %d overlap (%d + %d > %d)" % (tr, i0, i1, t0, d0, t1))
    if used - named:
        fail("tracks without a name: %r" % sorted(used - named)[:5])
    return evs, tracks, flows


LINE = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+?):(\S+):\s*(.*)$")
# perf script --show-task-events: "sleep 28040/28040 [000] 1759.446728415: PERF_RECORD_COMM exec: sleep:28040/28040"
COMM_LINE = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+PERF_RECORD_COMM( exec)?: (.*):(-?\d+)/(-?\d+)$")


def perf_events(path):
    """(time_ns, cpu, event, fields, tid, comm) from `perf script -F comm,pid,tid,cpu,time,event,trace
    --ns [--show-task-events]`: comm is the sample's (perf's name of the task then); a
    PERF_RECORD_COMM is event "COMM" with fields {"comm", "exec"}"""
    out = []
    for line in open(path, errors="replace"):
        m = COMM_LINE.match(line.rstrip("\n"))
        if m:
            t = int(m.group(5)) * 10**9 + int(m.group(6).ljust(9, "0")[:9])
            out.append((t, int(m.group(4)), "COMM", {"comm": m.group(8), "exec": bool(m.group(7))},
                        int(m.group(10)), m.group(8)))
            continue
        m = LINE.match(line)
        if not m:
            continue
        t = int(m.group(5)) * 10**9 + int(m.group(6).ljust(9, "0")[:9])
        f = dict(re.findall(r"(\w+)=(\S*)", m.group(9)))
        comm = re.search(r"next_comm=(.*?) next_pid=", m.group(9))
        if comm:
            f["next_comm"] = comm.group(1)
        out.append((t, int(m.group(4)), m.group(8), f, int(m.group(3)), m.group(1)))
    return out


# the tracepoints locus reads (model/event.h); perf sched record adds others
READ = {"sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_switch", "sched_migrate_task",
        "sched_process_fork", "sched_process_exit", "ipi_send_cpu", "sched_wake_idle_without_ipi"}


def check_oracle(evs, flows, perf, t_from, t_to):
    """What perf's decoding says the trace must hold. A sample by a task other than the
    one its CPU last switched to means the switch-in was not recorded: that task runs
    from there (an "inferred" period, matched by CPU, time and tid), and its wakeup
    makes no flow."""
    if not perf:
        fail("no events in the perf script output")
    # time 0 of --from/--to: the first event locus reads (perf sched record's
    # sched_stat_* events can come before it)
    first = min((e[0] for e in perf if e[2] in READ), default=0)
    lo = first + t_from
    hi = first + t_to if t_to else None
    inw = lambda t: t >= lo and (hi is None or t <= hi)
    want = collections.Counter()
    want_inf = collections.Counter()
    want_ren = collections.Counter()
    inf_names = {}  # an inferred period -> the names perf script gives its task there
    tp = {}         # tid -> its name in the latest tracepoint field that carried it
    cur = {}        # cpu -> (tid, start, inferred, names)
    pending = {}    # tid -> time of its first wakeup since it last ran
    unseen = set()  # tids whose switch-out was not recorded, not seen since: maybe running
    want_flows = 0

    def end(cpu, t):
        tid, start, inferred, names = cur.get(cpu, (0, 0, False, ""))
        if tid > 0 and inferred and t > start and inw(start):
            want_inf[(cpu, start, tid)] += 1
            inf_names[(cpu, start, tid)] = names

    for t, cpu, ev, f, etid, comm in sorted(perf, key=lambda x: x[0]):
        if ev == "COMM":
            # renamed while running (exec, prctl): a new period under the new name
            if cpu in cur and cur[cpu][0] == etid > 0 and f["comm"] not in cur[cpu][3] and t >= cur[cpu][1]:
                end(cpu, t)
                cur[cpu] = (etid, t, False, {f["comm"]})
                if inw(t):
                    want_ren[(cpu, t, f["comm"], "exec" if f["exec"] else "renamed")] += 1
            continue
        if ev not in READ:
            continue
        if cpu in cur and etid > 0 and cur[cpu][0] != etid:
            # perf script names it by the sample (its COMM records: a kworker's is /proc's,
            # "kworker/1:1-eve") and in the tracepoints' fields ("kworker/1:1")
            end(cpu, t)
            if cur[cpu][0] > 0:
                unseen.add(cur[cpu][0])
            cur[cpu] = (etid, t, True, {comm, tp.get(etid, comm)})
            pending.pop(etid, None)
        unseen.discard(etid)  # its own event: where it is is known again
        if ev == "sched_switch":
            nxt = int(f["next_pid"])
            unseen.discard(nxt)
            end(cpu, t)
            cur[cpu] = (nxt, t, False, {f.get("next_comm", "")})
            if nxt != 0:
                if inw(t):
                    want[(cpu, t, f.get("next_comm", ""))] += 1
                if nxt in pending:
                    woken = pending.pop(nxt)
                    if inw(t) and inw(woken):
                        want_flows += 1
        for k in ("prev_", "next_", "child_", ""):
            if k + "comm" in f and (k + "pid") in f:
                tp[int(f[k + "pid"])] = f[k + "comm"]
        if ev in ("sched_waking", "sched_wakeup"):
            pid = int(f["pid"])
            # woken while running, or maybe (it left a CPU unrecorded and was not seen
            # since): nothing to wait for, as the report counts it
            if pid <= 0 or any(c[0] == pid for c in cur.values()) or pid in pending or pid in unseen:
                continue
            pending[pid] = t
    last = max(e[0] for e in perf if e[2] in READ)
    for cpu in list(cur):  # still running at the end (of the window)
        end(cpu, min(last, hi) if hi is not None else last)
    got = collections.Counter()
    got_inf = collections.Counter()
    got_ren = collections.Counter()
    for e in evs:
        if e["ph"] != "X" or e.get("args", {}).get("clipped"):
            continue
        start = e["args"].get("start", "")
        if start.startswith("first event"):
            key = (e["tid"], ns(e["ts"]), e["args"]["tid"])
            got_inf[key] += 1
            if key in inf_names and e["name"] not in inf_names[key]:
                fail("a period with no switch-in named %r, perf script: %r (CPU %d at %d ns)"
                     % (e["name"], sorted(inf_names[key]), key[0], key[1]))
        elif start:
            got_ren[(e["tid"], ns(e["ts"]), e["name"], start)] += 1
        else:
            got[(e["tid"], ns(e["ts"]), e["name"])] += 1
    if got != want:
        miss = list((want - got).items())[:3]
        extra = list((got - want).items())[:3]
        fail("running periods differ from perf's switch-ins: %d vs %d; perf only %r; trace only %r"
             % (sum(got.values()), sum(want.values()), miss, extra))
    if got_inf != want_inf:
        miss = list((want_inf - got_inf).items())[:3]
        extra = list((got_inf - want_inf).items())[:3]
        fail("periods with no switch-in differ: %d vs perf's %d; perf only %r; trace only %r"
             % (sum(got_inf.values()), sum(want_inf.values()), miss, extra))
    if got_ren != want_ren:
        miss = list((want_ren - got_ren).items())[:3]
        extra = list((got_ren - want_ren).items())[:3]
        fail("periods begun by a rename differ: %d vs perf's COMM records %d; perf only %r; trace "
             "only %r" % (sum(got_ren.values()), sum(want_ren.values()), miss, extra))
    if len(flows) != want_flows:
        fail("%d flows, perf's wakeups that then ran: %d" % (len(flows), want_flows))
    return sum(want.values()), sum(want_inf.values()), sum(want_ren.values()), want_flows




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--perf-script")
    ap.add_argument("--from", dest="t_from", type=float, default=0.0)
    ap.add_argument("--to", dest="t_to", type=float, default=0.0)
    a = ap.parse_args()
    try:
        doc = json.load(open(a.trace))
    except ValueError as e:
        fail("not JSON: %s" % e)
    evs, tracks, flows = check_format(doc)
    summary = "%d events, %d tracks, %d flows: format ok" % (len(evs), len(tracks), len(flows))
    if a.perf_script:
        n, ni, nr, nf = check_oracle(evs, flows, perf_events(a.perf_script), int(a.t_from * 1e9),
                                 int(a.t_to * 1e9))
        summary += ("; %d running periods, %d with no switch-in recorded, %d begun by a rename "
                    "and %d flows as perf script's" % (n, ni, nr, nf))
    print("trace_check: " + summary)


if __name__ == "__main__":
    main()
