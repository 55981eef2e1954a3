#!/usr/bin/env bash
# stat.sh - locus stat on real workloads, perf stat as the oracle; exit codes; signals; JSON.
. "$(dirname "$0")/../lib.sh"

# Context switches of the ping-pong: about two per round trip, within 5% of perf.
"$LOCUS" stat -e context-switches -- "$LOCUS" bench pingpong --loops 20000 >"$TMP/l.txt" 2>&1
perf stat -x, -e context-switches -- "$LOCUS" bench pingpong --loops 20000 >/dev/null 2>"$TMP/p.txt"
l=$(counter_value context-switches "$TMP/l.txt")
p=$(awk -F, '$3 == "context-switches" { print $1 }' "$TMP/p.txt")
check "pingpong 20000: at least 38000 context switches (got $l)" test "${l:-0}" -ge 38000
check "pingpong 20000: locus $l within 5% of perf $p" within_pct "${l:-0}" "${p:-0}" 5

# Exit status is the workload's.
"$LOCUS" stat -- sh -c 'exit 7' >/dev/null 2>&1
expect_eq "exit status of the workload" 7 $?
"$LOCUS" stat -- sh -c 'kill -9 $$' >/dev/null 2>&1
expect_eq "workload killed by SIGKILL exits 137" 137 $?
"$LOCUS" stat -- /nonexistent >"$TMP/o.txt" 2>"$TMP/e.txt"
expect_eq "missing program exits 127" 127 $?
expect_eq "missing program: one line" "locus: cannot run '/nonexistent': No such file or directory" "$(cat "$TMP/e.txt")"
check "missing program: no report" test ! -s "$TMP/o.txt"

# Usage errors: one line naming the bad value, exit 2.
usage_case() {
	local want=$1
	shift
	"$LOCUS" stat "$@" >/dev/null 2>"$TMP/u.txt"
	local rc=$? lines
	lines=$(wc -l <"$TMP/u.txt")
	if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$want" "$TMP/u.txt"; then
		ok "usage error for '$*' names '$want'"
	else
		fail "usage error for '$*': exit $rc, $lines lines: $(cat "$TMP/u.txt")"
	fi
}
usage_case "bogus" -e bogus -- true
usage_case "bogus2" -e cycles,bogus2 -- true
usage_case "does not exist" -C 0-9999 -- true
usage_case "x-1" -C x-1 -- true
usage_case "'0'" -r 0 -- true
usage_case "'abc'" -r abc -- true
usage_case "--frobnicate" --frobnicate -- true
usage_case "needs a value" -e
usage_case "nothing to count" 
usage_case "no process" -p 4194000
usage_case "not both" -p 1 -- true

# SIGINT to locus is forwarded; the counts are still printed. A background job
# starts with SIGINT ignored, so restore the default as a terminal would have it.
dfl_int() {
	exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
wait_child() {
	for _ in $(seq 50); do pgrep -P "$1" "$2" >/dev/null && return; sleep 0.1; done
}
dfl_int "$LOCUS" stat -e context-switches,task-clock -- sleep 20 >"$TMP/int.txt" 2>&1 &
lp=$!
wait_child $lp sleep
kill -INT $lp
wait $lp
expect_eq "SIGINT: exit 130 (the workload's death by SIGINT)" 130 $?
check "SIGINT: counts still printed" grep -q "task-clock" "$TMP/int.txt"
check "SIGINT: report says it was interrupted" grep -q "interrupted" "$TMP/int.txt"

# A workload that ignores SIGINT (here inherited from the background job): the
# first interrupt is passed on, the second kills it.
"$LOCUS" stat -e task-clock -- sleep 20 >"$TMP/int2.txt" 2>&1 &
lp=$!
wait_child $lp sleep
kill -INT $lp
sleep 0.3
check "SIGINT ignored by the workload: still running after the first" kill -0 $lp
kill -INT $lp
wait $lp
expect_eq "second SIGINT kills the workload (137)" 137 $?
check "second SIGINT: counts still printed" grep -q "task-clock" "$TMP/int2.txt"

# SIGTERM likewise.
"$LOCUS" stat -e task-clock -- sleep 20 >"$TMP/term.txt" 2>&1 &
lp=$!
wait_child $lp sleep
kill -TERM $lp
wait $lp
expect_eq "SIGTERM: exit 143" 143 $?
check "SIGTERM: counts still printed" grep -q "task-clock" "$TMP/term.txt"

# Hardware counters without a PMU: "not supported" with the reason, never a number.
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	"$LOCUS" stat --json "$TMP/s.json" -- true >"$TMP/hw.txt" 2>&1
	for ev in cycles cache-misses hitm; do
		check "no PMU: $ev says not supported" grep -Eq "not supported +$ev " "$TMP/hw.txt"
	done
	check "no PMU: the reason is printed" grep -q "no hardware PMU" "$TMP/hw.txt"
	check "no PMU: the reason is printed once" test "$(grep -c 'no hardware PMU' "$TMP/hw.txt")" -eq 1
	check "no PMU: JSON has supported false and a reason for cycles" python3 - "$TMP/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["name"]: x for x in d["counters"]}
assert c["cycles"]["supported"] is False and "value" not in c["cycles"], c["cycles"]
assert "no hardware PMU" in c["cycles"]["reason"]
assert c["hitm"]["supported"] is False
assert c["context-switches"]["supported"] is True
PY
else
	skip "this machine has a hardware PMU: the not-supported path is not reachable"
fi

# JSON agrees with the text report.
"$LOCUS" stat -r 3 --json "$TMP/r.json" -e context-switches -- "$LOCUS" bench pingpong --loops 2000 >"$TMP/r.txt" 2>&1
check "-r 3: header says 3 runs" grep -q "(3 runs)" "$TMP/r.txt"
check "-r 3: stddev shown" grep -q "+-" "$TMP/r.txt"
check "-r 3: JSON has three runs and the text's mean" python3 - "$TMP/r.json" "$(counter_value context-switches "$TMP/r.txt")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["counters"][0]
assert d["runs"] == 3 and len(c["runs"]) == 3
assert round(c["value"]) == int(sys.argv[2]), (c["value"], sys.argv[2])
assert d["context_switch_split"]["supported"] is True
PY

# Per-CPU and system-wide.
"$LOCUS" stat -A -e context-switches -- "$LOCUS" bench pingpong --loops 2000 >"$TMP/a.txt" 2>&1
check "-A prints a line per CPU" grep -q "^ CPU0 " "$TMP/a.txt"
"$LOCUS" stat -a -e context-switches -- "$LOCUS" bench pingpong --loops 2000 >"$TMP/sw.txt" 2>&1
v=$(counter_value context-switches "$TMP/sw.txt")
check "-a counts at least the workload's 4000 switches (got $v)" test "${v:-0}" -ge 3800
check "-a has no per-task split, and says so" grep -q "system-wide counting has no per-task split" "$TMP/sw.txt"

# Attach to a running process until it exits (2 s: a busy machine's set-up time within it).
sleep 2 &
sp=$!
"$LOCUS" stat -p $sp -e context-switches >"$TMP/p.txt" 2>&1
expect_eq "-p: exits 0 when the process ends" 0 $?
check "-p: report names the process" grep -q "process id '$sp'" "$TMP/p.txt"

# A process that ended before locus attached (a zombie: its parent never reaps it) is a
# runtime error that says so, not a report of "No such process" for every counter, exit 0.
python3 -c 'import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
print(pid, flush=True)
time.sleep(30)' >"$TMP/zpid" &
zp=$!
for _ in $(seq 1 50); do [ -s "$TMP/zpid" ] && break; sleep 0.1; done
z=$(cat "$TMP/zpid")
"$LOCUS" stat -p "$z" -e context-switches >"$TMP/z.out" 2>"$TMP/z.err"
expect_eq "-p of a process already ended: runtime error" 1 $?
check "-p of a process already ended: one line saying so, no report" bash -c \
	"[ \$(wc -l <'$TMP/z.err') -eq 1 ] && grep -q 'ended before locus could attach' '$TMP/z.err' && test ! -s '$TMP/z.out'"
kill "$zp" 2>/dev/null

# Tracepoints count like perf's.
if have_root; then
	"$LOCUS" stat -e sched:sched_switch -- "$LOCUS" bench pingpong --loops 5000 >"$TMP/t.txt" 2>&1
	v=$(counter_value sched:sched_switch "$TMP/t.txt")
	check "sched:sched_switch counted (got $v, expect about 10000)" test "${v:-0}" -ge 9500
else
	skip "tracepoints need root here"
fi
finish
