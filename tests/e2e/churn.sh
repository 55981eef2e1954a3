#!/usr/bin/env bash
# churn.sh - tasks that come and go: 3,000 short processes under locus run -a with each
# collector. Exited tasks retire from the live table (their counts stay in the totals, the
# busiest 1,024 are listed); nothing is dropped; perf stat counts the exits of the same run
# (sched:sched_process_exit around locus) as the oracle.
. "$(dirname "$0")/../lib.sh"
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $2" "$1"; }

if ! have_root || ! command -v perf >/dev/null; then
	skip "needs root and perf"
	finish
fi
for c in perf bpf; do
	perf stat -x, -e sched:sched_process_exit -a -o "$TMP/stat-$c" -- \
		"$LOCUS" run -q -a --collector $c --sections switches --json "$TMP/c-$c.json" \
		-- sh -c 'for i in $(seq 3000); do /bin/true; done' >"$TMP/c-$c.txt" 2>&1
	expect_eq "$c: exit 0" 0 $?
	exits=$(awk -F, '/sched_process_exit/ { print $1 }' "$TMP/stat-$c")
	check "$c: retired tasks: at least the 3,000 exits, at most perf's count of the run ($exits)" \
		python3 - "$TMP/c-$c.json" "$exits" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exits = int(sys.argv[2])
r, kept = d["tasks_retired"], d["tasks_retired_listed"]
print("retired %d, listed %d, exits counted by perf %d, drops %r" % (r, kept, exits, d["provenance"]["drops"]["tasks"]))
assert 3000 <= r <= exits, (r, exits)
assert kept == 1024, kept
assert d["provenance"]["drops"]["tasks"] == 0
assert d["tasks_total"] >= 1024, d["tasks_total"]  # the live tasks and the busiest retired
PY
	check "$c: the text says so" grep -Eq "^   [0-9,]+ tasks exited and left the live table" "$TMP/c-$c.txt"
done

# a recording of the same: the file's replay retires exactly the tasks whose last switch
# perf script shows (prev_state X or Z)
"$LOCUS" record -q -a -o "$TMP/ch.data" -- sh -c 'for i in $(seq 500); do /bin/true; done' >/dev/null 2>&1
"$LOCUS" report -q -a -i "$TMP/ch.data" --json "$TMP/ch.json" -o /dev/null
want=$(perf script -i "$TMP/ch.data" -F event,trace 2>/dev/null | grep -cE "sched_switch: .*prev_state=[XZ] ")
check "replay: tasks retired = perf script's last switches ($want)" \
	json "$TMP/ch.json" "assert d['tasks_retired'] == $want, d['tasks_retired']"
finish
