#!/usr/bin/env bash
# collectors.sh - in a lab guest: the BPF collector loads on this kernel and its wakeup
# matrix agrees with the perf stream's of the same run; the perf collector's with its own
# run's recording; locus doctor says what works here. Counts printed for the record.
. "$(dirname "$0")/lib.sh"

"$LOCUS" doctor >"$OUT/doctor-$KERNEL.txt" 2>&1
check "$KERNEL: doctor says the BPF collector loads" grep -q '^ok  *BPF collector' "$OUT/doctor-$KERNEL.txt"
check "$KERNEL: doctor sees the LLC groups and nodes" \
	grep -Eq '^ok  *LLC groups .*|^ok  *NUMA nodes' "$OUT/doctor-$KERNEL.txt"
check "$KERNEL: doctor finds /proc/schedstat" grep -q '^ok  */proc/schedstat' "$OUT/doctor-$KERNEL.txt"

# hackbench, unpinned: wakeups in every class this topology has
work=(hackbench -g 2 -l ${LAB_HACKBENCH_LOOPS:-30})
for c in bpf perf; do
	recorded "hb-$c" run -q --collector $c --sections wakeups --json "$TMP/hb-$c.json" \
		-- "${work[@]}" >"$TMP/hb-$c.txt" 2>&1
	expect_eq "$KERNEL: run --collector $c of hackbench under perf record: exit 0" 0 $?
	check "$KERNEL, $c: its source is the one asked for" "$PY" -c '
import json, sys; p = json.load(open(sys.argv[1]))["provenance"]; print(p["source"], p["why"])
assert p["source"] == sys.argv[2], p["source"]' "$TMP/hb-$c.json" $c
	check "$KERNEL, $c: the same run's perf stream (locus report of the recording) counts as the oracle, exactly" \
		"$PY" "$LAB/compare.py" exact "$TMP/hb-$c.report.json" "$TMP/hb-$c.oracle.json"
	check "$KERNEL, $c live: agrees with the oracle of its run" \
		"$PY" "$LAB/compare.py" close "$TMP/hb-$c.json" "$TMP/hb-$c.oracle.json"
	keep "$TMP/hb-$c.json" "$TMP/hb-$c.oracle.json" "$TMP/hb-$c.report.json"
done
check "$KERNEL: BPF against the perf stream of the same run" \
	"$PY" "$LAB/compare.py" close "$TMP/hb-bpf.json" "$TMP/hb-bpf.report.json"
finish
