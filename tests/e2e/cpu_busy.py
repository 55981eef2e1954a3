#!/usr/bin/env python3
"""cpu_busy.py RUN.json PERF.data: each CPU's busy time as locus run says it against perf's
sched_switch of the same run (perf record -a -k mono), over locus's own window
(cpu_time.from_ns/to_ns, CLOCK_MONOTONIC): busy at least the time a task other than the
idle task was current (less one /proc/stat unit, 10 ms), and at least the traced tasks'
runtime (or a note under the text's table says why). Prints each CPU's figures."""
import json
import subprocess
import sys

d = json.load(open(sys.argv[1]))
ct = d["cpu_time"]
lo, hi = ct["from_ns"] / 1e9, ct["to_ns"] / 1e9
out = subprocess.run(["perf", "script", "-i", sys.argv[2], "-F", "cpu,time,trace"],
                     capture_output=True, text=True).stdout
busy, last, cur = {}, {}, {}
for line in out.splitlines():
    try:
        cpu = int(line.split("]")[0].split("[")[1])
        ts = float(line.split("]")[1].split(":")[0])
        prv = int(line.split("prev_pid=")[1].split()[0])
        nxt = int(line.split("next_pid=")[1].split()[0])
    except (IndexError, ValueError):
        continue
    start = max(last.get(cpu, lo), lo)
    # a task other than the idle task was current from the last switch (or the window's start,
    # the first switch out of one) to this one
    running = cur[cpu] != 0 if cpu in cur else prv != 0
    if running and min(ts, hi) > start:
        busy[cpu] = busy.get(cpu, 0) + min(ts, hi) - start
    cur[cpu], last[cpu] = nxt, ts
for cpu, c in cur.items():
    if c != 0 and last[cpu] < hi:
        busy[cpu] = busy.get(cpu, 0) + hi - max(last[cpu], lo)
span = hi - lo
bad = []
for c in d["cpus"]:
    i = c["cpu"]
    lb, tr, pb = c["busy_ns"] / 1e9, c["traced_ns"] / 1e9, busy.get(i, 0)
    print("CPU %d over %.3f s: locus busy %.1f%%, traced %.1f%%; perf sched_switch busy %.1f%%" % (
        i, span, 100 * lb / span, 100 * tr / span, 100 * pb / span))
    if lb + 0.010 < pb:
        bad.append("CPU %d: busy %.3f s below perf's %.3f s" % (i, lb, pb))
    if lb + 0.020 < tr:
        bad.append("CPU %d: traced %.3f s above busy %.3f s" % (i, tr, lb))
if bad:
    sys.exit("; ".join(bad))
