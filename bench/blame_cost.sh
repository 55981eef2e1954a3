#!/usr/bin/env bash
# blame_cost.sh - what --sections blame costs the BPF collector's programs, this build
# against an earlier one (LOCUS_BASE=path), blame off and on for each: four builds
# interleaved N rounds by bench/bpf_cost.sh on the pinned ping-pong (kernel bpf_stats,
# run_time_ns / run_cnt of the run's own programs), under `flock /tmp/bpfstats.lock`.
# Prints each build's ns per program run and per ping-pong wakeup (on_waking + 2 x
# on_switch + on_ipi, the irq programs apart, per on_waking run), then the per-round
# differences (median [quartiles]), then the raw counts.
# Usage: LOCUS_BASE=path bench/blame_cost.sh [N] (default 15; root, bpftool).
# BPF_COST_LOOPS (default 40000) and BPF_COST_AT (default 2) as bpf_cost.sh's.
set -u
cd "$(dirname "$0")/.." || exit 1
N=${1:-15}
[ -x "${LOCUS_BASE:-}" ] || { echo "blame_cost.sh: LOCUS_BASE=path to the earlier locus" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a build with blame: the same binary, --sections all,blame after `run`
wrap() {
	printf '#!/bin/sh\nshift\nexec %s run --sections all,blame "$@"\n' "$1" >"$2"
	chmod +x "$2"
}
wrap "$LOCUS_BASE" "$tmp/base-blame"
wrap "$PWD/locus" "$tmp/new-blame"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
flock /tmp/bpfstats.lock env BPF_COST_RAW="$tmp/raw" \
	LOCUS_MORE="base-blame:$tmp/base-blame new-blame:$tmp/new-blame" \
	BPF_COST_LOOPS="${BPF_COST_LOOPS:-40000}" BPF_COST_AT="${BPF_COST_AT:-2}" \
	bench/bpf_cost.sh "$N" >/dev/null || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$tmp/raw" <<'EOF'
import collections, statistics, sys
run = collections.defaultdict(lambda: collections.defaultdict(dict))
for line in open(sys.argv[1]):
    b, r, p, ns, cnt = line.split()
    run[b][r][p] = (int(ns), int(cnt))
IRQ = ["on_irq_entry", "on_irq_exit", "on_softirq_entry", "on_softirq_exit"]

def per_run(b, r, p):
    v = run[b][r].get(p)
    return v[0] / v[1] if v and v[1] else None

def wakeup(b, r):
    w, s, i = (per_run(b, r, p) for p in ("on_waking", "on_switch", "on_ipi"))
    return None if w is None or s is None else w + 2 * s + (i or 0)

def irq(b, r):
    n = run[b][r].get("on_waking", (0, 0))[1]
    return sum(run[b][r].get(p, (0, 0))[0] for p in IRQ) / n if n else None

def spread(xs):
    xs = sorted(x for x in xs if x is not None)
    if len(xs) < 4:
        return "%.0f" % statistics.median(xs) if xs else "-"
    q = statistics.quantiles(xs, n=4)
    return "%.0f [%.0f, %.0f]" % (statistics.median(xs), q[0], q[2])

cols = [("on_waking", lambda b, r: per_run(b, r, "on_waking")),
        ("on_switch", lambda b, r: per_run(b, r, "on_switch")),
        ("on_ipi", lambda b, r: per_run(b, r, "on_ipi")),
        ("per ping-pong wakeup", wakeup), ("irq programs per wakeup", irq)]
builds = ["base", "base-blame", "new", "new-blame"]
print("| build | rounds | " + " | ".join(c for c, _ in cols) + " |")
print("| --- | --- |" + " --- |" * len(cols))
for b in builds:
    print("| %s | %d | %s |" % (b, len(run[b]), " | ".join(spread(f(b, r) for r in run[b])
                                                     for _, f in cols)))
print()
print("Per-round differences, median [quartiles]:")
print()
print("| | " + " | ".join(c for c, _ in cols) + " |")
print("| --- |" + " --- |" * len(cols))
for x, y in [("new", "base"), ("base-blame", "base"), ("new-blame", "new"),
             ("new-blame", "base-blame")]:
    cells = []
    for _, f in cols:
        d = []
        for r in run[x]:
            a, c = f(x, r), f(y, r) if r in run[y] else None
            d.append(a - c if a is not None and c is not None else None)
        cells.append(spread(d))
    print("| %s - %s | %s |" % (x, y, " | ".join(cells)))
print()
print("Runs per on_waking run: " + ", ".join(
    "%s %s" % (p, spread(run[b][r][p][1] / run[b][r]["on_waking"][1] * 100 for b in builds
                         for r in run[b] if p in run[b][r] and "on_waking" in run[b][r]))
    for p in ("on_switch", "on_ipi")) + " (x 100)")
EOF
echo
echo "raw: build round program run_time_ns run_cnt"
sort -k1,1 -k2,2n -k3,3 "$tmp/raw"
