#!/usr/bin/env python3
"""schedstat_check.py - the scheduler-domain counters of a `locus run` (its JSON "schedstat")
against the deltas of two /proc/schedstat snapshots a script took before and after the run,
parsed here from the kernel's documentation (Documentation/scheduler/sched-stats.rst),
not from locus's code.

usage: schedstat_check.py BEFORE AFTER LOCUS.json

Every domain counter of every CPU must be equal, and the runqueue counters the kernel
counts only while kernel.sched_schedstats is 1 (yld_count, sched_count, sched_goidle,
ttwu_count, ttwu_local): with the sysctl 0 outside the run, nothing moves between a
snapshot and the run's. rq_cpu_time, run_delay and pcount (sched_info) move whatever the
sysctl says: not compared. Prints the deltas summed per domain level; exits 1 on a difference.
"""
import json
import sys

CPU_FIELDS = ["yld_count", "legacy", "sched_count", "sched_goidle", "ttwu_count",
              "ttwu_local", "rq_cpu_time", "run_delay", "pcount"]
GATED = ["yld_count", "sched_count", "sched_goidle", "ttwu_count", "ttwu_local"]
TAIL = ["alb_count", "alb_failed", "alb_pushed", "sbe_count", "sbe_balanced", "sbe_pushed",
        "sbf_count", "sbf_balanced", "sbf_pushed", "ttwu_wake_remote", "ttwu_move_affine",
        "ttwu_move_balance"]


def lb_fields(v):
    if v >= 17:
        return ["lb_count", "lb_balanced", "lb_failed", "lb_imbalance_load",
                "lb_imbalance_util", "lb_imbalance_task", "lb_imbalance_misfit", "lb_gained",
                "lb_hot_gained", "lb_nobusyq", "lb_nobusyg"]
    return ["lb_count", "lb_balanced", "lb_failed", "lb_imbalance", "lb_gained",
            "lb_hot_gained", "lb_nobusyq", "lb_nobusyg"]


def idle_order(v):
    # v15: CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE; v16 put busy (CPU_NOT_IDLE) first
    return ["idle", "busy", "newly_idle"] if v == 15 else ["busy", "idle", "newly_idle"]


def parse(path):
    v, cpus, doms, cpu = None, {}, {}, None
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "version":
            v = int(f[1])
        elif f[0].startswith("cpu"):
            cpu = int(f[0][3:])
            cpus[cpu] = dict(zip(CPU_FIELDS, map(int, f[1:])))
        elif f[0].startswith("domain"):
            level = int(f[0][6:])
            rest = f[3:] if v >= 17 else f[2:]  # v17: a name before the mask
            vals = list(map(int, rest))
            names = [(t, k) for t in idle_order(v) for k in lb_fields(v)] + [(None, k) for k in TAIL]
            assert len(vals) == len(names), (path, line, len(vals), len(names))
            doms[(cpu, level)] = dict(zip(names, vals))
    return v, cpus, doms


def main():
    va, ca, da = parse(sys.argv[1])
    vb, cb, db = parse(sys.argv[2])
    s = json.load(open(sys.argv[3]))["schedstat"]
    assert va == vb and s["available"] and s["version"] == va, (va, vb, s.get("reason"))
    got = {c["cpu"]: c for c in s["cpus"]}
    bad, n = [], 0
    for cpu in ca:
        for k in GATED:
            want = cb[cpu][k] - ca[cpu][k]
            n += 1
            if got[cpu][k] != want:
                bad.append("cpu%d %s %d != %d" % (cpu, k, got[cpu][k], want))
    levels = {}
    for (cpu, level), before in da.items():
        d = {x["level"]: x for x in got[cpu]["domains"]}[level]
        sums = levels.setdefault(level, {"cpus": 0, "name": d["name"]})
        sums["cpus"] += 1
        for (t, k), val in before.items():
            want = db[(cpu, level)][(t, k)] - val
            mine = d["lb"][t][k] if t else d[k]
            n += 1
            if mine != want:
                bad.append("cpu%d domain%d %s%s %d != %d" % (cpu, level, t + " " if t else "",
                                                            k, mine, want))
            key = (t + " " if t else "") + k
            sums[key] = sums.get(key, 0) + want
    print("v%d: %d counters compared on %d CPUs, %d domains each" % (va, n, len(ca),
                                                                    len(levels)))
    for level, x in sorted(levels.items()):
        print("  domain%d %-5s ttwu_wake_remote %d ttwu_move_affine %d lb busy %d/%d idle %d/%d "
              "newly idle %d/%d (runs/failed, summed over %d CPUs)" % (
                  level, x["name"] or "-", x["ttwu_wake_remote"], x["ttwu_move_affine"],
                  x["busy lb_count"], x["busy lb_failed"], x["idle lb_count"],
                  x["idle lb_failed"], x["newly_idle lb_count"], x["newly_idle lb_failed"],
                  x["cpus"]))
    if bad:
        print("differ: " + "; ".join(bad[:12]))
        sys.exit(1)


if __name__ == "__main__":
    main()
