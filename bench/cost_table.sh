#!/usr/bin/env bash
# cost_table.sh - what each feature of the default BPF collector costs (docs/cost.md): the
# default build, the bench-only builds with one feature compiled out (make bench-variants:
# build/variants/locus-no-FEATURE, locus-core with all of them out) and the floor
# (build/floor: two empty programs), interleaved N rounds by bench/bpf_cost.sh on the pinned
# ping-pong, each program's run_time_ns / run_cnt from kernel.bpf_stats_enabled. A feature's
# cost: the default minus its variant, the median of the per-round differences.
# Usage: bench/cost_table.sh [N] (default 5; needs root, bpftool and `make bench-variants
# build/floor`). COST_NEW=path measures a copy of locus as the default (rebuild meanwhile);
# BPF_COST_LOOPS (default 30000) and BPF_COST_AT (default 2) as bpf_cost.sh's.
# "Per ping-pong wakeup": one on_waking, two on_switch and, with --ipis, one on_ipi run
# (the ratios the runs show, printed with the table). IPI attribution is not in the default
# (--ipis loads its programs): its row is the default run with --ipis (a wrapper around the
# same binary, made here) minus the default.
set -u
cd "$(dirname "$0")/.." || exit 1
N=${1:-5}
V=${COST_VARIANTS:-$PWD/build/variants} # COST_VARIANTS: a copy of them
FEATURES="idle timing pairs place tasks migrate"
for f in $FEATURES; do
	[ -x "$V/locus-no-$f" ] || { echo "cost_table.sh: no $V/locus-no-$f (make bench-variants)" >&2; exit 1; }
done
if ! [ -x "$V/locus-core" ] || ! [ -x build/floor ] || ! [ -x locus ]; then
	echo "cost_table.sh: needs ./locus, $V/locus-core and build/floor (make bench-variants build/floor)" >&2
	exit 1
fi
raw=$(mktemp)
wrap=$(mktemp -d)
trap 'rm -rf "$raw" "$wrap"' EXIT
# the default with --ipis, as a build bpf_cost.sh runs (`BIN run ARGS`): the same binary
printf '#!/bin/sh\nc=$1; shift; exec "%s" "$c" --ipis "$@"\n' "${COST_NEW:-$PWD/locus}" >"$wrap/locus-ipis"
chmod +x "$wrap/locus-ipis"
more="floor:$PWD/build/floor core:$V/locus-core ipis:$wrap/locus-ipis"
for f in $FEATURES; do more="$more no-$f:$V/locus-no-$f"; done
# COST_MORE="label:path ...": more builds in the same interleaved run (their raw counts in
# the output, for a comparison the table does not make)
[ -n "${COST_MORE:-}" ] && more="$more $COST_MORE"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# bpf_cost.sh toggles kernel.bpf_stats_enabled: one engineer at a time
flock /tmp/bpfstats.lock env LOCUS_NEW="${COST_NEW:-$PWD/locus}" BPF_COST_RAW="$raw" LOCUS_MORE="$more" \
	BPF_COST_LOOPS="${BPF_COST_LOOPS:-30000}" BPF_COST_AT="${BPF_COST_AT:-2}" \
	bench/bpf_cost.sh "$N" >/dev/null || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$raw" "$FEATURES" <<'EOF'
import collections, statistics, sys
raw, features = sys.argv[1], sys.argv[2].split()
progs = ["on_waking", "on_switch", "on_ipi", "on_wake_idle", "on_migrate"]
# run[build][round][program] = (run_time_ns, run_cnt)
run = collections.defaultdict(lambda: collections.defaultdict(dict))
for line in open(raw):
    b, r, p, ns, cnt = line.split()
    run[b][r][p] = (int(ns), int(cnt))

def per_run(b, r, p):
    v = run[b][r].get(p)
    return v[0] / v[1] if v and v[1] else None

def per_wakeup(b, r):
    """one of the ping-pong's wakeups: a sched_waking, two sched_switch (the wakee in, the
    waker out) and an IPI (none: the floor has no on_ipi)"""
    w, s, i = per_run(b, r, "on_waking"), per_run(b, r, "on_switch"), per_run(b, r, "on_ipi")
    return None if w is None or s is None else w + 2 * s + (i or 0)

def spread(xs, f="%.0f"):
    """the median [quartiles] of the per-round values"""
    xs = sorted(x for x in xs if x is not None)
    if len(xs) < 4:
        return f % statistics.median(xs) if xs else "-"
    q = statistics.quantiles(xs, n=4)
    return (f + " [" + f + ", " + f + "]") % (statistics.median(xs), q[0], q[2])

def ratio(b, num, den):
    return spread((run[b][r][num][1] / run[b][r][den][1] for r in run[b]
                   if num in run[b][r] and run[b][r].get(den, (0, 0))[1]), "%.2f")

builds = ["new", "ipis", "floor", "core"] + ["no-" + f for f in features]
print("Each build, ns per program run: median over rounds (runs in a round, median):")
print()
print("| build | rounds | " + " | ".join(progs) + " | per ping-pong wakeup |")
print("| --- | --- |" + " --- |" * (len(progs) + 1))
for b in builds:
    rounds = sorted(run[b])
    cells = []
    for p in progs:
        v = [per_run(b, r, p) for r in rounds]
        n = [run[b][r][p][1] for r in rounds if p in run[b][r]]
        v = [x for x in v if x is not None]
        cells.append("%.0f (%d)" % (statistics.median(v), statistics.median(n)) if v else "-")
    cells.append(spread(per_wakeup(b, r) for r in rounds))
    print("| %s | %d | %s |" % (b, len(rounds), " | ".join(cells)))
short = [b for b in builds if not run[b]]
if short:  # said, not a table of dashes: the runs ended before they were read
    msg = ("no round for %s: each run ended before its programs were read (BPF_COST_AT); "
           "raise BPF_COST_LOOPS" % ", ".join(short))
    print("\n" + msg)
    print("cost_table.sh: " + msg, file=sys.stderr)
print()
print("Runs per on_waking run: on_switch %s (default), on_ipi %s (--ipis)" %
      (ratio("new", "on_switch", "on_waking"), ratio("ipis", "on_ipi", "on_waking")))
print()

def diff(b, f):
    """the per-round differences default - build b: their median [quartiles]"""
    return spread(f("new", r) - f(b, r) if f("new", r) is not None and f(b, r) is not None
                  else None for r in run["new"])

print("A feature's cost: default minus the build without it, ns, median [quartiles] of the")
print("per-round differences (core: all features; floor: all of the default above it):")
print()
print("| build | on_waking /run | on_switch /run | on_ipi /run | per ping-pong wakeup |")
print("| --- | --- | --- | --- | --- |")
for b in ["no-" + f for f in features] + ["core", "floor"]:
    cells = [diff(b, lambda x, r, p=p: per_run(x, r, p))
             for p in ["on_waking", "on_switch", "on_ipi"]]
    cells.append(diff(b, per_wakeup))
    print("| %s | %s |" % (b, " | ".join(cells)))
# IPI attribution is --ipis's: what it adds to the default (its programs and their bodies)
def added(f):
    """the per-round differences --ipis - default: their median [quartiles]"""
    return spread(f("ipis", r) - f("new", r) if f("ipis", r) is not None and f("new", r) is not None
                  else None for r in run["new"])

cells = [added(lambda x, r, p=p: per_run(x, r, p) or (0 if p == "on_ipi" else None))
         for p in ["on_waking", "on_switch", "on_ipi"]]
cells.append(added(per_wakeup))
print("| --ipis (added to the default) | %s |" % " | ".join(cells))
EOF
echo
echo "raw: build round program run_time_ns run_cnt"
sort -k1,1 -k2,2n -k3,3 "$raw"
