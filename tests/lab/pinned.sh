#!/usr/bin/env bash
# pinned.sh - in a lab guest: a ping-pong pinned to two CPUs of each class the topology has
# (SMT siblings, two cores of one LLC, two LLCs of one node, two nodes): at least 95% of its
# wakeups in that class, in locus (each collector) and in the oracle of a perf recording of
# the same run; the perf stream's analysis of that recording equal to the oracle.
# PINNED_COLLECTORS (default "bpf perf"), PINNED_LOOPS (default 1500).
. "$(dirname "$0")/lib.sh"

# The first CPU after 0 in each class, from sysfs (a class the topology lacks: none).
pairs=$("$PY" "$LAB/sysfs_topo.py" pairs)
echo "pairs by class from sysfs: $pairs"
for c in ${PINNED_COLLECTORS:-bpf perf}; do
	for kv in $pairs; do
		cls=${kv%%:*} b=${kv#*:} n=pin-$c-$cls
		recorded $n run -q --collector $c --sections wakeups,pairs --json "$TMP/$n.json" -- \
			"$LOCUS" bench pingpong --pin 0,$b --loops "${PINNED_LOOPS:-1500}" >"$TMP/$n.txt" 2>&1
		expect_eq "$c, --pin 0,$b ($cls): exit 0" 0 $?
		check "$c, --pin 0,$b: locus puts the wakeups in $cls" \
			"$PY" "$LAB/compare.py" pinned "$TMP/$n.json" $cls
		check "$c, --pin 0,$b: so does the oracle of the recording" \
			"$PY" "$LAB/compare.py" pinned "$TMP/$n.oracle.json" $cls
		check "$c, --pin 0,$b: locus agrees with the oracle" \
			"$PY" "$LAB/compare.py" close "$TMP/$n.json" "$TMP/$n.oracle.json"
		check "$c, --pin 0,$b: the recording's perf stream equals the oracle" \
			"$PY" "$LAB/compare.py" exact "$TMP/$n.report.json" "$TMP/$n.oracle.json"
	done
done
finish
