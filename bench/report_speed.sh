#!/usr/bin/env bash
# report_speed.sh - events/s reading one perf.data file: locus report vs perf script vs
# perf sched timehist, interleaved, medians of N. Usage: bench/report_speed.sh [N] [LOOPS]
set -u
cd "$(dirname "$0")/.."
N=${1:-5}
LOOPS=${2:-8000}
LOCUS=$PWD/locus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "report_speed.sh: needs root" >&2; exit 1; }

perf sched record -o "$TMP/big.data" -- hackbench -g 4 -l "$LOOPS" >/dev/null 2>&1
events=$(perf script -i "$TMP/big.data" 2>/dev/null | wc -l)
size=$(du -m "$TMP/big.data" | cut -f1)

. bench/lib.sh

for i in $(seq "$N"); do
	elapsed "$LOCUS" report -q -i "$TMP/big.data" -o /dev/null >>"$TMP/locus"
	elapsed perf script -i "$TMP/big.data" >>"$TMP/script"
	elapsed perf sched timehist -i "$TMP/big.data" >>"$TMP/timehist"
	elapsed perf sched latency -i "$TMP/big.data" >>"$TMP/latency"
done
# peak RSS of each, once

echo "## File analysis: $(date -u +%Y-%m-%d), a perf sched record file of hackbench -g 4 -l $LOOPS: $events events, $size MiB; median of $N interleaved runs"
echo
echo "| tool | seconds | events/s | locus is | peak RSS (MiB) |"
echo "| --- | --- | --- | --- | --- |"
l=$(median <"$TMP/locus")
for t in locus script timehist latency; do
	s=$(median <"$TMP/$t")
	case $t in
	locus) name="locus report"; r=$(rss "$LOCUS" report -q -i "$TMP/big.data" -o /dev/null) ;;
	script) name="perf script"; r=$(rss perf script -i "$TMP/big.data") ;;
	timehist) name="perf sched timehist"; r=$(rss perf sched timehist -i "$TMP/big.data") ;;
	latency) name="perf sched latency"; r=$(rss perf sched latency -i "$TMP/big.data") ;;
	esac
	printf '| %s | %.3f | %.0f | %.1fx faster | %s |\n' "$name" "$s" "$(echo "$events / $s" | bc -l)" \
		"$(echo "$s / $l" | bc -l)" "$r"
done
