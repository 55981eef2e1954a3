#!/usr/bin/env bash
# sanitizers.sh - the ASan/UBSan build of locus on real runs: same results, no reports.
. "$(dirname "$0")/../lib.sh"
SAN=$PWD/build/locus-san
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp

san_run() {
	local want=$1 desc=$2
	shift 2
	"$SAN" "$@" >"$TMP/o.txt" 2>"$TMP/e.txt"
	local rc=$?
	if grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$TMP/e.txt"; then
		fail "$desc: sanitizer report: $(head -n 5 "$TMP/e.txt")"
	elif [ $rc -ne "$want" ]; then
		fail "$desc: exit $rc, want $want: $(head -n 3 "$TMP/e.txt")"
	else
		ok "$desc"
	fi
}
san_run 0 "stat on pingpong" stat -- "$SAN" bench pingpong --loops 2000
san_run 0 "stat -r 2 -A --json" stat -r 2 -A --json "$TMP/j.json" -- "$SAN" bench pingpong --loops 500
san_run 0 "stat -a with tracepoints" stat -a -e sched:sched_switch,cs -- true
san_run 7 "stat exit status" stat -- sh -c 'exit 7'
san_run 127 "stat on a missing program" stat -- /nonexistent
san_run 2 "stat with a bad event" stat -e nope -- true
san_run 2 "stat with a bad CPU list" stat -C 5-1 -- true
"$PWD/build/memgen" "$TMP/m.data" tests/fixtures/topology/2s16c2t-64 200
san_run 0 "report on memory samples, with symbols" report -q -i "$TMP/m.data" --json "$TMP/m.json"
san_run 0 "report on perf sched record-like file" report -q -i tests/fuzz/corpus/perf-sched-true.data
san_run 0 "doctor" doctor
san_run 0 "list" list
san_run 0 "falseshare" bench falseshare --loops 100000
san_run 0 "run (built-in workload)" run -q
san_run 0 "run -a with every section and --svg" run -q -a --svg "$TMP/s.svg" --json "$TMP/r.json" -- "$SAN" bench pingpong --loops 3000
san_run 0 "run with a 512-CPU fixture topology" run -q --sysfs-root tests/fixtures/topology/8n512 -- "$SAN" bench pingpong --loops 3000
san_run 3 "run without tracefs (perf collector)" run -q --collector perf --tracefs /nonexistent -- sh -c "exit 3"
san_run 0 "top, text snapshots, 512-CPU topology" top -q --text -n 3 -d 0.2 --sysfs-root tests/fixtures/topology/8n512 -- "$SAN" bench pingpong --loops 200000
san_run 4 "top: the workload ends first" top -q --text -d 0.2 -- sh -c "$SAN bench pingpong --loops 3000; exit 4"
san_run 0 "run: a sweep with a metric, JSON and SVG" run -q -r 2 --sweep n=100,200 --metric pingpong --json "$TMP/sw.json" --svg "$TMP/sw.svg" -- "$SAN" bench pingpong --loops {n}
san_run 0 "diff of two loops, text and JSON" diff -q --json "$TMP/d.json" "$TMP/sw.json" tests/fixtures/sweep/base.json
san_run 1 "diff of a broken file" diff tests/fixtures/topology/8n512/online tests/fixtures/sweep/base.json
finish
