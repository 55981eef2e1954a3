#!/usr/bin/env bash
# cost_table.sh - what each feature of the default BPF collector costs (docs/cost.md): the
# default build, the bench-only builds with one feature compiled out (make bench-variants:
# build/variants/locus-no-FEATURE, locus-core with all of them out) and the floor
# (build/floor: two empty programs), interleaved N rounds by bench/bpf_cost.sh on the pinned
# ping-pong, each program's run_time_ns / run_cnt from kernel.bpf_stats_enabled. A feature's
# cost: the default minus its variant, the median of the per-round differences.
# Usage: bench/cost_table.sh [N] (default 5; needs root, bpftool and `make bench-variants
# build/floor`). BPF_COST_LOOPS (default 30000) and BPF_COST_AT (default 2) as bpf_cost.sh's.
set -u
cd "$(dirname "$0")/.." || exit 1
N=${1:-5}
V=build/variants
FEATURES="idle timing pairs place ipi tasks migrate"
for f in $FEATURES; do
	[ -x "$V/locus-no-$f" ] || { echo "cost_table.sh: no $V/locus-no-$f (make bench-variants)" >&2; exit 1; }
done
[ -x "$V/locus-core" ] && [ -x build/floor ] && [ -x locus ] ||
	{ echo "cost_table.sh: needs ./locus, $V/locus-core and build/floor (make bench-variants build/floor)" >&2; exit 1; }
more="floor:$PWD/build/floor core:$PWD/$V/locus-core"
for f in $FEATURES; do more="$more no-$f:$PWD/$V/locus-no-$f"; done
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# bpf_cost.sh toggles kernel.bpf_stats_enabled: one engineer at a time
flock /tmp/bpfstats.lock env BPF_COST_RAW="$raw" LOCUS_MORE="$more" \
	BPF_COST_LOOPS="${BPF_COST_LOOPS:-30000}" BPF_COST_AT="${BPF_COST_AT:-2}" \
	bench/bpf_cost.sh "$N" >/dev/null || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$raw" "$FEATURES" <<'EOF'
import collections, statistics, sys
raw, features = sys.argv[1], sys.argv[2].split()
progs = ["on_waking", "on_switch", "on_ipi", "on_wake_idle", "on_migrate", "on_wakeup_new",
         "on_fork", "on_exit"]
# run[build][round][program] = (run_time_ns, run_cnt)
run = collections.defaultdict(lambda: collections.defaultdict(dict))
for line in open(raw):
    b, r, p, ns, cnt = line.split()
    run[b][r][p] = (int(ns), int(cnt))

def per_run(b, r, p):
    v = run[b][r].get(p)
    return v[0] / v[1] if v and v[1] else None

def per_event(b, r, ev):
    """all of the build's programs' time over the runs of one program (ev)"""
    v = run[b][r]
    if not v.get(ev) or not v[ev][1]:
        return None
    return sum(ns for ns, _ in v.values()) / v[ev][1]

def med(xs):
    xs = [x for x in xs if x is not None]
    return (statistics.median(xs), len(xs)) if xs else (None, 0)

def spread(xs):
    """the median and the quartiles of the per-round values"""
    xs = sorted(x for x in xs if x is not None)
    if len(xs) < 4:
        return cell(med(xs))
    q = statistics.quantiles(xs, n=4)
    return "%.0f [%.0f, %.0f]" % (statistics.median(xs), q[0], q[2])

def cell(m):
    v, n = m
    return "-" if v is None else "%.0f" % v

builds = ["new", "floor", "core"] + ["no-" + f for f in features]
print("Medians over rounds, ns per program run (runs in a round, median):")
print()
print("| build | rounds | " + " | ".join(progs[:5]) + " | all, per waking | all, per switch |")
print("| --- | --- |" + " --- |" * 7)
for b in builds:
    rounds = sorted(run[b])
    cells = []
    for p in progs[:5]:
        m = med(per_run(b, r, p) for r in rounds)
        c = med(run[b][r][p][1] if p in run[b][r] else None for r in rounds)
        cells.append("-" if m[0] is None else "%.0f (%d)" % (m[0], c[0]))
    cells.append(cell(med(per_event(b, r, "on_waking") for r in rounds)))
    cells.append(cell(med(per_event(b, r, "on_switch") for r in rounds)))
    print("| %s | %d | %s |" % (b, len(rounds), " | ".join(cells)))
print()

def diff(b, f):
    """the per-round differences default - build b: their median [quartiles]"""
    return spread(f("new", r) - f(b, r) if f("new", r) is not None and f(b, r) is not None
                  else None for r in run["new"])

print("A feature's cost: default minus the build without it, per-round differences, ns: median [quartiles]:")
print()
print("| feature (build) | on_waking /run | on_switch /run | on_ipi /run | all, per waking | all, per switch |")
print("| --- | --- | --- | --- | --- | --- |")
for b in ["no-" + f for f in features] + ["core", "floor"]:
    cells = [diff(b, lambda x, r, p=p: per_run(x, r, p))
             for p in ["on_waking", "on_switch", "on_ipi"]]
    cells += [diff(b, lambda x, r: per_event(x, r, "on_waking")),
              diff(b, lambda x, r: per_event(x, r, "on_switch"))]
    print("| %s | %s |" % (b, " | ".join(cells)))
EOF
echo
echo "raw: build round program run_time_ns run_cnt"
sort -k1,1 -k2,2n -k3,3 "$raw"
