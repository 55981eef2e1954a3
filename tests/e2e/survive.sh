#!/usr/bin/env bash
# survive.sh - recordings that survive and files read as far as they go: a sched_switch-only
# file, a recording killed with -9, one cut short by a full disk, the ring buffers' losses.
# Oracles: perf script of the same file, perf stat around the same workload.
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "recording sched tracepoints needs root"
	finish
fi

# perf script's count of one tracepoint in a file
perf_count() {
	perf script -i "$1" 2>/dev/null | grep -c " $2: "
}

# A file with sched_switch only: reported as far as it goes, the rest "not in this file".
perf record -q -e sched:sched_switch -o "$TMP/sw.data" -- "$LOCUS" bench pingpong --loops 3000 \
	>/dev/null 2>&1
"$LOCUS" report -q -i "$TMP/sw.data" --json "$TMP/sw.json" >"$TMP/sw.txt" 2>"$TMP/sw.err"
expect_eq "sched_switch-only file: locus report exits 0" 0 $?
check "sched_switch-only file: no refusal on stderr" test ! -s "$TMP/sw.err"
check "sched_switch-only file: the missing sections say 'not in this file'" \
	bash -c "grep -q '^ Wakeups: not in this file' '$TMP/sw.txt' &&
		 grep -q '^ Migrations: not in this file' '$TMP/sw.txt' &&
		 grep -q 'Next time: locus record' '$TMP/sw.txt'"
sw=$(perf_count "$TMP/sw.data" sched:sched_switch)
check "sched_switch-only file: switches equal perf script's ($sw), wakeups null" \
	python3 - "$TMP/sw.json" "$sw" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); want = int(sys.argv[2])
cs = d["context_switches"]
assert want > 0 and d["sched"]["events_by_type"]["sched_switch"] == want, (d["sched"], want)
assert cs["voluntary"] + cs["involuntary"] == want, (cs, want)
assert d["wakeups"]["total"] is None and d["migrations"]["total"] is None
assert "sched:sched_waking" in d["provenance"]["not_in_file"]
PY

finish
