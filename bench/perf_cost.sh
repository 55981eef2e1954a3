#!/usr/bin/env bash
# perf_cost.sh - what the perf collector (run --collector perf, and record) costs the pinned
# ping-pong, against an earlier build in the same interleaved run.
#
# Per round, back to back: bare, then each variant. Three measures per run: the workload's
# own round trips/s against the bare run of its round (noisy on a shared machine), and two
# that the machine's load barely moves, from locus -v: the reader thread's CPU time per
# event (ns, i.e. us per 1000 events) and the reader's wakeups (returns of its wait) per
# 1000 events; with the whole process's CPU time per 1000 events (startup included).
# Usage: LOCUS_BASE=path [LOCUS_MID=path] [VARIANTS=...] [PP_LOOPS=20000] bench/perf_cost.sh [N]
# Variants: perf, base-perf, mid-perf (run --collector perf), record, base-record, mid-record
# (locus record); base-* run LOCUS_BASE, mid-* LOCUS_MID (a build between, for a step's share).
set -u
cd "$(dirname "$0")/.."
N=${1:-9}
LOCUS=${LOCUS:-$PWD/locus}
BASE=${LOCUS_BASE:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "perf_cost.sh: needs root (tracepoints)" >&2; exit 1; }
variants=${VARIANTS:-"perf base-perf record base-record"}
[ -n "$BASE" ] || variants=$(echo "$variants" | tr ' ' '\n' | grep -v '^base-' | tr '\n' ' ')
[ -n "${LOCUS_MID:-}" ] || variants=$(echo "$variants" | tr ' ' '\n' | grep -v '^mid-' | tr '\n' ' ')
PP="$LOCUS bench pingpong --pin 0,1 --loops ${PP_LOOPS:-20000}"

# run VARIANT: prints "rt/s events reader_ms wakeups process_ms lost MiB reader_faults"
run() {
	local v=$1 out=$TMP/out bin=$LOCUS
	case $v in base-*) bin=$BASE ;; mid-*) bin=$LOCUS_MID ;; esac
	case $v in
	bare) $PP >"$out" 2>&1 ;;
	*perf) "$bin" run -v --collector perf -- $PP >"$out" 2>&1 ;;
	*record) "$bin" record -v -o "$TMP/r.data" -- $PP >"$out" 2>&1 ;;
	esac
	awk '/round trips\/s$/ { rt = $(NF - 2) }
		/reader thread:/ { for (i = 1; i <= NF; i++) {
			if ($i == "for" && ev == "") ev = $(i + 1)
			if ($i ~ /^wakeups[,;]/) wk = $(i - 1)
			if ($i == "page" && $(i + 1) ~ /^faults/) pf = $(i - 1)
			if ($i == "thread:") rd = $(i + 1) }
			pc = $(NF - 3) }
		/ events \(/ && / lost/ { for (i = 2; i <= NF; i++) {
			if ($i ~ /^lost/) { lost = $(i - 1); gsub(/[,(]/, "", lost)
				if (lost == "none") lost = 0 }
			if ($i == "events" && $(i + 1) ~ /^\(/) { mb = substr($(i + 1), 2)
				u = $(i + 2); mb *= u ~ /^KiB/ ? 1 / 1024 : u ~ /^GiB/ ? 1024 : 1 } } }
		END { printf "%s %s %s %s %s %s %s %s\n", rt ? rt : "NaN", ev ? ev : 0, rd ? rd : 0,
			wk ? wk : 0, pc ? pc : 0, lost == "" ? "?" : lost, mb ? mb : 0, pf ? pf : 0 }' "$out"
}

. bench/lib.sh
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$N"); do
	for v in bare $variants; do
		run "$v" >>"$TMP/$v"
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

echo "## The perf collector's cost: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), $N interleaved rounds"
echo
echo "Load average (1, 5, 15 min) at the start: $load0; at the end: $load1."
echo
echo "| variant | round trips/s | per-round vs bare | reader CPU ns per event (us per 1000) | reader wakeups per 1000 events | reader page faults per 1000 events | process CPU ms per 1000 events | bytes per event | events per run | lost per run |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for v in bare $variants; do
	rt=$(cut -d' ' -f1 "$TMP/$v" | median)
	if [ "$v" = bare ]; then
		printf '| bare | %s | 1 | - | - | - | - | - | - | - |\n' "$rt"
		continue
	fi
	ratio=$(paste -d' ' "$TMP/bare" "$TMP/$v" |
		awk '$1 > 0 && $9 > 0 { printf "%.4f\n", $9 / $1 }' | quartiles)
	ns=$(awk '$2 > 0 { printf "%.1f\n", $3 * 1e6 / $2 }' "$TMP/$v" | quartiles)
	wk=$(awk '$2 > 0 { printf "%.3f\n", $4 * 1000 / $2 }' "$TMP/$v" | quartiles)
	pf=$(awk '$2 > 0 { printf "%.2f\n", $8 * 1000 / $2 }' "$TMP/$v" | quartiles)
	pc=$(awk '$2 > 0 { printf "%.2f\n", $5 * 1000 / $2 }' "$TMP/$v" | quartiles)
	ev=$(cut -d' ' -f2 "$TMP/$v" | median)
	by=$(awk '$2 > 0 { printf "%.1f\n", $7 * 1048576 / $2 }' "$TMP/$v" | median)
	lost=$(cut -d' ' -f6 "$TMP/$v" | tr '\n' ' ')
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$v" "$rt" "$ratio" "$ns" \
		"$wk" "$pf" "$pc" "$by" "$ev" "$lost"
done
# each build against the base of its round (the same command): the drift between rounds cancels
if [ -n "$BASE" ]; then
	echo
	echo "Per round against base-* of the same round, median [quartiles] of the ratios:"
	echo
	echo "| variant | against | reader CPU per event | reader page faults per event | bytes per event | round trips/s |"
	echo "| --- | --- | --- | --- | --- | --- |"
	for v in $variants; do
		case $v in base-*) continue ;; esac
		b=base-${v#mid-}
		[ -f "$TMP/$b" ] || continue
		pr() { paste -d' ' "$TMP/$v" "$TMP/$b" | awk "\$2 > 0 && \$10 > 0 && $1 { printf \"%.3f\\n\", $2 }" |
			quartiles; }
		printf '| %s | %s | %s | %s | %s | %s |\n' "$v" "$b" \
			"$(pr '$11 > 0' '($3 / $2) / ($11 / $10)')" "$(pr '$16 > 0' '($8 / $2) / ($16 / $10)')" \
			"$(pr '$15 > 0' '($7 / $2) / ($15 / $10)')" "$(pr '$1 > 0 && $9 > 0' '$1 / $9')"
	done
fi
echo
echo "Medians [quartiles] of the rounds. perf: $LOCUS run --collector perf; record: locus record"
echo "(every task's events to a file); base-*: ${BASE:-none} (the build before), mid-*: ${LOCUS_MID:-none},"
echo "the same commands."
echo "Raw rows (round trips/s, events, reader CPU ms, wakeups, process CPU ms, lost, MiB, faults):"
for v in $variants; do
	echo "$v: $(tr '\n' ';' <"$TMP/$v")"
done
