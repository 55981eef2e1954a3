#!/usr/bin/env bash
# trace_speed.sh - timeline export of one perf.data file: locus report --trace (Chrome trace
# JSON) and --svg-timeline against perf script's text decoding of the same file, interleaved,
# medians of N; bytes written per event. Usage: bench/trace_speed.sh [N] [LOOPS]
set -u
cd "$(dirname "$0")/.."
N=${1:-5}
LOOPS=${2:-8000}
LOCUS=$PWD/locus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "trace_speed.sh: needs root" >&2; exit 1; }

perf sched record -o "$TMP/big.data" -- hackbench -g 4 -l "$LOOPS" >/dev/null 2>&1
events=$(perf script -i "$TMP/big.data" 2>/dev/null | wc -l)
size=$(du -m "$TMP/big.data" | cut -f1)

. bench/lib.sh

for i in $(seq "$N"); do
	elapsed "$LOCUS" report -q -a -i "$TMP/big.data" -o /dev/null >>"$TMP/report"
	elapsed "$LOCUS" report -q -a -i "$TMP/big.data" -o /dev/null --trace "$TMP/t.json" >>"$TMP/trace"
	elapsed "$LOCUS" report -q -a -i "$TMP/big.data" -o /dev/null --svg-timeline "$TMP/t.svg" >>"$TMP/svg"
	elapsed sh -c "perf script -i '$TMP/big.data' >'$TMP/script.txt'" >>"$TMP/script"
done
tbytes=$(stat -c %s "$TMP/t.json")
sbytes=$(stat -c %s "$TMP/t.svg")
pbytes=$(stat -c %s "$TMP/script.txt")
trace_items=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['traceEvents']))" "$TMP/t.json")

echo "## Timeline export: $(date -u +%Y-%m-%d), a perf sched record file of hackbench -g 4 -l $LOOPS: $events events, $size MiB; median of $N interleaved runs"
echo
echo "Each locus run reads the file once (the report's analyzer and the timeline in one pass); events/s counts the file's events. The trace holds $trace_items trace events."
echo
echo "| what | seconds | file events/s | output bytes | bytes per file event | vs perf script | peak RSS (MiB) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
p=$(median <"$TMP/script")
for t in report trace svg script; do
	s=$(median <"$TMP/$t")
	case $t in
	report) name="locus report (no timeline)"; b=0; r=$(rss "$LOCUS" report -q -a -i "$TMP/big.data" -o /dev/null) ;;
	trace) name="locus report --trace"; b=$tbytes; r=$(rss "$LOCUS" report -q -a -i "$TMP/big.data" -o /dev/null --trace "$TMP/t.json") ;;
	svg) name="locus report --svg-timeline"; b=$sbytes; r=$(rss "$LOCUS" report -q -a -i "$TMP/big.data" -o /dev/null --svg-timeline "$TMP/t.svg") ;;
	script) name="perf script (text)"; b=$pbytes; r=$(rss perf script -i "$TMP/big.data") ;;
	esac
	printf '| %s | %.3f | %.0f | %s | %.1f | %.2fx the time | %s |\n' "$name" "$s" "$(echo "$events / $s" | bc -l)" \
		"$b" "$(echo "$b / $events" | bc -l)" "$(echo "$s / $p" | bc -l)" "$r"
done
