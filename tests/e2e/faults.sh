#!/usr/bin/env bash
# faults.sh - what locus does when things go wrong: signals, crashing workloads, a full
# disk, a read-only path, an unprivileged user. Each case: the exit status, the message,
# and that nothing already measured is lost.
. "$(dirname "$0")/../lib.sh"

# wait_for_workload PATTERN: until a process matching PATTERN exists (up to 5 s)
wait_for_workload() {
	for _ in $(seq 50); do pgrep -f "$1" >/dev/null && return 0; sleep 0.1; done
	return 1
}

# Signals to locus run: relayed to the workload; the report of what ran is still printed.
# (a background job starts with SIGINT ignored, and under nohup SIGHUP too: the workload
# sets them back to default)
for sig in INT TERM HUP; do
	"$LOCUS" run -q --sections counters,wakeups -- python3 -c 'import signal, time
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
time.sleep(30)' >"$TMP/$sig.txt" 2>&1 &
	lp=$!
	wait_for_workload "^python3 -c import signal" || echo "# SIG$sig: the workload did not show up in 5 s"
	sleep 0.3
	kill -$sig $lp
	wait $lp
	rc=$?
	want=$((128 + $(kill -l $sig)))
	expect_eq "SIG$sig to locus run: the workload's status ($want)" "$want" "$rc"
	check "SIG$sig to locus run: the report is printed" grep -q "task-clock" "$TMP/$sig.txt"
done

# The workload runs in its own process group: a second SIGINT ends the whole tree, even
# a child that ignores SIGINT as its shell does; and so does locus's own death.
"$LOCUS" run -q --sections counters -- sh -c 'trap "" INT; sleep 31.5; echo' >"$TMP/int2.txt" 2>&1 &
lp=$!
wait_for_workload "^sleep 31.5" || echo "# two SIGINTs: the workload did not show up in 5 s"
sleep 0.3
kill -INT $lp
sleep 0.5
check "one SIGINT: a tree ignoring it goes on" bash -c 'pgrep -f "^sleep 31.5" >/dev/null'
kill -INT $lp
wait $lp
expect_eq "two SIGINTs: the workload's status (SIGKILL)" 137 $?
sleep 0.2
check "two SIGINTs: no process of the tree is left" bash -c '! pgrep -f "^sleep 31.5"'
check "two SIGINTs: the report is printed" grep -q "task-clock" "$TMP/int2.txt"
"$LOCUS" run -q -- sh -c 'sleep 32.5; echo' >/dev/null 2>&1 &
lp=$!
wait_for_workload "^sleep 32.5" || echo "# locus killed: the workload did not show up in 5 s"
kill -KILL $lp
wait $lp 2>/dev/null
sleep 0.5
check "locus killed (SIGKILL): no process of its workload's tree is left" \
	bash -c '! pgrep -f "^sleep 32.5"'

# A workload that crashes: its status, and the report of the run up to the crash.
"$LOCUS" run -q --sections counters,wakeups -- sh -c '"$0" bench pingpong --loops 2000 >/dev/null; kill -SEGV $$' "$LOCUS" >"$TMP/segv.txt" 2>&1
expect_eq "a workload killed by SIGSEGV: 139" 139 $?
check "a crashed workload: its wakeups are reported" grep -q "^ Wakeups of the traced tasks: [1-9]" "$TMP/segv.txt"

# A full disk while recording: locus says so, and the file reads up to the last whole record.
if have_root && mkdir -p "$TMP/small" && mount -t tmpfs -o size=700k tmpfs "$TMP/small" 2>/dev/null; then
	"$LOCUS" record -o "$TMP/small/x.data" -- "$LOCUS" bench pingpong --loops 20000 >/dev/null 2>"$TMP/full.err"
	expect_eq "disk full while recording: exit 1" 1 $?
	check "disk full: one line saying how many whole records the file holds" \
		grep -Eq "^locus: $TMP/small/x.data: No space left on device: the file holds the [0-9,]+ whole records" "$TMP/full.err"
	n=$(sed -n 's/.*the file holds the \([0-9,]*\) whole records.*/\1/p' "$TMP/full.err" | tr -d ,)
	"$LOCUS" report -q -i "$TMP/small/x.data" --sections wakeups >"$TMP/full.txt" 2>&1
	expect_eq "disk full: locus report reads the file" 0 $?
	got=$(sed -n 's/^   \([0-9,]*\) records,.*/\1/p' "$TMP/full.txt" | tr -d ,)
	expect_eq "disk full: the report reads exactly those records" "$n" "$got"
	# every task's (-a): on a busy machine the other tasks' events can fill the 700 KiB
	# before the workload's first wakeup (a CI run beside two busy loops: 0 of the
	# workload's, 2,519 of hackbench's from a test beside it)
	"$LOCUS" report -q -a -i "$TMP/small/x.data" --sections wakeups >"$TMP/full-a.txt" 2>&1
	check "disk full: the tracepoint formats made it (events decoded)" grep -Eq "^ Wakeups of the traced tasks: [1-9]" "$TMP/full-a.txt"
	if command -v perf >/dev/null; then
		check "disk full: perf script reads it too" bash -c "perf script -i '$TMP/small/x.data' 2>/dev/null | grep -q sched_switch"
	fi
	check "disk full: no ballast file left behind" test ! -e "$TMP/small/x.data.reserve"
	umount "$TMP/small"
else
	skip "disk full: cannot mount a small tmpfs here"
fi

# Output into a read-only place: refused before the workload runs, in one line saying why.
if have_root && mkdir -p "$TMP/ro" && mount -t tmpfs -o ro tmpfs "$TMP/ro" 2>/dev/null; then
	"$LOCUS" stat -q -o "$TMP/ro/out.txt" --json "$TMP/ok.json" -e task-clock -- touch "$TMP/ro-ran" 2>"$TMP/ro.err"
	expect_eq "read-only -o: usage error" 2 $?
	check "read-only -o: says why" grep -q "Read-only file system" "$TMP/ro.err"
	check "read-only -o: the workload did not run" test ! -e "$TMP/ro-ran"
	"$LOCUS" record -o "$TMP/ro/x.data" -- true >/dev/null 2>"$TMP/ro2.err"
	expect_eq "read-only record -o: usage error" 2 $?
	check "read-only record: one line" test "$(wc -l <"$TMP/ro2.err")" -eq 1
	umount "$TMP/ro"
else
	skip "read-only output: cannot mount a read-only tmpfs here"
fi

# An unprivileged user (perf_event_paranoid 2): counting the own workload works; what
# needs more says which sysctl or capability.
if have_root && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	NB() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"; }
	NB "$LOCUS" stat -e task-clock,page-faults,sched:sched_switch -- "$LOCUS" bench pingpong --loops 2000 >"$TMP/nb.txt" 2>&1
	expect_eq "unprivileged stat: exit 0" 0 $?
	check "unprivileged stat: task-clock counted" grep -Eq '^ +[0-9.]+ msec task-clock' "$TMP/nb.txt"
	check "unprivileged stat: the tracepoint says what would allow it" \
		grep -q "tracepoints need root or CAP_PERFMON" "$TMP/nb.txt"
	# the dashboard without the scheduler trace: no crash, "n/a" with the reason, never 0
	(cd /tmp && NB "$LOCUS" top --text -d 0.2 -n 2 -- "$LOCUS" bench pingpong --loops 400000 >"$TMP/nbtop.txt" 2>&1)
	expect_eq "unprivileged top: exit 0 (it crashed once on the missing trace)" 0 $?
	check "unprivileged top: the scheduler rows say why, not 0" \
		bash -c "grep -Eq '^\|wakeups +n/a not traced' '$TMP/nbtop.txt' && ! grep -Eq '^\|wakeups +0 ' '$TMP/nbtop.txt'"
	NB "$LOCUS" run -a -- true >"$TMP/nba.txt" 2>&1
	check "unprivileged run -a: says what it needs" grep -Eq "CAP_PERFMON|perf_event_paranoid|run as root" "$TMP/nba.txt"
	NB "$LOCUS" doctor >"$TMP/nbd.txt" 2>&1
	check "unprivileged doctor: names the privilege it lacks" grep -q "privileges" "$TMP/nbd.txt"
else
	skip "unprivileged: no nobody user or setpriv"
fi

# perf_event_mlock_kb exhausted: root without CAP_IPC_LOCK (dropped from the bounding set),
# no RLIMIT_MEMLOCK, an 8 KiB allowance; tracepoints are still allowed (CAP_PERFMON).
if have_root && command -v setpriv >/dev/null && [ -w /proc/sys/kernel/perf_event_mlock_kb ]; then
	old_m=$(cat /proc/sys/kernel/perf_event_mlock_kb)
	trap 'echo "$old_m" >/proc/sys/kernel/perf_event_mlock_kb; rm -rf "$TMP"' EXIT
	echo 8 >/proc/sys/kernel/perf_event_mlock_kb
	setpriv --bounding-set=-ipc_lock bash -c 'ulimit -l 0; exec "$@"' _ \
		"$LOCUS" run --collector perf --sections counters,wakeups -- true >"$TMP/ml.txt" 2>"$TMP/ml.err"
	rc=$?
	echo "$old_m" >/proc/sys/kernel/perf_event_mlock_kb
	expect_eq "mlock exhausted: the workload's status still" 0 "$rc"
	check "mlock exhausted: says which limit and what to do" \
		grep -q "cannot map .* KiB ring buffers per CPU: Operation not permitted (lower -m, or raise kernel.perf_event_mlock_kb)" "$TMP/ml.err"
	check "mlock exhausted: the counters are still reported" grep -q "task-clock" "$TMP/ml.txt"
else
	skip "mlock: needs root and setpriv"
fi
# --sections a file's report cannot give (counters are counted live): said, with the name
"$LOCUS" report -q -i tests/fuzz/corpus/perf-sched-true.data --sections counters >/dev/null 2>"$TMP/sec.err"
expect_eq "report --sections counters: usage error" 2 $?
check "report --sections counters: one line naming it" \
	bash -c "test \$(wc -l <'$TMP/sec.err') -eq 1 && grep -q \"'counters': no section a file's report has\" '$TMP/sec.err'"
finish
