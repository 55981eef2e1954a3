#!/usr/bin/env bash
# pause_perturb.sh - each collector's perturbation of a pipe ping-pong measured inside one
# run (build/pausebench: windows of the ping-pong with the collector detached and attached
# again, in blocks of four, off on on off), so the host's drift, which spreads whole-run
# rounds by +-20% on this VM (bench/results.md), cancels within a block. Variants: null
# (pausebench alone: the windows' noise, ratio ~1), floor and floor-ipi (bench/floor.c),
# locus-bpf (locus run's default BPF collector; LOCUS_NEW=path: a copy of it), ipis (the same
# with --ipis), locus-perf (locus run --collector perf: the perf stream, its tracepoints turned
# off and on), perf-ipis (the same with --ipis), perf-sched (perf sched record, turned off and
# on through its --control fifo), locus-base
# (LOCUS_BASE=path: an earlier build's, in the same run), stats (build/floor-ipi attached throughout, the kernel's BPF
# run-time statistics turned on and off instead: what locus's own-cost windows cost while
# open, for its four program runs a wakeup), LABEL=PATH (that build's BPF collector, as
# locus-bpf's: any number of builds in one run). REPS rounds, each running every variant
# once; every block ratio of a variant pooled; median [quartiles], the slowdown (1 - median)
# and its multiple of the floor's, with a 95% bootstrap interval over blocks; and the time
# added to each wakeup (two a round trip), from the on and off windows' rates.
# Usage: bench/pause_perturb.sh REPS BLOCKS WINDOW_MS [PIN0,PIN1]   (needs root)
# POOL=FILE: this run's block ratios appended to FILE, and the table over all of FILE's.
# PAUSE_WRAP="chrt -f 10": the ping-pong under that command (a loaded machine: real-time, so
# other jobs do not set its pace; the collector itself runs as usual).
set -u
REPS=${1:-3}
BLOCKS=${2:-20}
WIN=${3:-100}
PINS=${4:-0,1}
VARIANTS=${VARIANTS:-"null floor floor-ipi locus-bpf ipis"}
cd "$(dirname "$0")/.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# perf_relay DIR: pausebench's '1'/'0' on DIR/cmd as perf's enable/disable on DIR/pctl, its
# ack on DIR/pack as the same character on DIR/ack
perf_relay() {
	local c a
	exec 3<"$1/cmd" 4>"$1/ack" 5>"$1/pctl" 6<"$1/pack"
	while IFS= read -r -n 1 c <&3; do
		case $c in 1) echo enable >&5 ;; 0) echo disable >&5 ;; *) break ;; esac
		IFS= read -r a <&6 || break
		printf %s "$c" >&4
	done
}
for r in $(seq "$REPS"); do
	for v in $VARIANTS; do
		d=$TMP/fifo
		rm -rf "$d" && mkdir "$d" && mkfifo "$d/cmd" "$d/ack"
		# shellcheck disable=SC2206 # PAUSE_WRAP: a command and its options, or none
		pb=(${PAUSE_WRAP:-} build/pausebench "$d" "$WIN" "$BLOCKS" "$PINS")
		case $v in
		null) cmd=("${pb[@]:0:${#pb[@]}-5}" build/pausebench --null "$WIN" "$BLOCKS" "$PINS") ;;
		floor) cmd=(build/floor -- "${pb[@]}") ;;
		floor-ipi) cmd=(build/floor-ipi -- "${pb[@]}") ;;
		locus-bpf) cmd=("${LOCUS_NEW:-./locus}" run -q --collector bpf -o /dev/null -- "${pb[@]}") ;;
		ipis) cmd=("${LOCUS_NEW:-./locus}" run -q --collector bpf --ipis -o /dev/null -- "${pb[@]}") ;;
		locus-base) cmd=("$LOCUS_BASE" run -q --collector bpf -o /dev/null -- "${pb[@]}") ;;
		locus-perf) cmd=("${LOCUS_NEW:-./locus}" run -q --collector perf -o /dev/null -- "${pb[@]}") ;;
		perf-ipis) cmd=("${LOCUS_NEW:-./locus}" run -q --collector perf --ipis -o /dev/null -- \
			"${pb[@]}") ;;
		perf-sched)
			# perf answers "enable"/"disable" on its own fifos: a relay speaks pausebench's
			mkfifo "$d/pctl" "$d/pack"
			perf_relay "$d" &
			relay=$!
			cmd=(perf sched record -q -o "$TMP/p.data" -D -1 --control "fifo:$d/pctl,$d/pack"
				-- "${pb[@]}") ;;
		stats) cmd=(env FLOOR_PAUSE_STATS=1 build/floor-ipi -- "${pb[@]}") ;;
		*=*) cmd=("${v#*=}" run -q --collector bpf -o /dev/null -- "${pb[@]}") ;;
		*) echo "pause_perturb: unknown variant $v" >&2; exit 2 ;;
		esac
		LOCUS_BENCH_PAUSE=$d timeout 600 "${cmd[@]}" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		# a relay whose perf never started waits on its fifos for good
		[ -n "${relay:-}" ] && { kill "$relay" 2>/dev/null; wait "$relay" 2>/dev/null; relay=; }
		[ "$rc" -eq 0 ] || { echo "pause_perturb: $v failed: $(head -n 3 "$TMP/err")" >&2; exit 1; }
		# variant, ratio, ns added a wakeup: (1 / on - 1 / off) / 2 of the block's rates
		awk -v v="${v%%=*}" '$1 == "block" { on = ($6 + $8) / 2; off = ($4 + $10) / 2;
			if (on > 0 && off > 0) printf "%s %s %.1f\n", v, $12, (1e9 / on - 1e9 / off) / 2 }' \
			"$TMP/out" >>"$TMP/ratios"
	done
done
if [ -n "${POOL:-}" ]; then # the blocks of earlier runs too: POOL keeps every run's
	cat "$TMP/ratios" >>"$POOL" && cp "$POOL" "$TMP/ratios"
fi
python3 - "$TMP/ratios" "$REPS" "$BLOCKS" "$WIN" "$PINS" <<'PY'
import collections, random, statistics as st, sys
by = collections.defaultdict(list)
ns = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    by[f[0]].append(float(f[1]))
    if len(f) > 2:  # (pools of earlier runs may lack it)
        ns[f[0]].append(float(f[2]))
def q(a, p):
    a = sorted(a); x = p * (len(a) - 1); i = int(x)
    return a[i] + (x - i) * (a[min(i + 1, len(a) - 1)] - a[i])
def xfloor(v, f):
    sf = 1 - st.median(f)
    return (1 - st.median(v)) / sf if sf > 0 else float("nan")
random.seed(1)
print("| variant | blocks | on/off, median [quartiles] | speed on vs off | ns added a wakeup [quartiles] | x floor [95%] |")
print("| --- | --- | --- | --- | --- | --- |")
fl = by.get("floor")
for v, a in by.items():
    row = "| %s | %d | %.4f [%.4f, %.4f] | %+.2f%% |" % (v, len(a), st.median(a), q(a, .25), q(a, .75), 100 * (st.median(a) - 1))
    n = ns.get(v)
    row += " %.0f [%.0f, %.0f] |" % (st.median(n), q(n, .25), q(n, .75)) if n else " - |"
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
