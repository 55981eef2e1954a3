#!/usr/bin/env bash
# bpf_stacks.sh - locus run -g --collector bpf: stacks sampled in the kernel, against perf
# record -g -e sched:sched_waking of the SAME run (perf follows locus and the workload it
# forks): every waker stack holding 5% of the sample or more is among perf's (by its first
# kernel frames' symbols) and its share of the sample lies within the sample's 99.9%
# interval of perf's share (tests/tools/bpf_stack_shares.py); the sample accounts for every
# timed wakeup of the same run (the latency section's count); the report says it is a
# sample and its fraction. With a busy loop beside. The refusal paths: -g with -r.
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
	--collector bpf --json "$TMP/r.json" -o "$TMP/r.txt" -- hackbench -g 2 -l 300 \
	>/dev/null 2>"$TMP/err"; then
	ok "perf record -g around locus run -g --collector bpf"
else
	fail "perf record -g around locus run -g --collector bpf: $(tail -1 "$TMP/err")"
fi
perf script -i "$TMP/p.data" -F comm,pid,tid,event,trace,ip,sym >"$TMP/p.script" 2>/dev/null
if python3 tests/tools/bpf_stack_shares.py "$TMP/r.json" "$TMP/p.script" hackbench \
	>"$TMP/shares"; then
	ok "the sampled waker and blocked stacks' shares agree with perf's of the same run"
else
	fail "the sampled waker or blocked stacks' shares differ from perf's of the same run"
fi
cat "$TMP/shares"

# every timed wakeup's waker stack counted once its wakee ran (less the samples dropped)
read -r stk timed neg drop < <(python3 - "$TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stacks"]["sampled"]
print(d["stacks"]["wakers"]["count"], d["latency"]["wake_to_run_ns"]["count"],
      d["latency"].get("negative", 0),
      s["dropped_eexist"] + s["dropped_enomem"] + s["dropped_other"] + s["dropped_table_full"])
PY
)
echo "waker samples $stk, timed wakeups $timed (+$neg negative), dropped $drop"
if [ "${stk:-0}" -gt 0 ] && [ $((timed + neg - drop)) -le "$stk" ] && [ "$stk" -le $((timed + neg)) ]; then
	ok "the waker sample is the timed wakeups of the same run"
else
	fail "waker samples $stk vs timed wakeups $timed (+$neg, -$drop dropped)"
fi
check "the report says it is a sample and its fraction" \
	grep -q "sampled in the kernel (BPF): the waker's stack at 1 in [0-9]* wakeups" "$TMP/r.txt"
check "the report states the stack map's drops" grep -q "collisions (-EEXIST)" "$TMP/r.txt"

# refusals: one run only; the default collector keeps every callchain (perf's stream)
"$LOCUS" run -g --collector bpf -r 2 -- true >/dev/null 2>"$TMP/e1"
rc=$?
expect_eq "-g with -r: usage error" 2 "$rc"
check "-g with -r: says why" grep -q "stacks of one run" "$TMP/e1"
"$LOCUS" run -g --json "$TMP/auto.json" -- hackbench -g 1 -l 20 >/dev/null 2>&1
check "-g on the default collector: every callchain, not a sample" python3 -c "
import json, sys
s = json.load(open('$TMP/auto.json'))['stacks']
sys.exit('sampled' in s)"
finish
