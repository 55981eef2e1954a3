#!/usr/bin/env bash
# commands.sh - bench workloads, run without a command, doctor, list, top-level usage.
. "$(dirname "$0")/../lib.sh"

"$LOCUS" bench pingpong --loops 3000 --pin 0,1 >"$TMP/pp.txt"
expect_eq "pingpong --pin 0,1 exits 0" 0 $?
check "pingpong prints its throughput line" grep -Eq '^pingpong: 1 pair, 3000 round trips each, [0-9.]+ s, [0-9]+ round trips/s$' "$TMP/pp.txt"
"$LOCUS" bench pingpong --pairs 3 --loops 1000 >"$TMP/pp3.txt"
check "pingpong --pairs 3" grep -q '^pingpong: 3 pairs, 1000 round trips each' "$TMP/pp3.txt"
"$LOCUS" bench falseshare --loops 2000000 >"$TMP/fs.txt"
check "falseshare prints increments/s" grep -Eq '^falseshare: 2 threads, 2000000 increments each, one shared cacheline, .* M increments/s$' "$TMP/fs.txt"
"$LOCUS" bench falseshare --padded --threads 3 --pin 0,1 --loops 1000000 >"$TMP/fs2.txt"
check "falseshare --padded" grep -q 'padded 128 bytes apart' "$TMP/fs2.txt"
for bad in "pingpong --pin 0" "pingpong --pin 0,99999" "pingpong --loops 0" "pingpong --pairs x" \
	   "falseshare --threads 65" "falseshare --pin 7-1" "nosuch" "pingpong extra"; do
	# shellcheck disable=SC2086
	"$LOCUS" bench $bad >/dev/null 2>"$TMP/b.txt"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/b.txt")" -eq 1 ]; then ok "bench $bad: usage error"; else fail "bench $bad: exit $rc: $(cat "$TMP/b.txt")"; fi
done

# run without a command runs the built-in workload and says so on stderr.
"$LOCUS" run >"$TMP/run.txt" 2>"$TMP/run.err"
expect_eq "run without a command exits 0" 0 $?
check "run says it runs the built-in workload" grep -q "running the built-in workload 'locus bench pingpong'" "$TMP/run.err"
check "run: the workload ran" grep -q '^pingpong: ' "$TMP/run.txt"
check "run: the report counts context switches" grep -Eq '[0-9,]+ +context-switches' "$TMP/run.txt"
"$LOCUS" run -- sh -c 'exit 3' >/dev/null 2>&1
expect_eq "run passes the exit status on" 3 $?

# doctor: one line per capability; exit 0 when software events work.
"$LOCUS" list >"$TMP/list.txt"
"$LOCUS" doctor >"$TMP/doc.txt" 2>&1
expect_eq "doctor exits 0 here" 0 $?
for cap in "software events" "privileges" "hardware PMU" "HITM counting event" \
	   "precise memory samples" "tracefs" "sched:sched_switch" "sched:sched_waking" \
	   "sched:sched_migrate_task" "BPF collector" "NUMA nodes" "LLC groups" "/proc/schedstat" "RLIMIT_NOFILE"; do
	check "doctor reports '$cap'" grep -qF -- " $cap " "$TMP/doc.txt"
done
for tp in sched:sched_process_fork sched:sched_process_exit ipi:ipi_send_cpu irq:irq_handler_entry \
	  irq:softirq_entry; do
	if [ -e "/sys/kernel/tracing/events/${tp%%:*}/${tp#*:}/id" ]; then
		check "doctor: $tp has its row, saying what it gives" \
			grep -Eq "^(ok|no|warn) +$tp +[a-z-]" "$TMP/doc.txt"
		check "list: $tp has its row" grep -Eq "^$tp +(ok|not supported)" "$TMP/list.txt"
	fi
done
check "doctor: every line fits 80 columns" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$TMP/doc.txt"
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	check "doctor: no PMU here is a 'no' line" grep -Eq '^no +hardware PMU' "$TMP/doc.txt"
fi
"$LOCUS" doctor extra >/dev/null 2>&1
expect_eq "doctor with an argument is a usage error" 2 $?

check "list shows context-switches as ok" grep -Eq '^context-switches +ok' "$TMP/list.txt"

"$LOCUS" >/dev/null 2>&1
expect_eq "no command: usage, exit 2" 2 $?
"$LOCUS" frob >/dev/null 2>"$TMP/f.txt"
expect_eq "unknown command: exit 2" 2 $?
check "unknown command: one line" test "$(wc -l <"$TMP/f.txt")" -eq 1
expect_eq "--version" "locus $(sed -n 's/^VERSION := //p' Makefile)" "$("$LOCUS" --version)"

# RLIMIT_NOFILE: locus raises its soft limit to the hard one; the workload keeps its own.
bash -c 'ulimit -Sn 64; exec "$0" stat -q -o /dev/null -e task-clock -- sh -c "ulimit -Sn; sleep 1"' "$LOCUS" >"$TMP/nofile.out" &
lp=$!
sleep 0.5
soft=$(awk '/Max open files/ { print $4 }' /proc/$lp/limits)
hard=$(awk '/Max open files/ { print $5 }' /proc/$lp/limits)
wait $lp
expect_eq "locus runs with the soft fd limit raised to the hard one" "$hard" "$soft"
expect_eq "the workload keeps the soft fd limit it was given" 64 "$(head -n 1 "$TMP/nofile.out")"
bash -c 'ulimit -Sn 64; exec "$0" doctor' "$LOCUS" >"$TMP/doc64.txt" 2>&1
check "doctor reports the limit the shell gave, and that locus raises it" \
	grep -q "soft 64 < .* needed; locus raises it up to the hard limit" "$TMP/doc64.txt"

# -o never replaces what is not a regular file: /dev/null stays a device, a symlink stays a link.
check "/dev/null is still a character device after -o /dev/null" test -c /dev/null
ln -s "$TMP/target.txt" "$TMP/link.txt"
"$LOCUS" stat -q -o "$TMP/link.txt" -e task-clock -- true
check "-o through a symlink keeps the link" test -L "$TMP/link.txt"
check "-o through a symlink writes its target" grep -q "task-clock" "$TMP/target.txt"

# A report written into a closed pipe is not a crash; the workload's status stands.
"$LOCUS" stat -e task-clock -- sh -c 'exit 4' | true
expect_eq "report into a closed pipe: workload status kept" 4 "${PIPESTATUS[0]}"
# An output path that cannot be written is a usage error before the workload starts.
for args in "stat -o /nonexist/dir/r.txt -e task-clock" "run -o /nonexist/dir/r.txt" \
	"run --json /nonexist/dir/r.json" "run --svg /nonexist/dir/r.svg" \
	"record -o /nonexist/dir/r.data" "run -r 2 --json /nonexist/dir/a.json" \
	"top --text -n 1 -o /nonexist/dir/r.txt" "run -o $TMP"; do
	rm -f "$TMP/ran"
	# shellcheck disable=SC2086
	"$LOCUS" $args -- touch "$TMP/ran" >"$TMP/bad.out" 2>"$TMP/bad.err"
	expect_eq "bad output path ($args): usage error" 2 $?
	check "bad output path ($args): the workload did not run" test ! -e "$TMP/ran"
	check "bad output path ($args): one line saying which" \
		bash -c "[ \$(wc -l <'$TMP/bad.err') -eq 1 ] && grep -q 'cannot write' '$TMP/bad.err'"
done
# "-" is stdout to the other commands; a recording is a file: record -o - is refused before
# the workload runs, and no file named "-" appears
rm -f "$TMP/ran"
(cd "$TMP" && exec "$LOCUS" record -o - -- touch "$TMP/ran") >"$TMP/rec-.out" 2>"$TMP/rec-.err"
expect_eq "record -o -: usage error" 2 $?
check "record -o -: no file named '-', the workload did not run" \
	test ! -e "$TMP/-" -a ! -e "$TMP/ran"
check "record -o -: one line saying why" \
	bash -c "[ \$(wc -l <'$TMP/rec-.err') -eq 1 ] && grep -q 'not a stream on stdout' '$TMP/rec-.err'"
# Writing still fails at the end (a full device): the report goes to stdout, exit 1.
"$LOCUS" stat -o /dev/full -e task-clock -- true >"$TMP/full.out" 2>"$TMP/full.err"
expect_eq "-o /dev/full: runtime error" 1 $?
check "-o /dev/full: the report on stdout instead" grep -q "task-clock" "$TMP/full.out"
check "-o /dev/full: says so" grep -q "standard output instead" "$TMP/full.err"
# --json - keeps standard output valid JSON: the workload's output goes to stderr.
"$LOCUS" stat --json - -e task-clock -- echo workload-says-hi >"$TMP/j.out" 2>"$TMP/j.err"
check "--json -: stdout is JSON only" python3 -c "import json,sys; json.load(open('$TMP/j.out'))"
check "--json -: the workload's output on stderr" grep -q workload-says-hi "$TMP/j.err"
finish
