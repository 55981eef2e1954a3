#!/usr/bin/env bash
# schedstat.sh - in a lab guest: the scheduler-domain counters locus run reports equal the
# deltas of two /proc/schedstat snapshots this script takes around the run
# (schedstat_check.py parses them apart from locus), every counter of every CPU and domain;
# the levels are named (SMT, MC, NUMA) in the JSON and the text.
. "$(dirname "$0")/lib.sh"

if ! [ -r /proc/schedstat ]; then
	skip "no /proc/schedstat (a kernel without CONFIG_SCHEDSTATS)"
	finish
fi
expect_eq "kernel.sched_schedstats is 0 before the run (its counters stand still)" 0 \
	"$(cat /proc/sys/kernel/sched_schedstats)"
for c in bpf perf; do
	cat /proc/schedstat >"$TMP/ss-$c.before"
	"$LOCUS" run -q --collector $c --sections cpus --json "$TMP/ss-$c.json" -- \
		hackbench -g 2 -l "${LAB_HACKBENCH_LOOPS:-30}" >"$TMP/ss-$c.txt" 2>&1
	expect_eq "$c: locus run of hackbench: exit 0" 0 $?
	cat /proc/schedstat >"$TMP/ss-$c.after"
	expect_eq "$c: kernel.sched_schedstats put back to 0" 0 "$(cat /proc/sys/kernel/sched_schedstats)"
	check "$c: every domain counter (and the runqueue counters the sysctl gates) equals the snapshots' delta" \
		"$PY" "$LAB/schedstat_check.py" "$TMP/ss-$c.before" "$TMP/ss-$c.after" "$TMP/ss-$c.json"
	names=$(cat /sys/kernel/debug/sched/domains/cpu0/domain*/name 2>/dev/null | tr '\n' ' ')
	check "$c: the text names the levels as the kernel does ($names)" "$PY" - "$TMP/ss-$c.txt" $names <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rows = re.findall(r"^   (\d+) (\S+) +\d+ ", text, re.M)
print(rows)
assert [r[1] for r in rows] == sys.argv[2:], (rows, sys.argv[2:])
PY
	keep "$TMP/ss-$c.txt" "$TMP/ss-$c.json"
done
finish
