#!/usr/bin/env bash
# clientserver.sh - a client and a server it did not start: locus record -p SERVER -- CLIENT
# writes both, locus report follows both (the file remembers -p), report -p takes several
# pids, --from/--to cut the text report; perf script of the same file is the oracle.
. "$(dirname "$0")/../lib.sh"

if ! have_root || ! command -v perf >/dev/null; then
	skip "locus record needs root (sched tracepoints) and perf as the oracle"
	finish
fi
# A server answering each byte on a FIFO pair; the client sends N bytes and reads each answer:
# every answer is a wakeup of the client by the server, every request one of the server.
cat >"$TMP/srv.py" <<'PY'
import sys
ra = open(sys.argv[1], "rb", buffering=0)
wb = open(sys.argv[2], "wb", buffering=0)
while (x := ra.read(1)):
    wb.write(x)
PY
cat >"$TMP/cli.py" <<'PY'
import sys
wa = open(sys.argv[1], "wb", buffering=0)
rb = open(sys.argv[2], "rb", buffering=0)
for i in range(int(sys.argv[3])):
    wa.write(b"x")
    rb.read(1)
PY
mkfifo "$TMP/a" "$TMP/b"
python3 "$TMP/srv.py" "$TMP/a" "$TMP/b" &
srv=$!
"$LOCUS" record -q -p "$srv" -o "$TMP/f.data" -- python3 "$TMP/cli.py" "$TMP/a" "$TMP/b" 3000 \
	>/dev/null 2>"$TMP/rec.err"
expect_eq "record -p SERVER -o f -- CLIENT exits 0" 0 $?
wait "$srv"
# the oracle: sched_waking by waker tid and wakee pid, with times (ns), from perf script,
# of a wakee not running (as locus counts wakeups; a task runs from its switch-in, or from
# any event of its own where the switch-in was lost, to its switch-out)
perf script -i "$TMP/f.data" --ns -F tid,time,event,trace 2>/dev/null |
	awk 'function val(k,   i) { for (i = 4; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	$3 == "sched:sched_switch:" { run[val("prev_pid")] = 0; run[val("next_pid")] = 1; next }
	{ run[$1] = 1 }
	$3 == "sched:sched_waking:" { p = val("pid"); if (!run[p]) { t = $2; sub(":$", "", t); print $1, p, t } }' \
	>"$TMP/wakings.txt"
first=$(perf script -i "$TMP/f.data" --ns -F time 2>/dev/null | head -n 1 | tr -d ' :')
"$LOCUS" report -q -i "$TMP/f.data" --json "$TMP/r.json" >"$TMP/r.txt" 2>&1
expect_eq "report of the file exits 0" 0 $?
cpid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["input"]["workload_pid"])' "$TMP/r.json")
pairs() { # pairs FILE.json WAKER WAKEE: the report's count for that pair (0 when absent)
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(p["count"] for p in d.get("pairs", []) if p["waker_tid"] == int(sys.argv[2]) and p["wakee_tid"] == int(sys.argv[3])))
PY
}
s2c=$(awk -v s="$srv" -v c="$cpid" '$1 == s && $2 == c' "$TMP/wakings.txt" | wc -l)
c2s=$(awk -v s="$srv" -v c="$cpid" '$1 == c && $2 == s' "$TMP/wakings.txt" | wc -l)
# (of 3000 round trips, a wakee that had not yet gone to sleep needs no wakeup: on a busy
# machine a third or fewer of either side's sends wake the other; 762 of 3000 seen in CI)
check "perf script: the server woke the client (${s2c}x) and the client the server (${c2s}x)" \
	test "$s2c" -gt 200 -a "$c2s" -gt 200
expect_eq "report: the server's wakeups of the client = perf script's" "$s2c" "$(pairs "$TMP/r.json" "$srv" "$cpid")"
expect_eq "report: the client's wakeups of the server = perf script's" "$c2s" "$(pairs "$TMP/r.json" "$cpid" "$srv")"
check "report: the file remembers the server added by -p" \
	grep -q "workload: pid $cpid, with pids $srv added by record -p" "$TMP/r.txt"
check "report JSON: added_pids is [server]" python3 -c '
import json, sys; d = json.load(open(sys.argv[1])); assert d["input"]["added_pids"] == [int(sys.argv[2])], d["input"]' "$TMP/r.json" "$srv"

# report -p with several pids: the same two trees
"$LOCUS" report -q -i "$TMP/f.data" -p "$cpid,$srv" --json "$TMP/r2.json" >/dev/null 2>&1
expect_eq "report -p CLIENT,SERVER exits 0" 0 $?
expect_eq "report -p CLIENT,SERVER: server->client = perf script's" "$s2c" "$(pairs "$TMP/r2.json" "$srv" "$cpid")"
"$LOCUS" report -q -i "$TMP/f.data" -p "$cpid" --json "$TMP/r1.json" >/dev/null 2>&1
expect_eq "report -p CLIENT alone: the server is not followed (no wakeups of it)" 0 \
	"$(pairs "$TMP/r1.json" "$cpid" "$srv")"

# --from/--to cut the text and JSON report: the server's wakeups of the client up to the
# middle one, by perf script's times counted from the file's first sample.
mid=$(awk -v s="$srv" -v c="$cpid" '$1 == s && $2 == c { print $3 }' "$TMP/wakings.txt" |
	sed -n "$((s2c / 2))p")
half=$(awk -v f="$first" -v m="$mid" 'BEGIN { printf "%.9f", m - f }')
want=$(awk -v s="$srv" -v c="$cpid" -v f="$first" -v h="$half" \
	'$1 == s && $2 == c && $3 - f <= h + 0' "$TMP/wakings.txt" | wc -l)
"$LOCUS" report -q -i "$TMP/f.data" --to "$half" --json "$TMP/rw.json" >"$TMP/rw.txt" 2>&1
expect_eq "report --to S exits 0 without a timeline output" 0 $?
got=$(pairs "$TMP/rw.json" "$srv" "$cpid")
check "report --to ${half}s: server->client $got, perf script in the window $want (within 2) of $s2c" \
	bash -c "[ $want -ge 100 ] && [ \$(( $got - $want )) -le 2 ] && [ \$(( $want - $got )) -le 2 ]"
check "report --to: the text says the window" grep -q "window: 0 ns to .* from the first event" "$TMP/rw.txt"
finish
