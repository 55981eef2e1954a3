#!/usr/bin/env bash
# perfdata.sh - perf.data both ways: perf's files read by locus, locus's files read by perf,
# the same counts as perf script, topology carried in the file (hostile files: regress.sh).
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "recording sched tracepoints needs root"
	finish
fi

# perf script's count of each tracepoint in a file, as JSON
perf_counts() {
	perf script -i "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(sched|ipi):/) { sub(":$", "", $i); n[$i]++; break } }
		END { printf "{"; s = ""; for (k in n) { printf "%s\"%s\": %d", s, k, n[k]; s = ", " } print "}" }'
}

# A file perf sched record wrote: the totals equal perf script's counts exactly.
perf sched record -o "$TMP/ps.data" -- hackbench -g 2 -l 500 >/dev/null 2>&1
check "perf sched record wrote a file" test -s "$TMP/ps.data"
"$LOCUS" report -q -i "$TMP/ps.data" --json "$TMP/ps.json" >"$TMP/ps.txt"
expect_eq "locus report on perf sched record's file exits 0" 0 $?
perf_counts "$TMP/ps.data" >"$TMP/ps.perf.json"
check "perf sched file: wakeup, switch, migration totals equal perf script's" python3 - "$TMP/ps.json" "$TMP/ps.perf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
ev = d["sched"]["events_by_type"]
for name in ("sched_waking", "sched_switch", "sched_migrate_task", "sched_wakeup_new", "sched_process_fork"):
    assert ev.get(name, 0) == p.get("sched:" + name, 0), (name, ev.get(name), p.get("sched:" + name))
w = d["wakeups"]
assert w["source_events"] == w["total"] + w["woken_while_running"] == p["sched:sched_waking"], (w, p)
assert d["migrations"]["total"] == p["sched:sched_migrate_task"]
assert d["input"]["other_tracepoint_samples"] == p.get("sched:sched_stat_runtime", 0)
PY

# A file locus record wrote: perf script reads it, with the same counts as locus report.
"$LOCUS" record -q -o "$TMP/l.data" -- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null
expect_eq "locus record exits with the workload's status" 0 $?
perf script -i "$TMP/l.data" >/dev/null 2>"$TMP/perf.err"
expect_eq "perf script reads locus record's file" 0 $?
check "perf script does not complain" bash -c "! grep -Eiq 'fail|error|invalid' '$TMP/perf.err'"
"$LOCUS" report -q -i "$TMP/l.data" --json "$TMP/l.json" >/dev/null
perf_counts "$TMP/l.data" >"$TMP/l.perf.json"
check "locus file: perf script counts equal locus report's" python3 - "$TMP/l.json" "$TMP/l.perf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
ev = d["sched"]["events_by_type"]
assert ev and {(("ipi:" if k.startswith("ipi_") else "sched:") + k): v for k, v in ev.items()} == p, (ev, p)
assert ev.get("ipi_send_cpu", 0) + ev.get("sched_wake_idle_without_ipi", 0) > 0, ev  # cross-CPU wakeups
w = d["wakeups"]
assert w["by_class"]["node"] + w["by_class"].get("llc", 0) + w["by_class"]["smt"] >= 0.9 * w["total"], w  # no "llc" where the LLC is unknown
PY
check "perf report reads locus record's file" bash -c "perf report -i '$TMP/l.data' --stdio >/dev/null 2>&1"
"$LOCUS" record -q -o "$TMP/x.data" -- sh -c 'exit 6' >/dev/null
expect_eq "locus record keeps the workload's exit status" 6 $?

# record and report agree with run: the file holds the real command line and the workload's
# pid, every task has its name, and locus report follows the workload's tree by default.
check "locus record names every task (perf script shows no bare :PID)" \
	bash -c "! perf script -i '$TMP/l.data' 2>/dev/null | grep -Eq '^ *:[0-9]+ '"
"$LOCUS" record -q -a -C 0-1 -o "$TMP/a.data" -- true >/dev/null
"$LOCUS" report -q -i "$TMP/a.data" --sections wakeups >"$TMP/a.txt" 2>&1
check "locus record stores its real command line (-a, -C)" bash -c \
	"tr '\\n' ' ' <'$TMP/a.txt' | tr -s ' ' | grep -q \"by 'locus record -q -a -C 0-1 -o $TMP/a.data -- true'\""
# (a ping-pong: its wakeups do not vary from run to run as hackbench's do, by 2x here)
"$LOCUS" run -q --collector perf --sections wakeups --json "$TMP/hr.json" -- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
"$LOCUS" record -q -o "$TMP/h.data" -- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
"$LOCUS" report -q -i "$TMP/h.data" --json "$TMP/h.json" >"$TMP/h.txt" 2>&1
check "record + report: the workload's wakeups within 15% of locus run's" \
	python3 - "$TMP/hr.json" "$TMP/h.json" <<'PY'
import json, sys
r, f = (json.load(open(p)) for p in sys.argv[1:3])
# the workload's sched_waking: woke a sleeping task, or found it still running
a, b = (d["wakeups"]["source_events"] for d in (r, f))
assert a > 0 and abs(a - b) <= 0.15 * a, (a, b)
assert f["provenance"]["scope_pid"] > 0, f["provenance"]
PY
check "record + report: the report says it follows the recorded workload" \
	grep -q "workload: pid [0-9]* (its tasks are reported; -a for every task)" "$TMP/h.txt"
"$LOCUS" report -q -a -i "$TMP/h.data" --json "$TMP/ha.json" >/dev/null 2>&1
check "report -a: every task in the file (at least the workload's)" python3 -c '
import json, sys
a, w = (json.load(open(p))["wakeups"]["total"] for p in sys.argv[1:3])
assert a >= w, (a, w)' "$TMP/ha.json" "$TMP/h.json"

# A file recorded with a fixture topology reports that topology's classes here.
"$LOCUS" record -q --sysfs-root tests/fixtures/topology/2s16c2t-64 -o "$TMP/fx.data" -- \
	"$LOCUS" bench pingpong --pin 0,1 --loops 3000 >/dev/null
"$LOCUS" report -q -i "$TMP/fx.data" --json "$TMP/fx.json" >/dev/null
check "the 64-CPU fixture's topology travels in the file" python3 - "$TMP/fx.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["topology"]
assert t["cpus"] == 64 and t["cores"] == 32 and t["nodes"] == 2 and t["llc_groups"] == 2, t
assert d["input"]["topology"].startswith("from the file")
w = d["wakeups"]
assert w["by_class"]["llc"] >= 0.9 * w["total"], w["by_class"]  # CPUs 0 and 1 share an L3 there
PY
check "perf reads the fixture topology too" bash -c "perf report -i '$TMP/fx.data' --header-only -I 2>/dev/null | grep -q 'sibling threads : 0,32'"

# Pipe mode: perf record -o - into locus report -i -.
perf record -q -o - -e sched:sched_switch,sched:sched_waking -a -- "$LOCUS" bench pingpong --pin 0,1 --loops 2000 2>/dev/null |
	"$LOCUS" report -q -i - --json "$TMP/pipe.json" >/dev/null
check "a pipe-mode stream is read" python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); assert d['input']['pipe'] and d['wakeups']['total'] >= 3800, (d['input'], d.get('wakeups', {}).get('total'))" "$TMP/pipe.json"

# A file with samples that are neither sched events nor memory accesses: read, and said so.
perf record -q -o "$TMP/cs.data" -c 1 -e context-switches -- "$LOCUS" bench pingpong --loops 100 >/dev/null 2>&1
"$LOCUS" report -i "$TMP/cs.data" >/dev/null 2>"$TMP/cs.err"
expect_eq "nothing to analyze: exit 1" 1 $?
check "nothing to analyze: it says so" grep -q "no sched tracepoint or memory samples" "$TMP/cs.err"

# Unknown record types are skipped and counted.
python3 - "$TMP/l.data" "$TMP/unk.data" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
off, = struct.unpack_from("<Q", d, 40)
typ, misc, size = struct.unpack_from("<IHH", d, off)
struct.pack_into("<I", d, off, 99)  # the first record becomes an unknown type
open(sys.argv[2], "wb").write(d)
PY
"$LOCUS" report -q -i "$TMP/unk.data" --json "$TMP/unk.json" >"$TMP/unk.txt"
check "an unknown record type is skipped and counted" python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); assert d['input']['unknown_records'] == 1" "$TMP/unk.json"

# Hostile files: one line naming the file, what is wrong and where; exit 1.
hostile() {
	local desc=$1 want=$2
	"$LOCUS" report -q -i "$TMP/h.data" >/dev/null 2>"$TMP/h.err"
	local rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/h.err")" -eq 1 ] && grep -q "^locus: $TMP/h.data: .*$want" "$TMP/h.err"; then
		ok "$desc"
	else
		fail "$desc: exit $rc: $(cat "$TMP/h.err")"
	fi
}
: >"$TMP/h.data"
hostile "an empty file" "too short"
head -c 4096 /dev/urandom >"$TMP/h.data"
hostile "random bytes" "bad magic"
head -c 3000 "$TMP/l.data" >"$TMP/h.data"
hostile "a truncated file" "at offset"
python3 -c "
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<Q', d, 48, 1 << 62)   # data size far past the end
open(sys.argv[2], 'wb').write(d)" "$TMP/l.data" "$TMP/h.data"
hostile "a data section past the end of the file" "outside the file"
python3 -c "
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off, = struct.unpack_from('<Q', d, 40)
struct.pack_into('<H', d, off + 6, 4)    # a record shorter than its header
open(sys.argv[2], 'wb').write(d)" "$TMP/l.data" "$TMP/h.data"
hostile "a record of impossible size" "record of size 4"
"$LOCUS" report -q -i /nonexistent.data >/dev/null 2>"$TMP/h.err"
expect_eq "a missing file: exit 1" 1 $?
check "a missing file: says so" grep -q "^locus: /nonexistent.data: cannot open: No such file" "$TMP/h.err"
# a file that fails to read (EIO at offset 0 of /proc/self/mem) says so, not "too short"
"$LOCUS" report -q -i /proc/self/mem >/dev/null 2>"$TMP/eio.err"
expect_eq "a file that cannot be read: exit 1" 1 $?
check "a file that cannot be read: one line with the read's error" bash -c \
	"[ \$(wc -l <'$TMP/eio.err') -eq 1 ] && grep -q 'cannot read: Input/output error' '$TMP/eio.err'"
check "report with extra words is a usage error" bash -c "'$LOCUS' report -i x y >/dev/null 2>&1; test \$? -eq 2"
finish
