#!/usr/bin/env bash
# report_speed.sh - events/s reading one perf.data file: locus report vs perf script vs
# perf sched timehist and latency, interleaved, medians of N (wall and CPU time: the CPU
# time moves less with the other tasks of a shared machine). With LOCUS_BASE=path, that
# build's locus report too, in the same rounds. The ratio to perf script (CPU time) against
# the last recorded figure (bench/recorded.txt report_vs_script), and whether it reaches 10x.
# Usage: [LOCUS_BASE=path] bench/report_speed.sh [N] [LOOPS]
set -u
cd "$(dirname "$0")/.."
N=${1:-5}
LOOPS=${2:-8000}
LOCUS=$PWD/locus
BASE=${LOCUS_BASE:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "report_speed.sh: needs root" >&2; exit 1; }

perf sched record -o "$TMP/big.data" -- hackbench -g 4 -l "$LOOPS" >/dev/null 2>&1
events=$(perf script -i "$TMP/big.data" 2>/dev/null | wc -l)
size=$(du -m "$TMP/big.data" | cut -f1)

. bench/lib.sh

tools="locus script timehist latency"
[ -n "$BASE" ] && tools="locus base $tools"
tools=$(echo "$tools" | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
cmd() {
	case $1 in
	locus) echo "$LOCUS report -q -i $TMP/big.data -o /dev/null" ;;
	base) echo "$BASE report -q -i $TMP/big.data -o /dev/null" ;;
	script) echo "perf script -i $TMP/big.data" ;;
	timehist) echo "perf sched timehist -i $TMP/big.data" ;;
	latency) echo "perf sched latency -i $TMP/big.data" ;;
	esac
}
for i in $(seq "$N"); do
	for t in $tools; do
		# shellcheck disable=SC2046
		wall_cpu $(cmd "$t") >>"$TMP/$t"
	done
done

echo "## File analysis: $(date -u +%Y-%m-%d), a perf sched record file of hackbench -g 4 -l $LOOPS: $events events, $size MiB; median of $N interleaved runs"
echo
echo "Load average (1, 5, 15 min) at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| tool | seconds | CPU seconds | events/s | locus is (wall) | locus is (CPU) | peak RSS (MiB) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
l=$(cut -d' ' -f1 "$TMP/locus" | median)
lc=$(cut -d' ' -f2 "$TMP/locus" | median)
for t in $tools; do
	s=$(cut -d' ' -f1 "$TMP/$t" | median)
	c=$(cut -d' ' -f2 "$TMP/$t" | median)
	case $t in
	locus) name="locus report" ;;
	base) name="locus report, $BASE" ;;
	script) name="perf script" ;;
	timehist) name="perf sched timehist" ;;
	latency) name="perf sched latency" ;;
	esac
	# shellcheck disable=SC2046
	r=$(rss $(cmd "$t"))
	printf '| %s | %.3f | %.3f | %.0f | %.1fx faster | %.1fx faster | %s |\n' "$name" "$s" "$c" \
		"$(echo "$events / $s" | bc -l)" "$(echo "$s / $l" | bc -l)" "$(echo "$c / $lc" | bc -l)" "$r"
done
echo
vs=$(echo "$(cut -d' ' -f2 "$TMP/script" | median) / $lc" | bc -l | xargs printf '%.1f')
if [ "$(echo "$vs >= 10" | bc -l)" = 1 ]; then
	echo "- locus report is ${vs}x faster than perf script in CPU time: at least 10x"
else
	echo "- locus report is ${vs}x faster than perf script in CPU time: BELOW 10x"
fi
against_recorded report_vs_script "$vs" "x perf script (CPU)"
