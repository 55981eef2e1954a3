#!/usr/bin/env bash
# bpf_stacks.sh - locus run -g --collector bpf: stacks sampled in the kernel, against perf
# record -g -e sched:sched_waking,sched:sched_switch of the SAME run (perf follows locus and the workload it
# forks): every waker and blocked stack holding 5% of the sample or more is among perf's (by its first
# kernel frames' symbols) and its share of the sample lies within the sample's 99.9%
# interval of perf's share (tests/tools/bpf_stack_shares.py); the sample accounts for every
# sampled wakeup whose wakee ran; the report says it is a sample and its fraction. At
# --delay-rate 100000 every wakeup is timed and 1 in 10 sampled (the default: 1 in 200).
# With a busy loop beside. The refusal paths: -g with -r, --folded without -g.
. "$(dirname "$0")/../lib.sh"

if ! have_root || ! command -v perf >/dev/null || ! command -v hackbench >/dev/null; then
	skip "bpf_stacks: needs root, perf and hackbench"
	finish
fi
if ! "$LOCUS" run -q --collector bpf -- true >/dev/null 2>&1; then
	skip "bpf_stacks: the BPF collector does not load here"
	finish
fi

sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null; rm -rf "$TMP"' EXIT

if perf record -q -g -e sched:sched_waking,sched:sched_switch -o "$TMP/p.data" -- "$LOCUS" run -g \
	--collector bpf --delay-rate 100000 --json "$TMP/r.json" -o "$TMP/r.txt" --folded "wakers=$TMP/w.folded" \
	--folded "blocked=$TMP/b.folded" -- hackbench -g 2 -l 300 \
	>/dev/null 2>"$TMP/err"; then
	ok "perf record -g around locus run -g --collector bpf"
else
	fail "perf record -g around locus run -g --collector bpf: $(tail -1 "$TMP/err")"
fi
perf script -i "$TMP/p.data" -F comm,pid,tid,event,trace,ip,sym >"$TMP/p.script" 2>/dev/null
if python3 tests/tools/bpf_stack_shares.py "$TMP/r.json" "$TMP/p.script" hackbench \
	"$TMP/w.folded" "$TMP/b.folded" >"$TMP/shares"; then
	ok "the sampled waker and blocked stacks' shares agree with perf's of the same run"
else
	fail "the sampled waker or blocked stacks' shares differ from perf's of the same run"
fi
cat "$TMP/shares"

# every waker sample counted once its wakee ran: taken = counted + table full + those whose
# wakee never ran again (one a task at most); a subset of the same run's timed wakeups
read -r stk taken full timed tasks < <(python3 - "$TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stacks"]["sampled"]
print(d["stacks"]["wakers"]["count"], s["taken_waker"], s["dropped_table_full"],
      d["latency"]["wake_to_run_ns"]["count"] + d["latency"].get("negative", 0), d["tasks_total"])
PY
)
echo "waker samples counted $stk, taken $taken ($full table full), timed wakeups $timed, tasks $tasks"
left=$((taken - stk - full))
if [ "${stk:-0}" -gt 0 ] && [ "$left" -ge 0 ] && [ "$left" -le "$tasks" ] && [ "$stk" -le "$timed" ]; then
	ok "every waker sample counted once its wakee ran, among the run's timed wakeups"
else
	fail "waker samples: counted $stk, taken $taken, table full $full, timed $timed"
fi
tr '\n' ' ' <"$TMP/r.txt" | tr -s ' ' >"$TMP/r.joined" # prose folds at 80 columns
check "the report says it is a sample and its fraction" \
	grep -q "sampled in the kernel (BPF): the waker's stack at 1 in 10 wakeups" "$TMP/r.joined"
check "the report states the stack table's drops" grep -q "stack table full, [0-9,]* stack walks failed" "$TMP/r.joined"

# the folded files hold every sample: their weights sum to the sample's counts
read -r fw fb jw jb < <(python3 - "$TMP/r.json" "$TMP/w.folded" "$TMP/b.folded" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["stacks"]
tot = [sum(int(l.rsplit(" ", 1)[1]) for l in open(p)) for p in sys.argv[2:4]]
print(tot[0], tot[1], s["wakers"]["count"], s["blocked"]["count"])
PY
)
expect_eq "--folded wakers: every waker sample" "$jw" "$fw"
expect_eq "--folded blocked: every blocked sample" "$jb" "$fb"

# refusals: one run only; --folded needs -g; the default collector keeps every callchain (perf's stream)
"$LOCUS" run -g --collector bpf -r 2 -- true >/dev/null 2>"$TMP/e1"
rc=$?
expect_eq "-g with -r: usage error" 2 "$rc"
check "-g with -r: says why" grep -q "stacks of one run" "$TMP/e1"
"$LOCUS" run --collector bpf --folded "wakers=$TMP/x" -- true >/dev/null 2>"$TMP/e2"
rc=$?
expect_eq "--folded without -g: usage error" 2 "$rc"
check "--folded without -g: says why" grep -q "add -g" "$TMP/e2"
"$LOCUS" run -g --json "$TMP/auto.json" -- hackbench -g 1 -l 20 >/dev/null 2>&1
check "-g on the default collector: every callchain, not a sample" python3 -c "
import json, sys
s = json.load(open('$TMP/auto.json'))['stacks']
sys.exit('sampled' in s)"
finish
