#!/usr/bin/env bash
# idle.sh - why the wakee waited. Idle CPUs passed over, live: tasks pinned to CPU 0 behind a CPU hog can never
# count as passed over (no other CPU is allowed), and while CPU 1 idles they count as
# "not allowed"; the BPF collector measures it in the kernel and agrees with the stream on
# the same run; a file says affinity is unknown. The oracle is the same run's own per-CPU idle time. IPIs: within perf's own
# counts of ipi_send_cpu and sched_wake_idle_without_ipi over the same run.
. "$(dirname "$0")/../lib.sh"

# Idle CPUs passed over and the idle wait on a file, against an oracle computed from
# `perf script` of the same file (tests/e2e/idle_oracle.py, the rule written from the
# kernel's events): files where the switch from idle to a task is missing 4 times in 5
# (as the perf ring buffers lose them here), written by schedgen's lossy scenario.
# file_vs_oracle NAME FILE: locus report -a and the oracle agree exactly.
# a locus recording's workload, as its report names it (the scope's root)
workload_pid() {
	"$LOCUS" report -q -i "$1" --json "$TMP/wp.json" >/dev/null 2>&1 &&
		python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["provenance"]["scope_pid"])' "$TMP/wp.json"
}
# The ping-pong's main thread (tid == pid) is its one unpinned task: its go, barrier and join
# wakeups (up to 4; CI once saw more than 3) may pass over an idle CPU. main_wakeups JSON
# prints their number on that run, the bound of the pinned checks below.
main_wakeups() {
	python3 -c 'import json, sys
print(sum(t["wakeups"] for t in json.load(open(sys.argv[1]))["tasks"] if t["tid"] == t["pid"]))' "$1"
}
# On a disagreement: the wakeups judged passed over by one side only, (tid, switch-in ns),
# the report's from its timeline's flows (the same verdicts) and the oracle's list, with
# perf script's lines of the first one's last 300 us: the failure says which wakeup.
explain_diff() {
	"$LOCUS" report $3 -q -i "$2" --trace "$TMP/$1.trace.json" -o /dev/null 2>/dev/null
	python3 - "$TMP/$1.trace.json" "$TMP/$1.passed" "$TMP/$1.script" <<'PY'
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = {(e["args"]["tid"], int(round(float(e["ts"]) * 1000)) + e["args"]["delay_ns"])
       for e in ev if e["ph"] == "s" and e["args"].get("idle_passed") not in
       ("none", "not allowed", "not judged", None)}
want = {tuple(int(x) for x in l.split()) for l in open(sys.argv[2])}
print("passed over by locus only:", sorted(got - want)[:5], "by the oracle only:", sorted(want - got)[:5])
first = min((got - want) | (want - got), key=lambda w: w[1], default=None)
if first:
    tid, run = first
    for line in open(sys.argv[3]):
        m = re.match(r"\s*-?\d+\s+\[\d+\]\s+(\d+)\.(\d+):", line)
        t = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0")[:9]) if m else 0
        if run - 300000 <= t <= run + 1000:
            print(" ", line.rstrip()[:220])
PY
}
file_vs_oracle() {
	perf script --ns -F tid,cpu,time,event,trace -i "$2" >"$TMP/$1.script" 2>/dev/null
	local rc=$?
	if [ $rc -ne 0 ]; then # a partial decoding is no oracle
		echo "perf script could not read all of $2 (exit $rc): no oracle"
		return 1
	fi
	# $3, a recording's workload: its task tree on both sides. Every task (-a) would
	# count the wakeups of per-CPU kernel threads, which locus's recording knows pinned
	# (their affinity is in the file) and perf script cannot show: not the same rule.
	local scope="-a" tree=""
	[ -n "${3:-}" ] && scope="--pid $3" && tree="--tree $3"
	python3 "$(dirname "$0")/idle_oracle.py" $tree --passed "$TMP/$1.passed" \
		<"$TMP/$1.script" >"$TMP/$1.oracle" || return 1
	"$LOCUS" report $scope -q -i "$2" --json "$TMP/$1.json" >"$TMP/$1.txt" 2>&1 || return 1
	python3 - "$TMP/$1.json" "$TMP/$1.oracle" <<'PY' || { explain_diff "$1" "$2" "$scope"; return 1; }
import json, sys
d, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
w, lat, p = d["wakeups"], d["latency"], d["provenance"]
got = {"timed": lat["wake_to_run_ns"]["count"], "passed": w["idle_passed_over"],
       "idle_wait_ns": lat["idle_wait_ns"], "inferred": p["switch_ins_inferred"],
       "unknown_ns": p["unknown_cpu_ns"]}
print("locus ", got)
print("oracle", o)
assert got == o, (got, o)
assert p["idle_judged_open"] == 0, p
PY
}
if command -v perf >/dev/null && [ -x build/schedgen ]; then
	for fix in core2quad desktop-4c8t; do
		for seed in 1 2 3; do
			build/schedgen "$TMP/l.data" tests/fixtures/topology/$fix \
				tests/fixtures/tracefs-tree lossy 2000 $seed
			check "lossy file ($fix, seed $seed): passed over, idle wait, inferred as perf script says" \
				file_vs_oracle "l-$fix-$seed" "$TMP/l.data"
		done
	done
	"$LOCUS" report -a -i "$TMP/l.data" --trace "$TMP/l.trace.json" >/dev/null 2>"$TMP/l.trace.err"
	check "lossy file: the timeline infers the switch-ins the report does" python3 -c '
import json, re, sys
n = int(json.load(open(sys.argv[1]))["provenance"]["switch_ins_inferred"])
m = re.search(r"locus: ([0-9,]+) switch-ins inferred: the recording lacks them", open(sys.argv[2]).read())
assert n > 0 and m and int(m.group(1).replace(",", "")) == n, (n, m and m.group(0))
' "$TMP/l-desktop-4c8t-3.json" "$TMP/l.trace.err"
	check "lossy file: the report says how many switch-ins it inferred, and why" \
		grep -Eq "note: [0-9,]+ switch-ins inferred: the recording lacks them \(the kernel\$" \
		"$TMP/l-desktop-4c8t-3.txt"
	check "lossy file: the idle wait's definition beside it" \
		grep -q "idle wait .*: the time of those waits while any allowed CPU idled" \
		"$TMP/l-desktop-4c8t-3.txt"
else
	skip "lossy files: needs perf and build/schedgen"
fi

need_sched_two_cpus

# A sleeper and a hog pinned to CPU 0, started before locus: their affinity is set when
# locus reads it. locus traces them (-p) beside a command that only waits for them.
taskset -c 0 sh -c 'yes >/dev/null & y=$!; i=0; while [ $i -lt 150 ]; do sleep 0.01; i=$((i+1)); done; kill $y' &
pinned=$!
"$LOCUS" run -q --collector perf -p "$pinned" --json "$TMP/p.json" -- \
	sh -c "while kill -0 $pinned 2>/dev/null; do sleep 0.2; done" >"$TMP/p.txt" 2>"$TMP/p.err"
expect_eq "run -p beside a waiting command: exit 0" 0 $?
wait "$pinned" 2>/dev/null
check "pinned: the numbers hold together" python3 - "$TMP/p.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
w, lat = d["wakeups"], d["latency"]
timed = lat["wake_to_run_ns"]["count"]
passed, na = w["idle_passed_over"], w["idle_not_allowed"]
assert timed >= 100, ("the sleeper's wakeups", timed)
# only the waiting command (unpinned, a wakeup every 0.2 s) may have passed over a CPU
assert passed <= 20, ("pinned tasks passed over an idle CPU they may not use", passed)
assert passed + na <= timed, (passed, na, timed)
detail = lat["idle_passed_over_detail"]
assert detail["affinity_known"] is True
assert sum(c["passed_over"] for c in detail["by_class"].values()) == passed
cpus = {c["cpu"]: c for c in d["cpus"]}
span = d["sched"]["span_ns"]
# the oracle: CPU 1 idle most of the run means the sleeper waited while it idled
if cpus[1]["idle_ns"] >= 0.8 * span:
    assert na >= 50, ("CPU 1 idled yet no wakeup found it outside the affinity", na, cpus[1]["idle_ns"], span)
print("timed", timed, "passed", passed, "not allowed", na, "cpu1 idle %.0f%%" % (100.0 * cpus[1]["idle_ns"] / span))
EOF
check "text: the section with its rule" grep -q "rule: target not idle from the wakeup to the run" "$TMP/p.txt"
# /proc/schedstat: the run's deltas where the kernel has it, else one line saying why.
if [ -r /proc/schedstat ]; then
	check "schedstat: deltas of the run" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["schedstat"]
assert s["available"] and 15 <= s["version"] <= 17 and s["cpus"], s.get("reason")' "$TMP/p.json"
else
	check "schedstat: a note says why not" bash -c "sed -n '/^ Scheduler domains/,/^\$/p' '$TMP/p.txt' | tr '\n' ' ' | tr -s ' ' |
		grep -q '^ Scheduler domains (/proc/schedstat): not available: /proc/schedstat: No such file or directory (a kernel without CONFIG_SCHEDSTATS)'"
	check "schedstat: JSON says why not" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["schedstat"]
assert s["available"] is False and "CONFIG_SCHEDSTATS" in s["reason"], s' "$TMP/p.json"
fi

# Tasks started pinned to CPU 0 and let go after a second: not allowed before, passed over
# after (the affinity is asked again); the oracle is CPU 1's own idle time in the same run.
taskset -c 0 "$LOCUS" bench pingpong --pairs 3 --loops 1000000 >/dev/null &
pp=$!
(sleep 1; taskset -a -p -c 0-1 "$pp" >/dev/null) &
timeout 10 "$LOCUS" run -q --collector perf -p "$pp" --json "$TMP/u.json" -- sleep 2.5 >/dev/null 2>&1
kill "$pp" 2>/dev/null
wait
check "pinned then let go: not allowed while pinned" python3 - "$TMP/u.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["wakeups"]
cpus = {c["cpu"]: c for c in d["cpus"]}
idle1 = cpus[1]["idle_ns"] / d["sched"]["span_ns"]
print("passed", w["idle_passed_over"], "not allowed", w["idle_not_allowed"], "cpu1 idle %.0f%%" % (100 * idle1))
# passed over after the release is asserted in the same-run test below (both collectors): here
# it came out 0 in some runs and thousands in others, with old and new builds alike (after the
# release CPU 1 may never idle while a woken thread waits), so it is only shown
if idle1 >= 0.1:
    assert w["idle_not_allowed"] > 0, w
assert w["idle_passed_over"] + w["idle_not_allowed"] <= d["latency"]["wake_to_run_ns"]["count"], w
EOF

# --pin 0,0: CPU 1 idles but is not allowed, nothing passed over, no IPIs; --pin 0,1: an IPI
# or a polling wakeup for nearly every cross-CPU wakeup (where the CPUs were mostly idle).
"$LOCUS" run -q --collector perf --ipis --json "$TMP/p00.json" -- "$LOCUS" bench pingpong --pin 0,0 --loops 30000 >/dev/null 2>&1
"$LOCUS" run -q --collector perf --ipis --json "$TMP/p01.json" -- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
check "--pin 0,0 and --pin 0,1: idle CPUs and IPIs as the pinning says" python3 - "$TMP/p00.json" "$TMP/p01.json" \
	"$(main_wakeups "$TMP/p00.json")" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
wa, wb = a["wakeups"], b["wakeups"]
idle = lambda d, c: {x["cpu"]: x for x in d["cpus"]}[c]["idle_ns"] / d["sched"]["span_ns"]
main = int(sys.argv[3])  # the unpinned main thread's wakeups (main_wakeups)
print("0,0: passed", wa["idle_passed_over"], "not allowed", wa["idle_not_allowed"], "ipi", wa["ipi_sent"], "poll", wa["polling_idle_no_ipi"], "cpu1 idle %.0f%%" % (100 * idle(a, 1)))
assert wa["idle_passed_over"] <= main, (wa, "main thread's wakeups", main)
# the threads pin themselves after they start: a reader that came to them after they
# ended knows no mask (not judged, counted); where it read them, CPU 1 is not allowed
if idle(a, 1) >= 0.5 and wa["affinity_unknown_tasks"] <= 1:
    assert wa["idle_not_allowed"] >= 0.5 * a["latency"]["wake_to_run_ns"]["count"], wa
assert wa["ipi_sent"] + wa["polling_idle_no_ipi"] <= 0.01 * wa["total"] + 5, wa
remote = sum(v for k, v in wb["by_class"].items() if k != "same_cpu")
print("0,1: remote", remote, "ipi", wb["ipi_sent"], "poll", wb["polling_idle_no_ipi"])
if min(idle(b, 0), idle(b, 1)) >= 0.3:
    assert wb["ipi_sent"] + wb["polling_idle_no_ipi"] >= 0.8 * remote, wb
EOF

# IPIs: remote wakeups of a ping-pong on two CPUs, with perf counting the same tracepoints
# over the same run as the oracle (locus attributes a subset: those its traced wakeups sent),
# for each collector. ipi_oracle COLLECTOR: 0 checked, 2 when the collector does not load.
ipi_oracle() {
	local c=$1
	# -a: every CPU's, whoever sent them (a traced wakeup made in an interrupt, while a task
	# outside the workload ran, sent one that a count of the workload's tasks misses: 6 vs 5)
	perf stat -a -x, -e ipi:ipi_send_cpu,sched:sched_wake_idle_without_ipi -o "$TMP/ps.$c" -- \
		"$LOCUS" run -q --collector "$c" --ipis --json "$TMP/i.$c.json" -- "$LOCUS" bench pingpong \
		--pin 0,1 --loops 3000 >/dev/null 2>&1
	[ -s "$TMP/i.$c.json" ] || return 2
	python3 - "$TMP/i.$c.json" "$TMP/ps.$c" "$c" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
perf = {}
for line in open(sys.argv[2]):
    f = line.strip().split(",")
    if len(f) > 2 and f[0].isdigit():
        perf[f[2]] = int(f[0])
w = d["wakeups"]
ipi, poll = w["ipi_sent"], w["polling_idle_no_ipi"]
assert d["provenance"]["source"] == sys.argv[3], d["provenance"]["source"]
if "ipi:ipi_send_cpu" not in perf:
    assert ipi is None, ipi  # no tracepoint: not measured, not 0
    sys.exit(0)
remote = sum(v for k, v in w["by_class"].items() if k != "same_cpu")
assert ipi <= perf["ipi:ipi_send_cpu"], (ipi, perf)
assert poll <= perf["sched:sched_wake_idle_without_ipi"], (poll, perf)
assert ipi <= d["sched"]["events_by_type"].get("ipi_send_cpu", ipi), ipi
assert ipi + poll <= remote, (ipi, poll, remote)
assert remote < 1000 or ipi + poll > 0, ("remote wakeups but neither an IPI nor a polling wakeup", remote)
assert sum(c["ipi_sent"] for c in w["ipi_by_class"].values()) == ipi
print(sys.argv[3], "remote", remote, "ipi", ipi, "polling", poll, "perf", perf)
with open(sys.argv[1] + ".share", "w") as f:  # the share of the oracle's IPIs attributed
    f.write("%.4f\n" % (100.0 * ipi / max(perf["ipi:ipi_send_cpu"], 1)))
EOF
}
check "ipi: within perf's counts of the same run" ipi_oracle perf
ipi_oracle bpf
case $? in
0) ok "bpf ipi: within perf's counts of the same run"
   if [ -s "$TMP/i.perf.json.share" ] && [ -s "$TMP/i.bpf.json.share" ]; then
	# two runs, each with its own oracle: shown (the same-run test below holds them to 2
	# points; across runs the difference reached 1.6 points, once more than 2)
	echo "perf $(cat "$TMP/i.perf.json.share")% bpf $(cat "$TMP/i.bpf.json.share")% of perf stat's IPIs"
   fi ;;
2) skip "the BPF collector does not load here" ;;
*) fail "bpf ipi: within perf's counts of the same run" ;;
esac

# The BPF collector keeps idle CPUs in the kernel, with the same rule: --pin 0,0 as above.
if "$LOCUS" run -q --collector bpf --delay-rate 0 --json "$TMP/b00.json" -- "$LOCUS" bench pingpong \
	--pin 0,0 --loops 5000 >"$TMP/b00.txt" 2>/dev/null; then
	check "bpf --pin 0,0: not allowed, none passed over but the unpinned main thread's" python3 - "$TMP/b00.json" \
		"$(main_wakeups "$TMP/b00.json")" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
w = d["wakeups"]
c1 = {x["cpu"]: x for x in d["cpus"]}[1]
idle1 = c1["idle_ns"] / max(c1["idle_ns"] + c1["busy_ns"], 1)  # the kernel's ticks over the session
timed = d["latency"]["wake_to_run_ns"]["count"]
print("bpf 0,0: passed", w["idle_passed_over"], "not allowed", w["idle_not_allowed"], "of", timed, "cpu1 idle %.0f%%" % (100 * idle1))
assert d["provenance"]["source"] == "bpf"
main = int(sys.argv[2])  # the unpinned main thread's wakeups (main_wakeups)
assert w["idle_passed_over"] <= main, (w, "main thread's wakeups", main)
# CPU 1 idle most of the run (a quiet machine): most wakeups waited while it was idle.
# The idle share here comes from /proc/stat ticks, coarse on a short run: only a clear case.
if idle1 >= 0.9:
    assert w["idle_not_allowed"] >= 0.5 * timed, w
assert d["latency"]["idle_passed_over_detail"]["affinity_known"] is True
EOF
	check "bpf: the rule says where the mask comes from" grep -q "affinity: the task's mask when it ran" "$TMP/b00.txt"

	# Both collectors on the same run: each attached (-p, no command) to a ping-pong that
	# waits for a FIFO until all are in place, pinned to CPU 0 for a third of a second and
	# then let go, until it ends. A third, BPF at the default rate (a 1-in-20 sample),
	# on the same run: its share's interval holds the share of every wakeup (BPF,
	# --delay-rate 0). The oracle: `perf record -a` of the same run (the sched tracepoints
	# and sys_enter_sched_setaffinity), counted by idle_oracle.py with the pinning the
	# scenario sets (CPU 0 until taskset lets each thread go); taken again while perf says
	# it lost events (3 tries).
	same_run() {
		local pr pp bb pb db
		rm -f "$TMP/go" "$TMP/pr.data"
		mkfifo "$TMP/go"
		nice -n -15 perf record -q -a -m 8192 -o "$TMP/pr.data" -e sched:sched_switch \
			-e sched:sched_waking -e sched:sched_migrate_task -e sched:sched_process_fork \
			-e sched:sched_process_exit -e syscalls:sys_enter_sched_setaffinity \
			>/dev/null 2>"$TMP/pr.err" &
		pr=$!
		sleep 1
		taskset -c 0 sh -c "read x <'$TMP/go'; exec '$LOCUS' bench pingpong --pairs 3 --loops 100000" >/dev/null &
		pp=$!
		# attached without a command: each collector's scope is the ping-pong alone (a
		# waiter command of each would be in its own scope, ~460 wakeups of its own)
		"$LOCUS" run -q --collector bpf --ipis --delay-rate 0 -p "$pp" --json "$TMP/sb.json" >/dev/null 2>&1 &
		bb=$!
		"$LOCUS" run -q --collector perf --ipis -p "$pp" --json "$TMP/sp.json" >/dev/null 2>&1 &
		pb=$!
		"$LOCUS" run -q --collector bpf -p "$pp" --json "$TMP/sd.json" >"$TMP/sd.txt" 2>&1 &
		db=$!
		sleep 2
		echo go >"$TMP/go"
		sleep 0.3
		taskset -a -p -c 0-1 "$pp" >/dev/null
		wait "$bb" "$pb" "$db"
		kill -INT "$pr"
		wait "$pr"
		echo "$pp" >"$TMP/pp.pid"
		perf script -i "$TMP/pr.data" --ns -F tid,cpu,time,event,trace >"$TMP/pr.script" \
			2>"$TMP/pr.script.err"
		! grep -qi lost "$TMP/pr.err" "$TMP/pr.script.err"
	}
	for try in 1 2 3; do
		same_run && break
		echo "try $try: perf record, the oracle, lost events: $(grep -hi lost "$TMP/pr.err" "$TMP/pr.script.err" | head -n 1)"
	done
	if grep -qi lost "$TMP/pr.err" "$TMP/pr.script.err"; then
		skip "bpf, perf and perf script of the same run: perf record lost events in 3 tries (no oracle)"
	else
		python3 "$(dirname "$0")/idle_oracle.py" --tree "$(cat "$TMP/pp.pid")" --pinned 0 \
			<"$TMP/pr.script" >"$TMP/pr.oracle"
		check "bpf and perf on the same run: idle CPUs passed over and not allowed within 1 point of perf script's count of the same run (a lower bound where its CPU time is much unknown)" \
			python3 - "$TMP/sb.json" "$TMP/sp.json" "$TMP/pr.oracle" <<'EOF'
import json, sys
b, p, o = (json.load(open(f)) for f in sys.argv[1:4])
timed = lambda d: d["latency"]["wake_to_run_ns"]["count"]
share = lambda d, k: 100.0 * d["wakeups"][k] / timed(d)
ou = o["unknown_ns"] / max(o["span_ns"] * o["ncpus"], 1)
pu = p["provenance"]["unknown_cpu_ns"] / (p["sched"]["span_ns"] * p["provenance"]["ncpus_honored"])
print("timed: oracle %d, bpf %d, perf %d; CPU time unknown: oracle %.1f%%, perf %.1f%%"
      % (o["timed"], timed(b), timed(p), 100 * ou, 100 * pu))
assert b["provenance"]["source"] == "bpf" and p["provenance"]["source"] == "perf"
for k, ok in (("idle_passed_over", "passed"), ("idle_not_allowed", "not_allowed")):
    os_, bs, ps = 100.0 * o[ok] / o["timed"], share(b, k), share(p, k)
    print("%-17s oracle %6.2f%%  bpf %6.2f%%  perf %6.2f%%" % (k, os_, bs, ps))
    # a recording that lost switch-ins out of idle counts their time unknown, never idle:
    # its shares are lower bounds then (the oracle's, and the perf stream's alike)
    if ou <= 0.02:
        assert abs(bs - os_) <= 1.0, ("bpf vs perf script", k, bs, os_)
    else:
        assert bs >= os_ - 1.0, ("bpf below the oracle, a lower bound here", k, bs, os_)
    if ou <= 0.02 and pu <= 0.02:
        assert abs(ps - os_) <= 1.0, ("perf vs perf script", k, ps, os_)
    else:
        assert ps <= bs + 1.0, ("perf above bpf (a lower bound here)", k, ps, bs)
EOF
	fi
	check "bpf and perf on the same run: idle CPUs and IPIs within 2 points (perf a lower bound where its CPU time is much unknown)" python3 - "$TMP/sb.json" "$TMP/sp.json" <<'EOF'
import json, sys
def shares(f):
    d = json.load(open(f))
    w = d["wakeups"]
    timed = d["latency"]["wake_to_run_ns"]["count"]
    remote = sum(v for k, v in w["by_class"].items() if k != "same_cpu")
    s = {"passed over": 100.0 * w["idle_passed_over"] / timed,
         "not allowed": 100.0 * w["idle_not_allowed"] / timed}
    ipi = None
    if w["ipi_sent"] is not None and remote >= 100:
        ipi = 100.0 * (w["ipi_sent"] + w["polling_idle_no_ipi"]) / remote
        print("%s: remote %d, IPI %d, polling %d" % (d["provenance"]["source"], remote, w["ipi_sent"], w["polling_idle_no_ipi"]))
    return d["provenance"]["source"], timed, s, ipi
(sb, tb, b, ib), (sp, tp, p, ip) = shares(sys.argv[1]), shares(sys.argv[2])
assert (sb, sp) == ("bpf", "perf"), (sb, sp)
assert tb >= 10000 and tp >= 10000, (tb, tp)
# the perf stream loses most switch-ins out of idle here (records emitted in the idle
# task's context); the time before an inferred one is unknown, counted not idle: with much
# unknown time, perf's passed-over and not-allowed shares are lower bounds of BPF's (which
# sees every switch)
dp = json.load(open(sys.argv[2]))
u = dp["provenance"]["unknown_cpu_ns"] / (dp["sched"]["span_ns"] * dp["provenance"]["ncpus_honored"])
print("perf stream: %.1f%% of its CPU time unknown (switch-ins lost)" % (100 * u))
for k in b:
    print("%-15s bpf %6.2f%%  perf %6.2f%%" % (k, b[k], p[k]))
    if u > 0.02:  # both need a CPU known idle
        assert p[k] <= b[k] + 2.0, (k, b[k], p[k], "unknown", u)
    else:
        assert abs(b[k] - p[k]) <= 2.0, (k, b[k], p[k])
# pinned, then let go: both saw wakeups that passed over an idle CPU once it was allowed,
# if a CPU was idle at all (on a machine busy with other work none may be: then both say 0)
d = json.load(open(sys.argv[2]))
idle = sum(c["idle_ns"] or 0 for c in d["cpus"]) / d["sched"]["span_ns"]
print("CPU time idle during the run (perf collector): %.1f%% of one CPU" % (100 * idle))
if idle >= 0.05:
    assert b["passed over"] > 0 and (p["passed over"] > 0 or u > 0.02), (b, p, "idle", idle, u)
lost = dp["provenance"]["drops"]["records_lost"] or 0
if ib is not None and ip is not None:
    print("%-15s bpf %6.2f%%  perf %6.2f%%  (perf stream lost %d records)" % ("IPI or polling", ib, ip, lost))
    # a wakeup's IPI is matched to it by the records around it: with records lost (a
    # loaded machine) perf's share is over a different subset of wakeups, not comparable
    assert lost > 0 or abs(ib - ip) <= 2.0, ("IPI or polling", ib, ip)
EOF
	check "bpf's default sample on the same run: its interval holds every wakeup's share" \
		python3 - "$(dirname "$0")" "$TMP/sd.json" "$TMP/sb.json" "$TMP/sp.json" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv.pop(1))
from wilson import wilson
sd, sb, sp = (json.load(open(f)) for f in sys.argv[1:4])
det = sd["latency"]["idle_passed_over_detail"]
k, n = sd["wakeups"]["idle_passed_over"], sd["latency"]["wake_to_run_ns"]["count"]
assert sd["provenance"]["sample"]["sampled"] and sd["provenance"]["sample_every"] == 20, sd["provenance"]
lo, hi = det["share_ci95_pct"]
assert abs(det["share_pct"] - 100.0 * k / n) < 1e-6, (det["share_pct"], k, n)
assert abs(lo - wilson(k, n, 1.96)[0]) < 1e-3 and abs(hi - wilson(k, n, 1.96)[1]) < 1e-3, (lo, hi)
# the estimates of the whole run: the sample's counts and waits scaled by all / timed
scale = sd["provenance"]["sample"]["scale"]
assert abs(det["estimated"]["passed_over"] - k * scale) <= 1, (det["estimated"], k, scale)
assert abs(det["estimated"]["idle_wait_ns"] - sd["latency"]["idle_wait_ns"] * scale) <= 1
share = lambda d: 100.0 * d["wakeups"]["idle_passed_over"] / d["latency"]["wake_to_run_ns"]["count"]
every, perf = share(sb), share(sp)
print("default sample: %.2f%% (95%% interval %.2f-%.2f%%, %d of %d timed); every wakeup %.2f%%; perf %.2f%%"
      % (det["share_pct"], lo, hi, k, n, every, perf))
print("every wakeup's share within the printed 95%% interval: %s; perf's: %s"
      % (lo <= every <= hi, lo <= perf <= hi))
# asserted at 99.9% (a 95% interval misses 1 time in 20 by design): the same rule, z 3.29
lo3, hi3 = wilson(k, n, 3.29)
assert lo3 <= every <= hi3, ("every wakeup's share outside the sample's 99.9% interval", every, lo3, hi3)
# against perf: within 2 points, or, with much of perf's CPU time unknown (its switch-ins
# out of idle lost), perf's share is a lower bound
u = sp["provenance"]["unknown_cpu_ns"] / (sp["sched"]["span_ns"] * sp["provenance"]["ncpus_honored"])
if u > 0.02:
    assert perf <= hi3 + 2.0, ("perf above the default sample's interval", perf, lo3, hi3, "unknown", u)
else:
    assert abs(det["share_pct"] - perf) <= 2.0, ("default sample vs perf", det["share_pct"], perf)
EOF
	check "bpf's default sample: the text gives the estimate and its interval" \
		grep -q "est\\. .* of .* wakeups (.*, 95% interval .*),\$" "$TMP/sd.txt"
	# IPIs are --ipis's (two more programs): the default says not measured, never a 0
	check "bpf's default: IPIs not measured, said (text), null (JSON)" sh -c \
		"grep -q 'IPIs: not measured' '$TMP/sd.txt' && grep -q 'without --ipis' '$TMP/sd.txt' &&
		 python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))[\"wakeups\"]; assert w[\"ipi_sent\"] is None and w[\"ipi_by_class\"] is None, w' '$TMP/sd.json'"
else
	skip "the BPF collector does not load here"
fi

# Recordings made here (where the ring buffers lose most switch-ins out of idle): an
# unpinned ping-pong and hackbench, each against perf script of the same file.
"$LOCUS" record -q -o "$TMP/rpp.data" -- "$LOCUS" bench pingpong --pairs 2 --loops 20000 >/dev/null 2>&1
check "recording (pingpong): passed over, idle wait, inferred as perf script says (its task tree)" \
	file_vs_oracle rpp "$TMP/rpp.data" "$(workload_pid "$TMP/rpp.data")"
if command -v hackbench >/dev/null; then
	"$LOCUS" record -q -o "$TMP/rhb.data" -- hackbench -g 2 -l 500 >/dev/null 2>&1
	check "recording (hackbench): passed over, idle wait, inferred as perf script says (its task tree)" \
		file_vs_oracle rhb "$TMP/rhb.data" "$(workload_pid "$TMP/rhb.data")"
fi
# The BPF collector and a recording of the SAME run (locus record -a around locus run):
# idle CPUs passed over within 2 points (--delay-rate 0: every wakeup timed by both).
if "$LOCUS" record -q -a -o "$TMP/same.data" -- "$LOCUS" run -q --collector bpf --delay-rate 0 \
	--json "$TMP/same.bpf.json" -- "$LOCUS" bench pingpong --pairs 2 --loops 20000 \
	>/dev/null 2>&1 && [ -s "$TMP/same.bpf.json" ]; then
	pid=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(max(d["tasks"], key=lambda t: t["wakeups"])["pid"])' "$TMP/same.bpf.json")
	"$LOCUS" report -q -i "$TMP/same.data" --pid "$pid" --json "$TMP/same.file.json" >/dev/null 2>&1
	check "bpf and a recording of the same run: idle CPUs passed over within 2 points (the recording a lower bound where its CPU time is much unknown)" \
		python3 - "$TMP/same.bpf.json" "$TMP/same.file.json" <<'EOF'
import json, sys
b, f = (json.load(open(x)) for x in sys.argv[1:3])
assert b["provenance"]["source"] == "bpf" and f["provenance"]["source"] == "replay"
def share(d):
    t = d["latency"]["wake_to_run_ns"]["count"]
    return 100.0 * d["wakeups"]["idle_passed_over"] / t, t
(sb, tb), (sf, tf) = share(b), share(f)
print("passed over: bpf %.2f%% of %d, recording %.2f%% of %d; switch-ins inferred %s" %
      (sb, tb, sf, tf, f["provenance"]["switch_ins_inferred"]))
assert tb >= 10000 and tf >= 0.5 * tb, (tb, tf)
# with much CPU time unknown (switch-ins lost, see below) the recording's share is a lower bound
u = f["provenance"]["unknown_cpu_ns"] / (f["sched"]["span_ns"] * f["provenance"]["ncpus_honored"])
print("recording: %.1f%% of its CPU time unknown (switch-ins lost)" % (100 * u))
assert abs(sb - sf) <= 2.0 or (u > 0.02 and sf <= sb + 2.0), (sb, sf, u)
EOF
else
	skip "bpf and a recording of the same run: the BPF collector does not load here"
fi
# The same at the default rate: BPF times a 1-in-20 sample; the recording of the same run
# has every wakeup. Its share is printed against the sample's 95% interval; asserted within
# the 99.9% interval (a 95% one misses 1 time in 20 by design) or 2 points.
if "$LOCUS" record -q -a -o "$TMP/samed.data" -- "$LOCUS" run -q --collector bpf \
	--json "$TMP/samed.bpf.json" -- "$LOCUS" bench pingpong --pairs 2 --loops 20000 \
	>/dev/null 2>&1 && [ -s "$TMP/samed.bpf.json" ]; then
	pid=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(max(d["tasks"], key=lambda t: t["wakeups"])["pid"])' "$TMP/samed.bpf.json")
	"$LOCUS" report -q -i "$TMP/samed.data" --pid "$pid" --json "$TMP/samed.file.json" >/dev/null 2>&1
	check "bpf's default sample and a recording of the same run: the file's share in its interval (a lower bound where its CPU time is much unknown)" \
		python3 - "$(dirname "$0")" "$TMP/samed.bpf.json" "$TMP/samed.file.json" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv.pop(1))
from wilson import wilson
b, f = (json.load(open(x)) for x in sys.argv[1:3])
assert b["provenance"]["sample"]["sampled"], b["provenance"]
k, n = b["wakeups"]["idle_passed_over"], b["latency"]["wake_to_run_ns"]["count"]
lo, hi = b["latency"]["idle_passed_over_detail"]["share_ci95_pct"]
fs = 100.0 * f["wakeups"]["idle_passed_over"] / f["latency"]["wake_to_run_ns"]["count"]
print("default sample %.2f%% (95%% interval %.2f-%.2f%%, %d of %d timed); recording %.2f%% of %d: %s"
      % (100.0 * k / n, lo, hi, k, n, fs, f["latency"]["wake_to_run_ns"]["count"],
         "inside" if lo <= fs <= hi else "outside"))
lo3, hi3 = wilson(k, n, 3.29)
# the ring buffers here lose switch-ins out of idle: the recording's stretch before an
# inferred one is unknown, counted not idle, so with much unknown time its share is a
# lower bound only (recording <= BPF), said
u = f["provenance"]["unknown_cpu_ns"] / (f["sched"]["span_ns"] * f["provenance"]["ncpus_honored"])
print("recording: %.1f%% of its CPU time unknown (switch-ins lost)" % (100 * u))
if u > 0.02:
    assert fs <= hi3 + 2.0, ("recording above the sample's interval", fs, lo3, hi3)
else:
    assert lo3 <= fs <= hi3 or abs(fs - 100.0 * k / n) <= 2.0, (fs, lo3, hi3)
EOF
fi

# A locus recording holds each task's affinity: a ping-pong whose threads pin themselves to
# CPUs 0 and 1 (after they start) passes over no idle CPU, as the BPF collector on the same
# run says (only the unpinned main thread may); a perf record file holds none: the
# share is not computed, and the report says why.
pinned_file() {
	python3 - "$1" "$(main_wakeups "$1")" "${@:2}" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
w, det = f["wakeups"], f["latency"]["idle_passed_over_detail"]
print("recording: passed over %d, not allowed %d, of %d timed" %
      (w["idle_passed_over"], w["idle_not_allowed"], f["latency"]["wake_to_run_ns"]["count"]))
assert f["provenance"]["source"] == "replay" and det["affinity_known"] is True
main = int(sys.argv[2])  # the unpinned main thread's wakeups (main_wakeups)
assert w["idle_passed_over"] <= main, (w, "main thread's wakeups", main)
if len(sys.argv) > 3:
    b = json.load(open(sys.argv[3]))["wakeups"]
    print("bpf on the same run: passed over %d, not allowed %d" % (b["idle_passed_over"], b["idle_not_allowed"]))
    assert abs(b["idle_passed_over"] - w["idle_passed_over"]) <= 3, (b, w)
EOF
}
if "$LOCUS" record -q -a -o "$TMP/pin.data" -- "$LOCUS" run -q --collector bpf --delay-rate 0 \
	--json "$TMP/pin.bpf.json" -- "$LOCUS" bench pingpong --pin 0,1 --loops 20000 \
	>/dev/null 2>&1 && [ -s "$TMP/pin.bpf.json" ]; then
	pid=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(max(d["tasks"], key=lambda t: t["wakeups"])["pid"])' "$TMP/pin.bpf.json")
	"$LOCUS" report -q -i "$TMP/pin.data" --pid "$pid" --json "$TMP/pin.json" >"$TMP/pin.txt" 2>&1
	check "pinned ping-pong, recorded: none passed over but the main thread's, as BPF on the same run says" \
		pinned_file "$TMP/pin.json" "$TMP/pin.bpf.json"
else
	"$LOCUS" record -q -o "$TMP/pin.data" -- "$LOCUS" bench pingpong --pin 0,1 --loops 20000 >/dev/null 2>&1
	"$LOCUS" report -q -i "$TMP/pin.data" --json "$TMP/pin.json" >"$TMP/pin.txt" 2>&1
	check "pinned ping-pong, recorded: none passed over" pinned_file "$TMP/pin.json"
fi
check "recording: the rule says where the masks come from" \
	grep -q "affinity: each task's mask" "$TMP/pin.txt"
perf record -q -o "$TMP/perfpin.data" -e sched:sched_switch -e sched:sched_waking \
	-e sched:sched_migrate_task -- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
"$LOCUS" report -q -i "$TMP/perfpin.data" --json "$TMP/perfpin.json" >"$TMP/perfpin.txt" 2>&1
check "perf record file: no passed-over share, and why" \
	grep -q "Idle CPUs passed over: not computed: the file holds no task's affinity" "$TMP/perfpin.txt"
check "perf record file: the JSON's passed-over counts are null" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["wakeups"]
assert w["idle_passed_over"] is None and w["idle_not_allowed"] is None, w
assert d["latency"]["idle_passed_over_detail"] is None and d["latency"]["idle_wait_ns"] is None
assert d["wakeups"]["total"] > 1000' "$TMP/perfpin.json"
"$LOCUS" record -q -o "$TMP/r.data" -- sh -c 'sleep 0.05; sleep 0.05' >/dev/null 2>&1
"$LOCUS" report -q -i "$TMP/r.data" >"$TMP/r.txt" 2>/dev/null
check "file: locus record keeps the IPI tracepoints" grep -q "remote wakeups .*: sent an IPI" "$TMP/r.txt"
"$LOCUS" report -q -i tests/fuzz/corpus/perf-sched-true.data >"$TMP/ps.txt" 2>/dev/null
check "file without IPI tracepoints: not measured, said" grep -q "IPIs: not measured" "$TMP/ps.txt"
finish
