#!/usr/bin/env bash
# bpf_blame.sh - who delayed the wakee split in the kernel (locus run --collector bpf
# --sections blame) against tests/e2e/blame_oracle.py over `perf record` of the SAME run
# (perf takes every sched and irq event of the machine around locus): a CPU-bound task
# pinned to the wakee's CPU named as the main cause by both; each cause's share of the
# wait as the oracle counts it over every wakeup, within the interval locus prints for the
# wakeups it split (1 in 20 at the default timing rate, a point beside it; every one with
# --delay-rate 0: within a point).
# CPU-bound loops run beside every run (no idle CPU is assumed).
. "$(dirname "$0")/../lib.sh"

need_sched_two_cpus
if ! have_root; then
	skip "the BPF collector needs root here"
	finish
fi
if ! "$LOCUS" doctor 2>/dev/null | grep -q '^ok  *BPF collector'; then
	skip "the BPF collector does not load here"
	finish
fi
if ! command -v perf >/dev/null; then
	skip "bpf_blame: needs perf as the oracle"
	finish
fi
ORACLE="$(dirname "$0")/blame_oracle.py"
PY=$(python3 -c 'import sys; print(sys.executable)') # the interpreter, not a shim script

busy=()
cleanup() {
	[ ${#busy[@]} -gt 0 ] && kill "${busy[@]}" 2>/dev/null
	[ -n "${hog:-}" ] && kill "$hog" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# 0. Asked with --collector bpf, blame is no usage error: the kernel splits the waits
"$LOCUS" run -q --collector bpf --sections blame --delay-rate 0 -- sleep 0.1 >"$TMP/true.txt" 2>&1
expect_eq "run --collector bpf --sections blame: exit 0" 0 $?
check "and the report says where the split came from" grep -q "in the kernel by the" \
	<(tr -s ' \n' '  ' <"$TMP/true.txt") # prose folds at 80 columns

tps=sched:sched_waking,sched:sched_switch,sched:sched_migrate_task,sched:sched_wakeup_new
tps=$tps,sched:sched_process_fork,sched:sched_process_exit
tps=$tps,irq:irq_handler_entry,irq:irq_handler_exit,irq:softirq_entry,irq:softirq_exit

for _ in 1 2; do
	sh -c 'while :; do :; done' &
	busy+=($!)
done
sh -c 'echo $$ >"$0"; exec taskset -c 1 nice -n -10 sh -c "while :; do :; done"' "$TMP/hog.pid" &
sleep 0.3
hog=$(cat "$TMP/hog.pid")

# record NAME N [LOCUS-ARGS...]: N sleeps of a task pinned to the hog's CPU, under perf record
# (perf's reader at nice -15, the run under it back at 0: on a loaded machine the reader
# starved and lost half the oracle's events once)
record() {
	local name=$1 n=$2
	shift 2
	nice -n -15 perf record -q -m 4096 -a -e $tps -o "$TMP/$name.data" -- nice -n 15 \
		"$LOCUS" run -q --collector bpf --sections blame --json "$TMP/$name.json" "$@" -- \
		sh -c 'echo $$ >"$0"; exec taskset -c 1 "$1" -c "
import time
for i in range($2):
    time.sleep(0.0005)
"' "$TMP/$name.pid" "$PY" "$n" >"$TMP/$name.txt" 2>"$TMP/$name.err" || {
		echo "$name: perf record of locus run exited $?: $(tail -n 2 "$TMP/$name.err")"
		return 1
	}
	perf script --ns -F pid,tid,cpu,time,event,trace -i "$TMP/$name.data" \
		>"$TMP/$name.script" 2>"$TMP/$name.script.err" || {
		echo "$name: perf script exited $?: $(tail -n 2 "$TMP/$name.script.err")"
		return 1
	}
	python3 "$ORACLE" --pid "$(cat "$TMP/$name.pid")" <"$TMP/$name.script" >"$TMP/$name.oracle"
}

# run NAME N [LOCUS-ARGS...]: recorded again while perf says it lost events (3 tries)
run() {
	for try in 1 2 3; do
		record "$@" || return 1
		grep -q lost "$TMP/$1.script.err" || return 0
		echo "try $try: the oracle lost events: $(grep lost "$TMP/$1.script.err" | head -n 1)"
	done
}

# compare_or_skip NAME DESC: compare, unless the oracle lost events in every try (no oracle)
compare_or_skip() {
	if grep -q lost "$TMP/$1.script.err"; then
		skip "$2: perf record, the oracle, lost events in 3 tries"
	else
		check "$2" compare "$1"
	fi
}

# compare NAME: the kernel's split against the oracle's, cause by cause
compare() {
	python3 - "$TMP/$1.json" "$TMP/$1.oracle" "$hog" "$TMP/$1.script.err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["blame"]
o = json.load(open(sys.argv[2]))
hog = int(sys.argv[3])
lost = open(sys.argv[4]).read()
a, iv, every = d["all"], d["share_interval95"], d["sampled_every"]
if every == 1:  # every wakeup split: no sampling interval; a point for what is approximated
    assert iv is None, iv
    # what locus states unattributed (waits begun before the oldest of a CPU's 128 run
    # segments: a CPU switching fast on a loaded machine, 2.5% seen) may belong to any cause
    u = a["unattributed_ns"] / a["wait_ns"]
    iv = {k: [a[k + "_ns"] / a["wait_ns"]] * 2 for k in o["causes"]}
    iv = {k: [lo - u, hi] if k == "unattributed" else [lo, hi + u] for k, (lo, hi) in iv.items()}
    print("unattributed by locus: %.2f%% (each cause's point may be short by as much)" % (100 * u))
print("locus ", a["wakeups"], "of", o["wakeups"], "split (1 in %d)" % every)
bad = []
for k in o["causes"]:
    share, oshare = a[k + "_ns"] / a["wait_ns"], o["causes"][k] / o["wait_ns"]
    lo, hi = iv[k]
    # the interval is the sampling's; a point beside it for what the kernel approximates
    # (irq time in proportion where a wait began inside a segment). A cause the sample saw
    # in few wakeups or none has a bound for its upper end (stats_ratio95): a cause of a
    # few long waits the sample missed (the oracle's "ahead" at 2.2% and 6.3% with none of
    # it in ~300 wakeups split, session 13) lies inside it, no wider slack
    ok = lo - 0.01 <= oshare <= hi + 0.01
    print("  %-12s locus %6.2f%% [%6.2f, %6.2f]  oracle %6.2f%% %s" %
          (k, 100 * share, 100 * lo, 100 * hi, 100 * oshare, "" if ok else "<- outside"))
    if not ok:
        bad.append(k)
top = d["tasks"][0]
otop = max(o["tasks"], key=lambda t: o["tasks"][t])
print("main cause: locus", top["tid"], top["comm"],
      "%.1f%%" % (100 * top["inflicted_ns"] / a["wait_ns"]), "oracle", otop,
      "%.1f%%" % (100 * o["tasks"][otop] / o["wait_ns"]), "hog", hog)
for line in lost.splitlines():  # perf script's own warning: the oracle is short by as much
    if "lost" in line:
        print("perf:", line.strip())
assert not bad, bad
assert top["tid"] == hog and int(otop) == hog, (top["tid"], otop, hog)
# the wakeups split: the oracle's, 1 in `every` of them at random (binomial: 5 sigma)
exp = o["wakeups"] / every
sd = (exp * (1 - 1 / every)) ** 0.5
assert abs(a["wakeups"] - exp) <= 5 * sd + 0.02 * exp, (a["wakeups"], exp)
PY
}

check "sampled (the default timing rate): locus and perf record of the same run" run sampled 6000
compare_or_skip sampled "sampled: the hog named first by both, each cause's share in the printed interval"
check "sampled: the text says it was sampled, 1 in N" grep -q "sampled; intervals over them" \
	<(tr -s ' \n' '  ' <"$TMP/sampled.txt")
check "every wakeup (--delay-rate 0): locus and perf record of the same run" \
	run every 3000 --delay-rate 0
compare_or_skip every "every wakeup: the hog named first by both, each cause's share in the printed interval"
finish
