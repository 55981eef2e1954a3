#!/usr/bin/env bash
# pause_perturb.sh - each collector's perturbation of a pipe ping-pong measured inside one
# run (build/pausebench: windows of the ping-pong with the collector detached and attached
# again, in blocks of four, off on on off), so the host's drift, which spreads whole-run
# rounds by +-20% on this VM (bench/results.md), cancels within a block. Variants: null
# (pausebench alone: the windows' noise, ratio ~1), floor and floor-ipi (bench/floor.c),
# locus-bpf (locus run's default BPF collector). REPS rounds, each running every variant
# once; every block ratio of a variant pooled; median [quartiles], the slowdown (1 - median)
# and its multiple of the floor's, with a 95% bootstrap interval over blocks.
# Usage: bench/pause_perturb.sh REPS BLOCKS WINDOW_MS [PIN0,PIN1]   (needs root)
# POOL=FILE: this run's block ratios appended to FILE, and the table over all of FILE's.
set -u
REPS=${1:-3}
BLOCKS=${2:-20}
WIN=${3:-100}
PINS=${4:-0,1}
VARIANTS=${VARIANTS:-"null floor floor-ipi locus-bpf"}
cd "$(dirname "$0")/.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for r in $(seq "$REPS"); do
	for v in $VARIANTS; do
		d=$TMP/fifo
		rm -rf "$d" && mkdir "$d" && mkfifo "$d/cmd" "$d/ack"
		pb=(build/pausebench "$d" "$WIN" "$BLOCKS" "$PINS")
		case $v in
		null) cmd=(build/pausebench --null "$WIN" "$BLOCKS" "$PINS") ;;
		floor) cmd=(build/floor -- "${pb[@]}") ;;
		floor-ipi) cmd=(build/floor-ipi -- "${pb[@]}") ;;
		locus-bpf) cmd=(./locus run -q --collector bpf -o /dev/null -- "${pb[@]}") ;;
		*) echo "pause_perturb: unknown variant $v" >&2; exit 2 ;;
		esac
		LOCUS_BENCH_PAUSE=$d timeout 600 "${cmd[@]}" >"$TMP/out" 2>"$TMP/err" ||
			{ echo "pause_perturb: $v failed: $(head -n 3 "$TMP/err")" >&2; exit 1; }
		sed -n "s/^block .* ratio \(.*\)$/$v \1/p" "$TMP/out" >>"$TMP/ratios"
	done
done
if [ -n "${POOL:-}" ]; then # the blocks of earlier runs too: POOL keeps every run's
	cat "$TMP/ratios" >>"$POOL" && cp "$POOL" "$TMP/ratios"
fi
python3 - "$TMP/ratios" "$REPS" "$BLOCKS" "$WIN" "$PINS" <<'PY'
import collections, random, statistics as st, sys
by = collections.defaultdict(list)
for line in open(sys.argv[1]):
    v, r = line.split()
    by[v].append(float(r))
def q(a, p):
    a = sorted(a); x = p * (len(a) - 1); i = int(x)
    return a[i] + (x - i) * (a[min(i + 1, len(a) - 1)] - a[i])
def xfloor(v, f):
    sf = 1 - st.median(f)
    return (1 - st.median(v)) / sf if sf > 0 else float("nan")
random.seed(1)
print("| variant | blocks | on/off, median [quartiles] | speed on vs off | x floor [95%] |")
print("| --- | --- | --- | --- | --- |")
fl = by.get("floor")
for v, a in by.items():
    row = "| %s | %d | %.4f [%.4f, %.4f] | %+.2f%% |" % (v, len(a), st.median(a), q(a, .25), q(a, .75), 100 * (st.median(a) - 1))
    if fl and v not in ("null", "floor"):
        boots = sorted(xfloor(random.choices(a, k=len(a)), random.choices(fl, k=len(fl))) for _ in range(2000))
        boots = [b for b in boots if b == b]
        row += " %.2f [%.2f, %.2f] |" % (xfloor(a, fl), q(boots, .025), q(boots, .975)) if boots else " n/a |"
    else:
        row += " |"
    print(row)
print()
print("this run: %s rounds, each variant %s blocks of 4 windows of %s ms (off on on off) in a round; pinned %s; "
      "x floor: the variant's slowdown over the floor's, bootstrap over blocks" % tuple(sys.argv[2:6]))
PY
