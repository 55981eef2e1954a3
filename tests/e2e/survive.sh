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

# Ring buffers: the default is sized for the machine; lost records come with the -m that
# would have kept them. Small rings (-m 16) under hackbench make losses likely, not certain.
"$LOCUS" record -v -o "$TMP/t.data" -- true 2>"$TMP/t.err" >/dev/null
check "the default rings are sized for the machine (a power of two above 16 pages)" \
	grep -Eq 'ring buffers: (32|64|128|256|512|1024|2048|4096) pages .* sized for this machine' \
	"$TMP/t.err"
"$LOCUS" record -m 16 -o "$TMP/small.data" -- hackbench -g 4 -l 300 >/dev/null 2>"$TMP/small.err"
lost=$(sed -nE 's/.*wrote [0-9,]+ events \(.*, ([0-9,]+) lost\).*/\1/p' "$TMP/small.err" | tr -d ,)
if [ "${lost:-0}" -gt 0 ]; then
	check "records lost with -m 16 ($lost): the summary names a larger -m" \
		grep -Eq 'would have kept them' "$TMP/small.err"
	keep=$(sed -nE 's/.*-m ([0-9]+) would have kept.*/\1/p' "$TMP/small.err")
	check "its -m ($keep) is a power of two above 16" \
		python3 -c "import sys; k = int('$keep'); sys.exit(not (k > 16 and k & (k - 1) == 0))"
	"$LOCUS" report -q -a -i "$TMP/small.data" --json "$TMP/small.json" >/dev/null
	check "the file's LOST records add up to the summary's count" python3 - "$TMP/small.json" \
		"$lost" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["provenance"]["drops"]["records_lost"] == int(sys.argv[2]), d["provenance"]["drops"]
PY
else
	skip "no record lost with -m 16 on this run: the advice line is not exercised"
fi

finish
