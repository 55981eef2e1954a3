#!/usr/bin/env bash
# c2c_speed.sh - locus report against perf c2c report on about a million memory samples (a
# memgen file: the sharing scenarios plus noise lines), interleaved, medians of N, peak RSS.
# Usage: bench/c2c_speed.sh [N] [NOISE_LINES]
set -u
cd "$(dirname "$0")/.."
N=${1:-3}
NOISE=${2:-1000000}
LOCUS=$PWD/locus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v perf >/dev/null || { echo "c2c_speed.sh: needs perf" >&2; exit 1; }
[ -x build/memgen ] || make -s build/memgen
build/memgen "$TMP/m.data" tests/fixtures/topology/2s16c2t-64 "$NOISE" || exit 1
samples=$("$LOCUS" report -i "$TMP/m.data" 2>/dev/null | sed -n 's/.* \([0-9,]*\) memory samples$/\1/p' | head -1)

# run TOOL: prints "seconds peak_rss_mib"
run() {
	python3 -c "import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print('%.3f %d' % (time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))" "$@"
}
. bench/lib.sh
: >"$TMP/l"
: >"$TMP/p"
for _ in $(seq "$N"); do
	run "$LOCUS" report -q -i "$TMP/m.data" -o /dev/null >>"$TMP/l"
	run perf c2c report -i "$TMP/m.data" --stdio >>"$TMP/p"
done
l=$(cut -d' ' -f1 "$TMP/l" | median)
p=$(cut -d' ' -f1 "$TMP/p" | median)
echo "## Memory samples: locus report vs perf c2c report, $samples samples ($NOISE noise lines), median of $N"
echo
echo "| tool | seconds | samples/s | peak RSS (MiB) |"
echo "| --- | --- | --- | --- |"
echo "| locus report | $l | $(echo "${samples//,/} / $l" | bc) | $(cut -d' ' -f2 "$TMP/l" | median) |"
echo "| perf c2c report --stdio | $p | $(echo "${samples//,/} / $p" | bc) | $(cut -d' ' -f2 "$TMP/p" | median) |"
echo
echo "locus is $(echo "scale=1; $p / $l" | bc)x faster (target: 3x)."
