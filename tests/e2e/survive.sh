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

# kill -9 of locus record 3 s into a ping-pong: the file reads up to its last whole record, in
# locus report (which says it was cut short) and in perf script, with the same counts.
"$LOCUS" record -o "$TMP/k.data" -- "$LOCUS" bench pingpong --loops 10000000 >/dev/null 2>&1 &
rec=$!
sleep 3
wl=$(pgrep -P "$rec" | head -n 1)
kill -9 "$rec"
wait "$rec" 2>/dev/null
if [ -n "$wl" ]; then # the workload outlives a killed locus: end it (and its children)
	pkill -9 -P "$wl" 2>/dev/null
	kill -9 "$wl" 2>/dev/null
fi
"$LOCUS" report -i "$TMP/k.data" --json "$TMP/k.json" --trace "$TMP/k.trace.json" \
	>"$TMP/k.txt" 2>"$TMP/k.err"
expect_eq "killed recording: locus report exits 0" 0 $?
check "killed recording: the report says it was cut short, and how far it goes" \
	grep -Eq 'NOTE: cut short at [0-9.]+ s: [0-9,]+ records read' "$TMP/k.txt"
check "killed recording: its switches are reported" \
	grep -Eq '^ Context switches of the traced tasks: [1-9][0-9,]* voluntary' "$TMP/k.txt"
perf script -i "$TMP/k.data" >/dev/null 2>"$TMP/k.perf.err"
expect_eq "killed recording: perf script reads it (a pipe-mode stream until the end)" 0 $?
perf_counts "$TMP/k.data" >"$TMP/k.perf.json"
check "killed recording: every tracepoint's count equals perf script's" \
	same_counts "$TMP/k.json" "$TMP/k.perf.json"
check "killed recording: the JSON and the trace's metadata say so too" python3 - "$TMP/k.json" \
	"$TMP/k.trace.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
e = d["provenance"]["end_missing"]
assert d["input"]["end_missing"] and e["why"] == "not_finished" and e["at_s"] > 0, e
assert e["records_read"] == d["input"]["records"], (e, d["input"])
assert t["otherData"]["locus"]["provenance"]["end_missing"]["text"].startswith("cut short at")
PY

# perf record killed with -9: its header says data size 0 and it never wrote the formats; perf
# refuses the file, locus says why in one line
perf record -q -e sched:sched_switch -o "$TMP/pk.data" -- "$LOCUS" bench pingpong --loops 10000000 \
	>/dev/null 2>&1 &
rec=$!
sleep 1
wl=$(pgrep -P "$rec" | head -n 1)
kill -9 "$rec"
wait "$rec" 2>/dev/null
[ -n "$wl" ] && kill -9 "$wl" 2>/dev/null
perf script -i "$TMP/pk.data" >/dev/null 2>&1
perf_rc=$?
"$LOCUS" report -i "$TMP/pk.data" >/dev/null 2>"$TMP/pk.err"
expect_eq "perf record killed: locus report exits 1 (perf script: $perf_rc)" 1 $?
check "perf record killed: one line saying the formats were never written" \
	bash -c "[ \$(wc -l <'$TMP/pk.err') -eq 1 ] && grep -q 'perf record was stopped before writing them' '$TMP/pk.err'"
rm -f "$TMP/pk.data"

# A finished file cut short afterwards (a partial copy, a full disk while copying): its header's
# data runs past the file's end. Read to its last whole record and said; the oracle counts the
# samples of the cut file apart (pd_count.py, itself checked against perf script of the whole).
"$LOCUS" record -o "$TMP/whole.data" -- hackbench -g 2 -l 200 >/dev/null 2>&1
perf_counts "$TMP/whole.data" >"$TMP/whole.perf.json"
python3 tests/e2e/pd_count.py "$TMP/whole.data" >"$TMP/whole.count.json"
check "pd_count.py counts the whole file as perf script does" python3 - "$TMP/whole.count.json" \
	"$TMP/whole.perf.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
# the sched and ipi tracepoints (perf_counts' awk); the recording's sched_setaffinity
# syscall tracepoints (each task's affinity) are not sched events
a = {k: v for k, v in a.items() if k.split(":")[0] in ("sched", "ipi")}
assert a == b and a.get("sched:sched_switch", 0) > 0, (a, b)
PY
# data_cut FILE FRACTION: the offset FRACTION of the way into FILE's data section (from its header)
data_cut() {
	python3 -c 'import struct, sys; h = struct.unpack_from("<8s6Q", open(sys.argv[1], "rb").read(104))
print(h[5] + int(h[6] * float(sys.argv[2])) + 5)' "$1" "$2"
}
head -c "$(data_cut "$TMP/whole.data" 0.6)" "$TMP/whole.data" >"$TMP/copy.data"
"$LOCUS" report -a -i "$TMP/copy.data" --json "$TMP/copy.json" >"$TMP/copy.txt" 2>"$TMP/copy.err"
expect_eq "a cut copy of a finished file: locus report exits 0" 0 $?
check "a cut copy: nothing on stderr" test ! -s "$TMP/copy.err"
check "a cut copy: the report says so, how far it goes and how much is missing" \
	grep -Eq 'NOTE: the file is cut short at [0-9.]+ s: [0-9,]+ records read, [0-9.]+ (bytes|KiB|MiB|GiB) of its' \
	<(tr -s ' \n' '  ' <"$TMP/copy.txt") # prose folds at 80 columns
python3 tests/e2e/pd_count.py "$TMP/copy.data" --cut >"$TMP/copy.count.json"
check "a cut copy: every tracepoint's count and the data read equal pd_count.py's" \
	python3 - "$TMP/copy.json" "$TMP/copy.count.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2]))
ev = {(("ipi:" if k.startswith("ipi_") else "sched:") + k): v
      for k, v in d["sched"]["events_by_type"].items()}
e = d["provenance"]["end_missing"]
o["counts"] = {k: v for k, v in o["counts"].items() if k.split(":")[0] in ("sched", "ipi")}
assert o["cut"] and ev == o["counts"] and ev.get("sched:sched_switch", 0) > 0, (ev, o)
assert e["why"] == "file_cut" and e["data_bytes_read"] == o["data_read"], (e, o)
assert e["data_bytes_in_header"] > e["data_bytes_read"], e
PY
# perf record's file keeps its tracepoint formats after the data: a cut copy cannot be decoded
perf record -q -e sched:sched_switch -o "$TMP/pw.data" -- hackbench -g 1 -l 100 >/dev/null 2>&1
head -c "$(data_cut "$TMP/pw.data" 0.5)" "$TMP/pw.data" >"$TMP/pcopy.data"
"$LOCUS" report -i "$TMP/pcopy.data" >/dev/null 2>"$TMP/pcopy.err"
expect_eq "a cut copy of perf record's file: exits 1" 1 $?
check "a cut copy of perf record's file: one line saying its formats were after the data" \
	bash -c "[ \$(wc -l <'$TMP/pcopy.err') -eq 1 ] && grep -q 'the file is cut short' '$TMP/pcopy.err'"
# cut after the data, inside the feature table: the data whole, said, the formats still found
head -c "$(data_cut "$TMP/whole.data" 1.0)" "$TMP/whole.data" >"$TMP/copy.data"
"$LOCUS" report -a -i "$TMP/copy.data" --json "$TMP/copy.json" >"$TMP/copy.txt" 2>&1
expect_eq "a copy cut after its data: locus report exits 0" 0 $?
check "a copy cut after its data: said so, and every count equals perf script's of the whole" \
	python3 - "$TMP/copy.json" "$TMP/whole.perf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
ev = {(("ipi:" if k.startswith("ipi_") else "sched:") + k): v
      for k, v in d["sched"]["events_by_type"].items()}
e = d["provenance"]["end_missing"]
assert ev == p and e["why"] == "file_cut", (ev, p, e)
assert e["text"].startswith("the file is cut short after its data"), e
PY
rm -f "$TMP/whole.data" "$TMP/copy.data" "$TMP/pw.data" "$TMP/pcopy.data"

# A full disk (a 1 MiB tmpfs): the file says its end is missing, and every report of it does.
if mkdir -p "$TMP/mnt" && mount -t tmpfs -o size=1m tmpfs "$TMP/mnt" 2>/dev/null; then
	"$LOCUS" record -o "$TMP/mnt/f.data" -- "$LOCUS" bench pingpong --loops 20000 >/dev/null \
		2>"$TMP/f.err"
	expect_eq "1 MiB tmpfs: record exits 1" 1 $?
	"$LOCUS" report -i "$TMP/mnt/f.data" --json "$TMP/f.json" >"$TMP/f.txt" 2>&1
	expect_eq "1 MiB tmpfs: locus report reads the file" 0 $?
	check "1 MiB tmpfs: the report says the end is missing: disk full" \
		grep -Eq 'NOTE: the end is missing: disk full at [0-9.]+ s' "$TMP/f.txt"
	check "1 MiB tmpfs: so does the JSON, with the records record could not write" \
		python3 - "$TMP/f.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["provenance"]["end_missing"]
assert e["why"] == "write_failed" and e["error"] == "No space left on device", e
assert e["records_not_written"] > 0, e
PY
	perf_counts "$TMP/mnt/f.data" >"$TMP/f.perf.json"
	check "1 MiB tmpfs: perf script reads it (the note is a feature perf ignores), same counts" \
		same_counts "$TMP/f.json" "$TMP/f.perf.json"
	umount "$TMP/mnt"
else
	skip "cannot mount a tmpfs: the full-disk case is not exercised"
fi

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
