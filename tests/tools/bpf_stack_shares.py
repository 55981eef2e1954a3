#!/usr/bin/env python3
"""bpf_stack_shares.py - the BPF collector's sampled waker and blocked stacks against perf's of
the same run.

Usage: bpf_stack_shares.py LOCUS.json PERF_SCRIPT COMM WAKERS.folded BLOCKED.folded

perf script (-F comm,pid,tid,event,trace,ip,sym) of `perf record -g -e
sched:sched_waking,sched:sched_switch` around `locus run -g --collector bpf --json
LOCUS.json --folded wakers=WAKERS.folded --folded blocked=BLOCKED.folded`: each sched_waking whose waker and wakee are COMM (the workload's) is one waker
stack, each sched_switch of a COMM task that slept (prev_state neither runnable nor dead)
one blocked stack. A stack's key is its first KEY kernel
frames below the tracing's own (try_to_wake_up and its callers), by symbol. Each waker key
of locus's sample holding 5% of it or more (every folded stack with that key summed) must be among
perf's, and its share of the sample must lie within the sample's 99.9% Wilson interval of perf's share of every
wakeup (the sample is 1 in N; a wakeup of a task still on its CPU is not sampled, so perf's
share is also taken without the wakeups whose wakee was the waker's own thread); the same
for the blocked stacks' counts. Prints both shares; exit 1 when they disagree.
"""
import json
import math
import re
import sys

KEY = 6
OWN = ("__traceiter_", "bpf_trace_run", "__bpf_trace_", "bpf_prog_", "perf_trace_",
       "perf_tp_", "trace_call_bpf")


def key_of(names):
    names = [n for n in names if n]
    while names and names[0].startswith(OWN):
        names.pop(0)
    return ";".join(names[:KEY])


def perf_keys(path, comm):
    """(waker key counts, their total), (blocked key counts, their total)"""
    counts = ({}, {})
    total = [0, 0]
    head, frames = None, []

    def close():
        if head is None:
            return
        kind, wcomm, wtid, arg, arg2 = head
        if kind == 0:  # waking: the waker COMM, the wakee COMM and not itself
            take = wcomm == comm and arg == comm and arg2 != wtid
        else:  # switch: a COMM task that slept
            take = wcomm == comm and not arg.startswith(("R", "X", "Z", "I"))
        if take:
            k = key_of(frames)
            counts[kind][k] = counts[kind].get(k, 0) + 1
            total[kind] += 1

    wk = re.compile(r"^\s*(\S.*?)\s+(\d+)/(\d+)\s+sched:sched_waking:.*?comm=(.*?) pid=(\d+)")
    sw = re.compile(r"^\s*(\S.*?)\s+(\d+)/(\d+)\s+sched:sched_switch:.*?prev_state=(\S+)")
    with open(path, errors="replace") as f:
        for line in f:
            m = wk.match(line)
            n = None if m else sw.match(line)
            if m or n:
                close()
                head = ((0, m.group(1), int(m.group(3)), m.group(4), int(m.group(5))) if m
                        else (1, n.group(1), int(n.group(3)), n.group(4), 0))
                frames = []
            elif line.strip() and head is not None:
                parts = line.split(None, 1)
                addr = parts[0]
                if len(addr) >= 16 and addr.startswith("ffff"):  # kernel frames only
                    frames.append(parts[1].strip().split("+")[0] if len(parts) > 1 else "")
            elif not line.strip():
                close()
                head = None
    close()
    return (counts[0], total[0]), (counts[1], total[1])


def locus_keys(path, folded):
    """The key counts of a folded file (root first, kernel frames marked _[k]), their sum,
    and the JSON's sampling."""
    counts, total = {}, 0
    with open(folded) as f:
        for line in f:
            stack, n = line.rstrip("\n").rsplit(" ", 1)
            names = [x[:-4] for x in reversed(stack.split(";")) if x.endswith("_[k]")]
            k = key_of(names)
            counts[k] = counts.get(k, 0) + int(n)
            total += int(n)
    return counts, total, json.load(open(path))["stacks"]["sampled"]


def wilson(k, n, z=3.29):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def compare(name, lk, ln, pk, pn):
    if not ln or not pn:
        print(f"{name}: no stacks: locus {ln}, perf {pn}")
        return 1
    print(f"{name}: {ln} sampled stacks; perf: {pn}")
    bad = 0
    for k in sorted(lk, key=lambda k: -lk[k]):
        if lk[k] < 0.05 * ln:
            continue
        lo, hi = wilson(lk[k], ln)
        share = pk.get(k, 0) / pn
        ok = k in pk and lo <= share <= hi
        bad += not ok
        print(f"  {'ok' if ok else 'DIFFERS'}: {k}: locus {lk[k]}/{ln} = {lk[k] / ln:.3f} "
              f"[{lo:.3f}, {hi:.3f}], perf {pk.get(k, 0)}/{pn} = {share:.3f}")
    return bad


def main():
    (pw, pwn), (pb, pbn) = perf_keys(sys.argv[2], sys.argv[3])
    lw, lwn, sampled = locus_keys(sys.argv[1], sys.argv[4])
    lb, lbn, _ = locus_keys(sys.argv[1], sys.argv[5])
    print(f"sample: wakers 1 in {sampled['waker_every']}, blocked 1 in {sampled['blocked_every']}")
    bad = compare("wakers", lw, lwn, pw, pwn) + compare("blocked", lb, lbn, pb, pbn)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
