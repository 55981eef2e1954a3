#!/usr/bin/env bash
# timeline_ab.sh - two builds of locus on one perf.data file, interleaved: the plain report,
# --trace, --svg-timeline and both, each round running every build and every variant once;
# medians of N rounds of the wall time (the tool's own: file analysis), user and system CPU
# (GNU time), and each variant against the plain report of its build.
# Usage: bench/timeline_ab.sh FILE N BUILD...  (e.g. a copy of the build before, ./locus)
set -u
F=$1
N=$2
shift 2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for i in $(seq "$N"); do
	for b in "$@"; do
		for v in plain trace svg both; do
			case $v in
			plain) a=() ;;
			trace) a=(--trace "$TMP/t.json") ;;
			svg) a=(--svg-timeline "$TMP/t.svg") ;;
			both) a=(--trace "$TMP/t.json" --svg-timeline "$TMP/t.svg") ;;
			esac
			/usr/bin/time -f "$b $v %e %U %S" -a -o "$TMP/times" \
				"$b" report -q -a -i "$F" -o /dev/null "${a[@]}" >/dev/null 2>&1
		done
	done
done
python3 - "$TMP/times" <<'PY'
import collections, statistics as st, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 5:
        runs[(p[0], p[1])].append(tuple(map(float, p[2:])))
print("| build | outputs | rounds | wall s | user s | sys s | wall vs plain | CPU vs plain |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for b in dict.fromkeys(k[0] for k in runs):
    med = lambda v, f: st.median(f(x) for x in runs[(b, v)])
    pw, pc = med("plain", lambda x: x[0]), med("plain", lambda x: x[1] + x[2])
    for v in ("plain", "trace", "svg", "both"):
        w, u, s, c = (med(v, lambda x: x[0]), med(v, lambda x: x[1]), med(v, lambda x: x[2]),
                      med(v, lambda x: x[1] + x[2]))
        print(f"| {b} | {v} | {len(runs[(b, v)])} | {w:.2f} | {u:.2f} | {s:.2f} | {w / pw:.2f}x | {c / pc:.2f}x |")
PY
