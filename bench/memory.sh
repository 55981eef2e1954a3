#!/usr/bin/env bash
# memory.sh - peak RSS and lost events of each tool on the same workload, and locus's RSS
# on a short and a long tbench run (it must not grow with duration).
# Usage: bench/memory.sh [LONG_SECONDS]   (default 60)
set -u
cd "$(dirname "$0")/.."
LONG=${1:-60}
LOCUS=$PWD/locus
TMP=$(mktemp -d)
trap 'kill $srv 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "memory.sh: needs root" >&2; exit 1; }
HB="$(command -v hackbench) -g 4 -l 2000"

# peak RSS (MiB) of a command and its descendants, largest process
rss() {
	python3 -c "import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=open('$TMP/out', 'w'), stderr=open('$TMP/err', 'w'))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)" "$@"
}

echo "## Memory and lost events: $(date -u +%Y-%m-%d), hackbench -g 4 -l 2000, default buffers"
echo
echo "| tool | peak RSS (MiB) | lost events |"
echo "| --- | --- | --- |"
m=$(rss "$LOCUS" run --collector bpf --sections wakeups -- $HB)
echo "| locus run --collector bpf | $m | $(sed -n 's/.*none lost.*/0 (maps; pairs beyond the table are counted)/p' "$TMP/out" | head -1) |"
m=$(rss "$LOCUS" run --collector perf --sections wakeups -- $HB)
echo "| locus run --collector perf | $m | $(sed -n 's/.*events (.*), \([0-9,]*\) lost.*/\1/p' "$TMP/out" | head -1) |"
m=$(rss perf sched record -o "$TMP/p.data" -- $HB)
lost=$(perf report -i "$TMP/p.data" --stats 2>/dev/null | awk '/LOST events/ { print $NF }' | head -1)
echo "| perf sched record | $m | ${lost:-0} |"
m=$(rss perf record -a -o "$TMP/r.data" -e sched:sched_waking,sched:sched_wakeup -e sched:sched_switch,sched:sched_migrate_task -- $HB)
lost=$(perf report -i "$TMP/r.data" --stats 2>/dev/null | awk '/LOST events/ { print $NF }' | head -1)
echo "| perf record (4 sched tracepoints) | $m | ${lost:-0} |"
if command -v bpftrace >/dev/null; then
	m=$(rss bpftrace -q -e 'tracepoint:sched:sched_waking { @w[cpu, args->target_cpu] = count(); }
		tracepoint:sched:sched_switch { @s[cpu] = count(); }
		tracepoint:sched:sched_migrate_task { @m[args->orig_cpu, args->dest_cpu] = count(); }' -c "$HB")
	echo "| bpftrace (counts in maps) | $m | 0 (maps) |"
fi
if command -v tbench_srv >/dev/null; then
	tbench_srv >/dev/null 2>&1 &
	srv=$!
	sleep 0.5
	echo
	echo "locus run on tbench 2 (loopback): peak RSS by duration"
	echo
	echo "| collector | 10 s | $LONG s |"
	echo "| --- | --- | --- |"
	for c in bpf perf; do
		a=$(rss "$LOCUS" run -q --collector $c -- tbench -t 10 2 127.0.0.1)
		b=$(rss "$LOCUS" run -q --collector $c -- tbench -t "$LONG" 2 127.0.0.1)
		echo "| $c | $a MiB | $b MiB |"
	done
fi
