#!/usr/bin/env bash
# mixed.sh - in a lab guest: tbench (its server on 127.0.0.1 in the guest) and hackbench,
# unpinned. A perf recording of tbench: locus report's wakeups equal the oracle's count of
# the same file, every class of the topology present; of the idle rule, what a file without
# affinities allows (passed over not computed) equals idle_oracle.py's. Live runs (BPF with tbench, the perf stream with hackbench), -g and
# blame: agree with the oracle of a perf recording of each run; the blame and stacks
# sections present; the idle CPUs passed over split by how close the closest idle CPU was.
# TBENCH_SECONDS (default 3), LAB_HACKBENCH_LOOPS (default 30).
. "$(dirname "$0")/lib.sh"

tb=(sh -c 'tbench_srv >/dev/null 2>&1 & s=$!; sleep 1; tbench -t "$0" 2 127.0.0.1; kill $s'
    "${TBENCH_SECONDS:-3}")
classes=$("$PY" "$LAB/sysfs_topo.py" classes)
echo "classes this topology has: $classes"

# every class present: in locus's JSON and in the oracle's
all_classes() {
	"$PY" - "$@" <<'PY'
import json, sys
want = sys.argv[3].split()
for f in sys.argv[1:3]:
    c = json.load(open(f))
    c = c["wakeups"]["by_class"] if "wakeups" in c else c["by_class"]
    print(f.rsplit("/", 1)[-1], c)
    assert all(c.get(k, 0) > 0 for k in want), (f, want, c)
PY
}

# A recording by perf (locus record's file carries /proc/schedstat snapshots that perf 6.1
# cannot read): locus report of it against the oracle of the same file, exactly.
perf record -q -m 1024 -a -e "$TPS" -o "$TMP/tb.data" -- "$LAB/root.sh" "$TMP/tb.root" "${tb[@]}" \
	>"$TMP/tb.out" 2>&1
expect_eq "perf record of tbench: exit 0" 0 $?
grep Throughput "$TMP/tb.out"
COLUMNS=100 "$LOCUS" report -i "$TMP/tb.data" -p "$(cat "$TMP/tb.root")" --json "$TMP/tb.json" \
	>"$TMP/tbench-report.txt" 2>&1
expect_eq "locus report of the recording: exit 0" 0 $?
perf script -i "$TMP/tb.data" --ns -F pid,tid,cpu,time,event,trace 2>/dev/null >"$TMP/tb.script"
"$PY" "$LAB/wake_oracle.py" --root "$(cat "$TMP/tb.root")" <"$TMP/tb.script" >"$TMP/tb.oracle.json"
check "tbench recorded: every count equals the oracle's (total, placed, running, classes, cells, pairs)" \
	"$PY" "$LAB/compare.py" exact "$TMP/tb.json" "$TMP/tb.oracle.json"
check "tbench recorded: every class of the topology has wakeups ($classes)" \
	all_classes "$TMP/tb.json" "$TMP/tb.oracle.json" "$classes"
# idle CPUs passed over, every task of the file (-a): a perf record file holds no task's
# affinity, so locus does not compute them (null, said); what it does compute of the idle
# rule (the wakeups timed, switch-ins inferred, CPU time unknown) equals
# tests/e2e/idle_oracle.py's count of the same file. (The exact passed-over count is checked
# on locus's own recordings by tests/e2e/idle.sh: Debian 12's perf 6.1 cannot read a locus
# recording made on a kernel with /proc/schedstat, 'failed to process type: 85'.)
perf script -i "$TMP/tb.data" --ns -F tid,cpu,time,event,trace 2>/dev/null |
	"$PY" tests/e2e/idle_oracle.py >"$TMP/tb.idle.oracle"
"$LOCUS" report -a -q -i "$TMP/tb.data" --json "$TMP/tb-all.json" >"$TMP/tb-all.txt" 2>&1
check "tbench recorded by perf, every task: passed over not computed (no affinity), the rest of the idle rule equal idle_oracle.py's" \
	"$PY" - "$TMP/tb-all.json" "$TMP/tb.idle.oracle" <<'PY'
import json, sys
d, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
w, lat, p = d["wakeups"], d["latency"], d["provenance"]
got = {"timed": lat["wake_to_run_ns"]["count"], "inferred": p["switch_ins_inferred"],
       "unknown_ns": p["unknown_cpu_ns"]}
print("locus ", got, "passed over", w["idle_passed_over"])
print("oracle", o)
assert w["idle_passed_over"] is None, w["idle_passed_over"]
assert got == {k: o[k] for k in got}, (got, o)
PY
keep "$TMP/tbench-report.txt" "$TMP/tb.json" "$TMP/tb.oracle.json"

# sections of a live run: blame, stacks, the idle split by closeness
sections() {
	"$PY" - "$1" "$2" <<'PY'
import json, re, sys
d, text = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
b, s, lat = d["blame"], d["stacks"], d["latency"]["idle_passed_over_detail"]
print("blame by class:", {k: v["wakeups"] for k, v in b["by_class"].items()})
assert sum(v["wakeups"] for v in b["by_class"].values()) > 0 and b["all"], b.keys()
assert "Why woken tasks waited" in text
print("stacks: wakers %d, blocked %d, offwake %d" % (s["wakers"]["count"], s["blocked"]["count"],
                                                      s["offwake"]["count"]))
assert s["wakers"]["count"] > 0 and s["wakers"]["top"], s["wakers"].keys()
assert re.search(r"^ .*[Ww]aker.*stacks", text, re.M), "no waker stacks section in the text"
close = lat["closest_idle_cpu"]
passed = sum(v["passed_over"] for v in lat["by_class"].values())
print("idle passed over %d, closest idle CPU %s" % (passed, close))
assert sum(close.values()) == passed, (close, passed)
assert re.search(r"closest idle", text), "no closest-idle line in the text"
PY
}

recorded tb-live run --collector bpf -g --delay-rate 0 --sections all,blame --json "$TMP/tb-live.json" \
	-- "${tb[@]}" >"$TMP/tb-live.txt" 2>&1
expect_eq "locus run -g (BPF) of tbench under perf record: exit 0" 0 $?
check "tbench live (BPF): agrees with the oracle of its run" \
	"$PY" "$LAB/compare.py" close "$TMP/tb-live.json" "$TMP/tb-live.oracle.json"
check "tbench live (BPF): blame, stacks, idle passed over by closeness" \
	sections "$TMP/tb-live.json" "$TMP/tb-live.txt"

recorded hb-live run -g --collector perf --sections all,blame --json "$TMP/hb-live.json" \
	-- hackbench -g 2 -l "${LAB_HACKBENCH_LOOPS:-30}" >"$TMP/hb-live.txt" 2>&1
expect_eq "locus run -g --collector perf of hackbench under perf record: exit 0" 0 $?
check "hackbench live (perf): agrees with the oracle of its run" \
	"$PY" "$LAB/compare.py" close "$TMP/hb-live.json" "$TMP/hb-live.oracle.json"
check "hackbench live (perf): every class of the topology has wakeups ($classes)" \
	all_classes "$TMP/hb-live.json" "$TMP/hb-live.oracle.json" "$classes"
check "hackbench live (perf): blame, stacks, idle passed over by closeness" \
	sections "$TMP/hb-live.json" "$TMP/hb-live.txt"
keep "$TMP/tb-live.txt" "$TMP/hb-live.txt"
finish
