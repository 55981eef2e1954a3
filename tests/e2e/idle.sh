#!/usr/bin/env bash
# idle.sh - idle CPUs passed over, live: tasks pinned to CPU 0 behind a CPU hog can never
# count as passed over (no other CPU is allowed), and while CPU 1 idles they count as
# "not allowed"; the BPF collector says it does not measure it; a file says affinity is
# unknown. The oracle is the same run's own per-CPU idle time.
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "sched tracepoints need root"
	finish
fi
if [ "$(nproc)" -lt 2 ]; then
	skip "needs two CPUs"
	finish
fi

# A sleeper and a hog pinned to CPU 0, started before locus: their affinity is set when
# locus reads it. locus traces them (-p) beside a command that only waits for them.
taskset -c 0 sh -c 'yes >/dev/null & y=$!; i=0; while [ $i -lt 150 ]; do sleep 0.01; i=$((i+1)); done; kill $y' &
pinned=$!
"$LOCUS" run -q --collector perf -p "$pinned" --json "$TMP/p.json" -- \
	sh -c "while kill -0 $pinned 2>/dev/null; do sleep 0.2; done" >"$TMP/p.txt" 2>"$TMP/p.err"
expect_eq "run -p beside a waiting command: exit 0" 0 $?
wait "$pinned" 2>/dev/null
check "pinned: the numbers hold together" python3 - "$TMP/p.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
w, lat = d["wakeups"], d["latency"]
timed = lat["wake_to_run_ns"]["count"]
passed, na = w["idle_passed_over"], w["idle_not_allowed"]
assert timed >= 100, ("the sleeper's wakeups", timed)
# only the waiting command (unpinned, a wakeup every 0.2 s) may have passed over a CPU
assert passed <= 20, ("pinned tasks passed over an idle CPU they may not use", passed)
assert passed + na <= timed, (passed, na, timed)
detail = lat["idle_passed_over_detail"]
assert detail["affinity_known"] is True
assert sum(c["passed_over"] for c in detail["by_class"].values()) == passed
cpus = {c["cpu"]: c for c in d["cpus"]}
span = d["sched"]["span_ns"]
# the oracle: CPU 1 idle most of the run means the sleeper waited while it idled
if cpus[1]["idle_ns"] >= 0.8 * span:
    assert na >= 50, ("CPU 1 idled yet no wakeup found it outside the affinity", na, cpus[1]["idle_ns"], span)
print("timed", timed, "passed", passed, "not allowed", na, "cpu1 idle %.0f%%" % (100.0 * cpus[1]["idle_ns"] / span))
EOF
check "text: the section with its rule" grep -q "rule: target busy at the wakeup" "$TMP/p.txt"

# The BPF collector keeps no idle-CPU state: it says so, in text and as JSON nulls.
if "$LOCUS" run -q --collector bpf --json "$TMP/b.json" -- sleep 0.1 >"$TMP/b.txt" 2>/dev/null; then
	check "bpf: not measured, said in text" grep -q "Idle CPUs passed over: not measured by this collector" "$TMP/b.txt"
	check "bpf: JSON nulls" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["wakeups"]["idle_passed_over"] is None and d["latency"]["idle_passed_over_detail"] is None' "$TMP/b.json"
else
	skip "the BPF collector does not load here"
fi

# A file: affinity unknown, every CPU counted as allowed, said in the rule.
"$LOCUS" record -q -o "$TMP/r.data" -- sh -c 'sleep 0.05; sleep 0.05' >/dev/null 2>&1
"$LOCUS" report -q -i "$TMP/r.data" >"$TMP/r.txt" 2>/dev/null
check "file: affinity unknown, said" grep -q "affinity unknown (a file): every CPU counted as allowed" "$TMP/r.txt"
finish
