#!/usr/bin/env bash
# ipi.sh - which IPIs are a wakeup's. An IPI belongs to a wakeup only when the wakeup is
# remote and the IPI goes from the waker's CPU to the wakee's target CPU before the wakee
# runs; every other IPI sent while a traced task ran is counted apart, by kind. Oracles:
# the same run's remote wakeups (each IPI wakeup is one of them: a same-CPU ping-pong
# sends none), and for recordings, `perf script` of the same file counted by the kernel's
# own sequence (tests/tools/ipi_oracle.py, which uses no locus code).
. "$(dirname "$0")/../lib.sh"

need_sched_two_cpus
if [ ! -e /sys/kernel/tracing/events/ipi/ipi_send_cpu ]; then
	skip "no ipi:ipi_send_cpu tracepoint (kernels before 6.5)"
	finish
fi

# A ping-pong pinned to CPU 0: its wakeups are same-CPU; IPIs the kernel sends after them
# (generic_exec_single) are no wakeup's. Six runs per collector, each checked on its own.
for c in perf bpf; do
	bad=0 runs=0
	for i in 1 2 3 4 5 6; do
		if ! "$LOCUS" run -q --collector "$c" --ipis --json "$TMP/p.$c.$i.json" -- "$LOCUS" bench \
			pingpong --pin 0,0 --loops 5000 >"$TMP/p.$c.$i.txt" 2>"$TMP/p.err"; then
			break
		fi
		runs=$((runs + 1))
		python3 - "$TMP/p.$c.$i.json" "$c" <<'EOF' || bad=$((bad + 1))
import json, sys
d = json.load(open(sys.argv[1]))
w = d["wakeups"]
assert d["provenance"]["source"] == sys.argv[2], d["provenance"]["source"]
remote = sum(v for k, v in w["by_class"].items() if k != "same_cpu")
o = w["other_ipis"]
print("%s: remote %d, IPI %d, polling %d; other IPIs: reschedule %d, function call %d" % (
    sys.argv[2], remote, w["ipi_sent"], w["polling_idle_no_ipi"], o["reschedule"], o["function_call"]))
assert w["ipi_sent"] + w["polling_idle_no_ipi"] <= remote, ("IPI wakeups above remote wakeups", w)
for k, v in w["ipi_by_class"].items():
    assert v["ipi_sent"] + v["polling_idle_no_ipi"] <= v["remote_wakeups"] == w["by_class"][k], (k, v)
assert w["by_class"]["same_cpu"] >= 0.9 * w["placed"], w["by_class"]
EOF
		grep -q "other IPIs sent while traced tasks ran: " "$TMP/p.$c.$i.txt" || bad=$((bad + 1))
	done
	if [ "$runs" -eq 0 ] && [ "$c" = bpf ]; then
		skip "bpf: the collector does not load here: $(head -n 1 "$TMP/p.err")"
		continue
	fi
	expect_eq "--pin 0,0, $c: IPI wakeups never above remote wakeups ($runs runs, text says the rest)" "6 0" "$runs $bad"
done

# ipi_check JSON PERF_SCRIPT_OUTPUT ROOT: locus's counts equal the oracle's on the same file
ipi_check() {
	python3 tests/tools/ipi_oracle.py "$3" <"$2" >"$1.oracle" &&
		python3 - "$1" "$1.oracle" <<'EOF'
import json, sys
d, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
w = d["wakeups"]
got = dict(wakeups=w["total"], ipi=w["ipi_sent"], polling=w["polling_idle_no_ipi"],
           other_reschedule=w["other_ipis"]["reschedule"], other_call=w["other_ipis"]["function_call"])
print("locus", got)
print("perf script", o)
assert o["wakeups"] > 1000 and o["ipi"] > 0, ("too few to compare", o)
assert got == o, "differ"
remote = sum(v for k, v in w["by_class"].items() if k != "same_cpu")
assert got["ipi"] + got["polling"] <= remote, (got, remote)
EOF
}

# hackbench recorded by locus record (sched_waking, no sched_wakeup) and by perf record
# -a (sched_wakeup too: the chosen CPU said by the kernel), each replayed and counted.
if ! command -v hackbench >/dev/null; then
	skip "hackbench (rt-tests) is not installed"
	finish
fi
fields=comm,pid,tid,cpu,time,event,trace
"$LOCUS" record -q -m 1024 -o "$TMP/hb.data" -- hackbench -g 4 -l 300 >/dev/null 2>&1
root=$(perf script --show-task-events -i "$TMP/hb.data" 2>/dev/null |
	awk '/PERF_RECORD_COMM exec: hackbench:/ { split($NF, a, "[:/]"); print a[2]; exit }')
perf script -i "$TMP/hb.data" -F $fields --ns >"$TMP/hb.txt" 2>/dev/null
"$LOCUS" report -q -i "$TMP/hb.data" --json "$TMP/hb.json" >"$TMP/hb.report" 2>&1
check "locus record of hackbench: IPI wakeups and other IPIs as perf script counts them" \
	ipi_check "$TMP/hb.json" "$TMP/hb.txt" "${root:-0}"

# Without --ipis neither collector reads the IPI tracepoints (their cost, docs/cost.md): the
# fields are null, the text says which option counts them, and the perf stream's events hold
# no ipi_send_cpu. Oracle: perf's count of the same run (the pinned ping-pong sends IPIs).
for c in perf bpf; do
	if [ "$c" = bpf ] && ! "$LOCUS" doctor 2>/dev/null | grep -q '^ok  *BPF collector'; then
		skip "bpf without --ipis: the BPF collector does not load here"
		continue
	fi
	perf stat -a -x, -e ipi:ipi_send_cpu -o "$TMP/n.$c.stat" -- "$LOCUS" run --collector "$c" \
		--json "$TMP/n.$c.json" -- "$LOCUS" bench pingpong --pin 0,1 --loops 3000 \
		>"$TMP/n.$c.txt" 2>&1
	check "$c without --ipis: IPIs null and said, where perf counted IPIs on the same run" \
		python3 - "$TMP/n.$c.json" "$TMP/n.$c.txt" "$TMP/n.$c.stat" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); txt = " ".join(open(sys.argv[2]).read().split())
sent = [int(l.split(",")[0]) for l in open(sys.argv[3]) if "ipi_send_cpu" in l][0]
w = d["wakeups"]
assert sent > 100, sent  # the run sent IPIs: a 0 would be made up
assert w["ipi_sent"] is None and w["polling_idle_no_ipi"] is None and w["other_ipis"] is None, w
assert "IPIs: not measured:" in txt and "without --ipis" in txt, txt[-2000:]
assert "ipi_send_cpu" not in d["sched"].get("events_by_type", {}), d["sched"]["events_by_type"]
EOF
done

tps=sched:sched_waking,sched:sched_wakeup,sched:sched_switch,sched:sched_migrate_task
tps=$tps,sched:sched_wakeup_new,sched:sched_process_fork,sched:sched_process_exit
tps=$tps,ipi:ipi_send_cpu,sched:sched_wake_idle_without_ipi
perf record -q -a -m 1024 -e $tps -o "$TMP/pr.data" -- hackbench -g 4 -l 300 >/dev/null 2>&1
root=$(perf script --show-task-events -i "$TMP/pr.data" 2>/dev/null |
	awk '/PERF_RECORD_COMM exec: hackbench:/ { split($NF, a, "[:/]"); print a[2]; exit }')
perf script -i "$TMP/pr.data" -F $fields --ns >"$TMP/pr.txt" 2>/dev/null
"$LOCUS" report -q -i "$TMP/pr.data" -p "${root:-0}" --json "$TMP/pr.json" >/dev/null 2>&1
check "perf record -a of hackbench: IPI wakeups and other IPIs as perf script counts them" \
	ipi_check "$TMP/pr.json" "$TMP/pr.txt" "${root:-0}"
finish
