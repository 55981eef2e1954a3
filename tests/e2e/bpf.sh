#!/usr/bin/env bash
# bpf.sh - the in-kernel collector against the streaming one on the same workloads; fallbacks.
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "the BPF collector needs root here"
	finish
fi
if ! "$LOCUS" doctor 2>/dev/null | grep -q '^ok  *BPF collector'; then
	skip "the BPF collector does not load here: $("$LOCUS" doctor 2>/dev/null | grep 'BPF collector')"
	finish
fi

# Each collector against an oracle of the same run: perf record takes every sched event of
# the machine around `locus run`, and locus report replays that file exactly (the perf.data
# path is exact against perf script). Totals within 2%, matrix and class shares within a
# point, p50/p99 within about one power of two (the two runs differ, not the buckets).
tps=sched:sched_waking,sched:sched_switch,sched:sched_migrate_task,sched:sched_wakeup_new
tps=$tps,sched:sched_process_fork,sched:sched_process_exit
for pin in 0,1 0,0; do
	for c in bpf perf; do
		# large buffers on both sides (a busy machine starves their readers); whatever is
		# still lost is stated by each side and widens the bound by as much
		m=; [ $c = perf ] && m="-m 4096"
		# every wakeup timed: the file times all, and a 1-in-20 sample's p99 (the tenth
		# largest of ~1,000) strays past a power of two on a heavy tail (11.5 vs 37.9 us once)
		[ $c = bpf ] && m="--delay-rate 0"
		perf record -q -m 4096 -a -e $tps -o "$TMP/$c-$pin.data" -- "$LOCUS" run -q --collector $c $m \
			--sections wakeups,latency,pairs --json "$TMP/$c-$pin.json" -- "$LOCUS" bench \
			pingpong --pin $pin --loops 20000 >"$TMP/$c-$pin.txt" 2>&1
		expect_eq "pin $pin, collector $c under perf record: exit 0" 0 $?
		pid=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(max(d["tasks"], key=lambda t: t["wakeups"])["pid"])' "$TMP/$c-$pin.json")
		"$LOCUS" report -q -i "$TMP/$c-$pin.data" --pid "$pid" --sections wakeups,latency \
			--json "$TMP/$c-$pin.oracle.json" >/dev/null 2>&1
		check "pin $pin, $c: agrees with perf record's file of the same run" \
			python3 - "$TMP/$c-$pin.json" "$TMP/$c-$pin.oracle.json" <<'PY'
import json, math, sys
b, p = (json.load(open(f)) for f in sys.argv[1:3])
tb = b["wakeups"]["total"] + b["wakeups"]["woken_while_running"]
tp = p["wakeups"]["total"] + p["wakeups"]["woken_while_running"]
lost = sum(d["provenance"]["drops"]["records_lost"] or 0 for d in (b, p))
assert tb > 15000 - lost and abs(tb - tp) <= 0.02 * max(tb, tp) + lost, ("wakeups", tb, tp, "records lost", lost)
# wakeups of a task not yet switched out, as the file orders its switches: BPF once took
# p->on_cpu, still set after the switch-out until the next task runs, and set aside ~1% of
# the remote wakeups here as running (96 vs the file's 9, 105 vs 1)
rb, rp = b["wakeups"]["woken_while_running"], p["wakeups"]["woken_while_running"]
print("woken while running: %s %d, the file %d, of %d" % (b["provenance"]["source"], rb, rp, tp))
assert abs(rb - rp) <= 0.001 * max(tb, tp) + 5 + lost, ("woken while running", rb, rp)
pb, pp = b["wakeups"]["placed"], p["wakeups"]["placed"]
mb, mp = b["wakeups"]["matrix"], p["wakeups"]["matrix"]
for i in range(len(mb)):
    for j in range(len(mb)):
        assert abs(mb[i][j] / pb - mp[i][j] / pp) <= 0.01, ("matrix", i, j, mb[i][j], mp[i][j])
for k, v in b["wakeups"]["by_class"].items():
    assert abs(v / pb - p["wakeups"]["by_class"][k] / pp) <= 0.01, (k, v, p["wakeups"]["by_class"][k])
lb, lp = b["latency"]["wake_to_run_ns"], p["latency"]["wake_to_run_ns"]
for q in ("p50", "p99"):
    assert abs(math.log2(max(lb[q], 1)) - math.log2(max(lp[q], 1))) <= 1.5, (q, lb[q], lp[q])
PY
	done
	check "pin $pin: the report names the BPF collector" grep -q "source: BPF in the kernel" "$TMP/bpf-$pin.txt"
	check "pin $pin: BPF copies no events out" grep -q "counted in the kernel (none copied out); none lost" "$TMP/bpf-$pin.txt"
done
# Timing: a random sample of 1 wakeup in 100000/--delay-rate on each CPU; 0 times every one.
"$LOCUS" run -q --collector bpf --sections latency,wakeups --json "$TMP/all.json" --delay-rate 0 \
	-- "$LOCUS" bench pingpong --pin 0,1 --loops 20000 >"$TMP/all.txt" 2>&1
check "--delay-rate 0: every placed wakeup timed, none left out" python3 -c '
import json, sys; d = json.load(open(sys.argv[1]))
t, p = d["latency"]["wake_to_run_ns"]["count"], d["wakeups"]["placed"]
t += d["latency"]["negative"]  # switched in before the wakeup: counted apart, not timed
assert d["latency"]["untimed"] == 0 and abs(t - p) <= 2, (t, p, d["latency"]["untimed"])' "$TMP/all.json"
expect_eq "--delay-rate 0: the report says nothing of a sample" 0 "$(grep -c "random sample" "$TMP/all.txt")"
# perf record of the same run times every wakeup: the oracle of the sample's median
perf record -q -a -e sched:sched_waking,sched:sched_switch -o "$TMP/few.data" -- \
	"$LOCUS" run -q --collector bpf --sections latency,wakeups --json "$TMP/few.json" \
	--delay-rate 1000 -- "$LOCUS" bench pingpong --pin 0,1 --loops 20000 >"$TMP/few.txt" 2>&1
# wake-to-run of each waking of a task not running, to its next switch-in (ns)
perf script -i "$TMP/few.data" --ns -F tid,time,event,trace 2>/dev/null | python3 -c '
import sys
run, woke = {}, {}
for l in sys.stdin:
    f = l.split()
    if len(f) < 4:
        continue
    tid, t, ev = f[0], int(f[1].rstrip(":").replace(".", "")), f[2]
    kv = dict(x.split("=", 1) for x in f[3:] if "=" in x)
    if ev == "sched:sched_switch:":
        run[kv.get("prev_pid")] = False
        n = kv.get("next_pid")
        run[n] = True
        if n in woke:
            print(n, t - woke.pop(n))
        continue
    run[tid] = True
    p = kv.get("pid")
    if ev == "sched:sched_waking:" and not run.get(p) and p not in woke:
        woke[p] = t' >"$TMP/few.delays"
check "--delay-rate 1000: a sample timed, the rest counted as untimed, wakeups all placed" \
	python3 - "$TMP/few.json" "$TMP/few.delays" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
busy = {t["tid"] for t in d["tasks"] if t["wakeups"] >= 5000}
ds = sorted(int(l.split()[1]) for l in open(sys.argv[2]) if int(l.split()[0]) in busy)
assert len(busy) == 2 and len(ds) > 10000, (busy, len(ds))
a = {"latency": {"wake_to_run_ns": {"p50": ds[len(ds) // 2]}}}  # perf's, same run
t, u, p = d["latency"]["wake_to_run_ns"]["count"], d["latency"]["untimed"], d["wakeups"]["placed"]
n = d["latency"]["negative"]
assert 0 < t < p / 3 and abs(t + u + n - d["wakeups"]["total"]) <= 2, (t, u, n, p)
s = d["provenance"]["sample"]
assert d["provenance"]["sample_every"] == 100 and s["every"] == 100 and s["sampled"], s
# 1 in 100 of the wakeups the same collector counted (all of them): within 99.9% of a
# binomial's spread (a random-gap countdown spreads less), and a gap started per CPU
k, all_ = s["timed"], s["wakeups"]
assert all_ == d["wakeups"]["total"], (s, d["wakeups"]["total"])
assert abs(k - all_ / 100) <= 3.3 * math.sqrt(all_ * 0.01 * 0.99) + 4, (k, all_)
x, y = d["latency"]["wake_to_run_ns"]["p50"], a["latency"]["wake_to_run_ns"]["p50"]
assert abs(math.floor(math.log2(x)) - math.floor(math.log2(y))) <= 1, (x, y)
PY
check "--delay-rate 1000: the report says it is a sample, and how to time all" \
	grep -q "a random sample, every wakeup the same chance: .* wakeups timed.*1 in 100 asked.*--delay-rate 0 times all" "$TMP/few.txt" -z

# The default sample gives every wakeup the same chance, the first second's as the last's:
# two ping-pongs one after the other in one run; each thread's timed share of its own
# wakeups (both counted by the collector, every one) is 1 in 20, the first pair's as the
# second's. (The pacer this replaced timed every wakeup of a CPU's first 100 ms.)
"$LOCUS" run -q --collector bpf --sections latency,wakeups,switches --json "$TMP/two.json" -- sh -c \
	"'$LOCUS' bench pingpong --pin 0,1 --loops 10000; '$LOCUS' bench pingpong --pin 0,1 --loops 10000" \
	>"$TMP/two.txt" 2>&1
check "default rate: 1 in 20 timed, the first pair's wakeups as the last's" \
	python3 - "$TMP/two.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["provenance"]["sample_every"] == 20, d["provenance"]
busy = sorted((t for t in d["tasks"] if t["wakeups"] >= 5000), key=lambda t: t["tid"])
assert len(busy) == 4, [(t["tid"], t["wakeups"]) for t in d["tasks"]]
for t in busy:
    n, k = t["wakeups"], t["delays_measured"]
    print("tid %d: %d of %d timed (%.2f%%)" % (t["tid"], k, n, 100.0 * k / n))
    # within 99.9% of a binomial's spread around 1 in 20 (negative delays: a few left out)
    assert abs(k - n / 20) <= 3.3 * math.sqrt(n * 0.05 * 0.95) + 0.005 * n + 4, (t["tid"], k, n)
PY
"$LOCUS" run --delay-rate -3 -- true >/dev/null 2>"$TMP/dr.err"
expect_eq "--delay-rate -3: usage error" 2 $?
check "--delay-rate -3: says why" grep -q "bad delay rate" "$TMP/dr.err"
# --tracefs is the perf stream's: the BPF collector refuses it (a usage error, as -m), the
# default streams instead
"$LOCUS" run --collector bpf --tracefs /sys/kernel/tracing --json "$TMP/tfs.json" -- true \
	>"$TMP/tfs.txt" 2>&1
expect_eq "--collector bpf --tracefs: usage error" 2 $?
check "--collector bpf --tracefs: refused with the reason" \
	grep -q "^locus run: --tracefs is for the perf stream: the BPF collector attaches by BTF" "$TMP/tfs.txt"
"$LOCUS" run -q --tracefs /sys/kernel/tracing --json "$TMP/tfs.json" -- true >/dev/null 2>&1
check "--tracefs without --collector: the perf stream, and the provenance says why" python3 -c '
import json, sys; p = json.load(open(sys.argv[1]))["provenance"]; print(p)
assert "--tracefs is for the perf stream" in json.dumps(p) and "perf" in json.dumps(p)' "$TMP/tfs.json"

# -m sizes the perf stream's rings: the BPF collector has none and refuses it (a usage
# error, one line saying why); without --collector, -m chooses the stream, and says so
"$LOCUS" run --collector bpf -m 8 -- true >"$TMP/m.out" 2>"$TMP/m.err"
expect_eq "--collector bpf -m 8: a usage error" 2 $?
check "--collector bpf -m 8: one line saying why" bash -c "[ \$(wc -l <'$TMP/m.err') = 1 ] &&
	grep -q 'the BPF collector counts in kernel maps and has none' '$TMP/m.err'"
check "--collector bpf -m 8: the workload did not run (no report)" test ! -s "$TMP/m.out"
TERM= "$LOCUS" top --collector bpf -m 8 -n 1 -- true >/dev/null 2>"$TMP/mt.err"
expect_eq "top --collector bpf -m 8: a usage error" 2 $?
"$LOCUS" run -m 8 --json "$TMP/m.json" -- true >/dev/null 2>"$TMP/m2.err"
expect_eq "-m 8 without --collector: exit 0" 0 $?
check "-m 8 without --collector: stderr says BPF was not used and why" \
	grep -q "BPF collector not used (-m is for the perf stream)" "$TMP/m2.err"
check "-m 8 without --collector: the perf stream, the provenance says why" python3 -c '
import json, sys; p = json.load(open(sys.argv[1]))["provenance"]; print(p["source"], p["why"])
assert p["source"] == "perf" and "-m is for the perf stream" in p["why"]' "$TMP/m.json"

check "pin 0,1: wakeups cross CPUs (BPF)" python3 -c '
import json, sys; m = json.load(open(sys.argv[1]))["wakeups"]["matrix"]
assert m[0][1] + m[1][0] > 0.999 * sum(map(sum, m)), m' "$TMP/bpf-0,1.json"
check "pin 0,0: wakeups stay on CPU 0 (BPF)" python3 -c '
import json, sys; c = json.load(open(sys.argv[1]))["wakeups"]["by_class"]
assert c["same_cpu"] > 0.999 * sum(c.values()), c' "$TMP/bpf-0,0.json"

# Per-CPU busy time: the session's wall time less the kernel's idle time, never below what
# perf's sched_switch of the same run saw a task run, nor below the traced tasks' runtime (it
# was /proc/stat's tick-sampled user + system: on a pinned ping-pong half perf's busy time, and
# below the traced time, 44.8% against 55.4%)
perf record -q -a -k mono -e sched:sched_switch -o "$TMP/busy.data" -- "$LOCUS" run -q \
	--collector bpf --json "$TMP/busy.json" -- "$LOCUS" bench pingpong --pin 0,1 --loops 20000 \
	>/dev/null 2>&1
check "per-CPU busy: at least perf's sched_switch busy time and the traced time, same run" \
	python3 tests/e2e/cpu_busy.py "$TMP/busy.json" "$TMP/busy.data"

# Read and reset: top drains the per-CPU halves and the pair table every 0.1 s; the totals
# over all those reads still add up (nothing lost, nothing counted twice).
# The oracle: perf stat counting sched_waking in the ping-pong's own threads, the same run (a
# busy machine gives fewer than a quiet one's 40,000: a reader that finds its byte waiting
# does not sleep, and nobody wakes it). Only the wakings of the ping-pong's threads (comm
# locus): a per-task count also takes what interrupts woke while they ran (a loaded machine's
# timers wake its other tasks there: 4% more in one run), which locus rightly leaves out.
"$LOCUS" top --text -q -d 0.1 --exit-on-end --json "$TMP/top.json" --delay-rate 0 -- \
	perf stat -x, -e sched:sched_waking --filter 'comm == "locus"' -o "$TMP/top.ps" -- \
	"$LOCUS" bench pingpong --pin 0,1 --loops 20000 >"$TMP/top.txt" 2>&1
expect_eq "top, 0.1 s refreshes: exit 0" 0 $?
check "top, 0.1 s refreshes: every waking perf stat counted, all placed and timed, pairs sum to them" \
	python3 - "$TMP/top.json" "$TMP/top.ps" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ps = [l.split(",") for l in open(sys.argv[2]) if "sched:sched_waking" in l]
assert ps and ps[0][0].isdigit(), ("no perf stat count", ps)
oracle = int(ps[0][0])
w, lat = d["wakeups"], d["latency"]
# every waking of the round trips: placed, or found its task still running
assert oracle > 10000 and abs(w["total"] + w["woken_while_running"] - oracle) <= 0.01 * oracle + 10, (w, "perf stat", oracle)
assert abs(w["placed"] - w["total"]) <= 2, (w["placed"], w["total"])
assert abs(lat["wake_to_run_ns"]["count"] + lat["negative"] - w["placed"]) <= 2, (lat, w["placed"])
pairs = sum(p["count"] for p in d["pairs"]) + d.get("pairs_dropped", 0)
assert abs(pairs - w["total"]) <= 2, (pairs, w["total"])
PY

# Delays at real resolution in the kernel: log-linear buckets (not power-of-two midpoints),
# exact min and max; five runs' p99 are not all one power of two.
"$LOCUS" run -q -r 5 --collector bpf --metric pingpong --json "$TMP/res.json" --delay-rate 0 \
	-- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
check "BPF: five runs' p99 are not all power-of-two bucket midpoints" python3 - "$TMP/res.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["provenance"]["delay_resolution"] == "log-linear", d["provenance"]
p = [r["measures"]["wake_to_run_p99_us"] for r in d["runs"] if r["ok"]]
def midpoint(us):  # 1.5 x 2^k ns, as the log2 buckets reported
    ns = us * 1000
    k = round(math.log2(ns / 1.5))
    return abs(ns - 1.5 * 2 ** k) <= 1
assert len(p) == 5 and not all(midpoint(v) for v in p), p
PY
# Two such batches of the same workload: the p99 row is not marked in at least 2 of 3 tries
# (with power-of-two buckets and a 0% stddev, one bucket step was "significant").
quiet=0
for try in 1 2 3; do
	for side in a b; do
		"$LOCUS" run -q -r 5 --collector bpf --metric pingpong --json "$TMP/p99$side.json" \
			-- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
	done
	"$LOCUS" diff --json "$TMP/p99d.json" "$TMP/p99a.json" "$TMP/p99b.json" >/dev/null 2>&1
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["measure"] == "wake_to_run_p99_us"]
sys.exit(1 if not rows or any(r["significant"] for r in rows) else 0)' "$TMP/p99d.json" && quiet=$((quiet + 1))
	[ $quiet -ge 2 ] && break
done
check "BPF: diff of two same-workload batches marks no p99 row in 2 of 3 tries ($quiet quiet)" \
	test $quiet -ge 2
"$LOCUS" run -q --collector bpf --sections latency --json "$TMP/mm.json" --delay-rate 0 \
	-- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
check "BPF: min and max are exact (not bucket midpoints), min <= p50 <= max" \
	python3 - "$TMP/mm.json" <<'PY'
import json, sys
l = json.load(open(sys.argv[1]))["latency"]["wake_to_run_ns"]
assert 0 < l["min"] <= l["p50"] <= l["max"], l
# a log2 midpoint max would be 1.5 x 2^k: exact values almost never are
assert l["max"] & (l["max"] - 1) and (l["max"] * 2 // 3) & (l["max"] * 2 // 3 - 1), l
PY

# Switches and migrations agree with the workload's own accounting and with perf stat.
# The oracle: perf stat counting context-switches of the ping-pong's threads, the same run (a
# busy machine preempts the ping-pong and adds involuntary switches to a quiet one's 40,000).
# locus traces perf stat too: its own switches (counted apart) more.
"$LOCUS" run -q --collector bpf --sections counters,switches --json "$TMP/sw.json" \
	-- perf stat -x, -e context-switches -o "$TMP/sw.ps" -- \
	"$LOCUS" bench pingpong --pin 0,1 --loops 20000 >"$TMP/sw.txt" 2>&1
check "BPF: context switches equal perf stat's of the same run" \
	python3 - "$TMP/sw.json" "$TMP/sw.ps" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cs = {c["name"]: c for c in d["counters"]}["context-switches"]
ps = [l.split(",") for l in open(sys.argv[2]) if "context-switches" in l]
assert ps and ps[0][0].isdigit(), ("no perf stat count", ps)
oracle = int(ps[0][0])
assert cs["source"] == "sched trace", cs
# perf stat's own switches (locus traces it; a loaded machine preempts it more) are locus's
# count of it, from the same run's task rows
own = sum(t["voluntary"] + t["involuntary"] for t in d["tasks"] if t["comm"] == "perf")
print("locus", cs["value"], "perf stat", oracle, "perf stat's own", own)
assert oracle > 10000 and 0 <= cs["value"] - own - oracle <= 0.005 * oracle + 20, (cs["value"], own, oracle)
PY

# No BTF (simulated): auto falls back to perf with one line; bpf alone says why.
"$LOCUS" run --btf /nonexistent/vmlinux --sections wakeups -- "$LOCUS" bench pingpong --loops 2000 >"$TMP/nb.txt" 2>"$TMP/nb.err"
expect_eq "no BTF: the workload still runs, exit 0" 0 $?
expect_eq "no BTF: one line on stderr" 1 "$(grep -c '^locus:' "$TMP/nb.err")"
check "no BTF: the line says why and what instead" \
	grep -q "^locus: BPF collector not used (no kernel BTF at /nonexistent/vmlinux .*): streaming through perf ring buffers$" "$TMP/nb.err"
check "no BTF: the report says perf and why" grep -q "source: perf ring buffers (BPF not used: no kernel BTF" "$TMP/nb.txt"
check "no BTF: wakeups still reported" grep -q "^ Wakeups of the traced tasks: " "$TMP/nb.txt"
"$LOCUS" run --collector bpf --btf /nonexistent/vmlinux -- true >"$TMP/nb2.txt" 2>"$TMP/nb2.err"
expect_eq "--collector bpf without BTF: the workload's status" 0 $?
check "--collector bpf without BTF: says the BPF collector cannot run" \
	grep -q "the BPF collector cannot run: no kernel BTF at /nonexistent/vmlinux" "$TMP/nb2.err"
"$LOCUS" run --collector nope -- true >/dev/null 2>"$TMP/bad.err"
expect_eq "--collector nope: usage error" 2 $?

# Unprivileged: BPF is not permitted; auto says so in one line and tries perf.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$LOCUS" run -- true >"$TMP/np.txt" 2>"$TMP/np.err"
	check "unprivileged: BPF not permitted, said once (with why perf cannot trace either)" \
		test "$(grep -c 'BPF: loading BPF programs is not permitted' "$TMP/np.err")" -eq 1
	check "unprivileged: the counters are still reported" grep -q "task-clock" "$TMP/np.txt"
else
	skip "no nobody user or setpriv"
fi

# Its own cost: the programs' runs and time in the statistics' windows as locus reports them,
# against bpftool reading the kernel's statistics of the same programs (by id) at the end of
# the workload, the same run: the kernel counts only while statistics are on, so both see the
# windows; locus at most the workload's exit more. Ping-pongs for 6-7 s: more than a cycle of
# windows (one 200 ms reader tick in 25, from a random phase). Where something else keeps the
# statistics on (kernel.bpf_stats_enabled=1: another tool, a benchmark) the kernel counts
# the whole run: then locus's windows are a part of bpftool's counts, at the same ns a run.
# Another process holding the statistics on for part of the run (a second BPF locus
# beside this one under make -j) makes the kernel count more than the windows: one retry.
cost_py() {
	python3 - "$TMP/cost.json" "$TMP/cost.bt" "$TMP/cost.txt" "$sysctl_on" <<'PY'
import json, re, sys
c = json.load(open(sys.argv[1]))["provenance"]["own_cost"]
ids = set(c["program_ids"])
bt = [p for p in json.load(open(sys.argv[2])) if p["id"] in ids]
assert len(bt) == len(ids) >= 2, ("programs", ids, [p["id"] for p in bt])
runs, ns = sum(p.get("run_cnt", 0) for p in bt), sum(p.get("run_time_ns", 0) for p in bt)
print("locus", c["program_runs"], "runs", c["run_ns"], "ns in", c["sampled_fraction"],
      "of the run; bpftool", runs, "runs", ns, "ns")
if sys.argv[4] == "00":  # the statistics were on in locus's windows only
    assert runs > 1000 and runs * 0.9 <= c["program_runs"] <= runs * 1.05 + 500, (runs, c)
else:
    print("kernel.bpf_stats_enabled was on: bpftool counted the whole run")
    assert 1000 < c["program_runs"] <= runs * 1.05 + 500, (runs, c)
    # and the windows are a fair sample of it: scaled up, about the whole run's runs
    est = c["program_runs"] / c["sampled_fraction"]
    assert 0.5 * runs <= est <= 1.6 * runs + 500, ("windows scaled up", est, "whole run", runs)
assert abs(c["ns_per_run"] - ns / runs) <= 0.2 * ns / runs, (c["ns_per_run"], ns / runs)
assert 0 < c["cpu_share"] < 1 and 0.01 < c["sampled_fraction"] < 0.3, c
t = open(sys.argv[3]).read()
m = re.search(r"own cost: ([0-9,]+) ns a program run, ([0-9.]+)% of .*\n.*: ([0-9,]+) runs in windows", t)
assert m and int(m.group(3).replace(",", "")) == c["program_runs"], t
PY
}
for try in 1 2; do
	sysctl_on=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 1)
	"$LOCUS" run -q --collector bpf --sections wakeups --json "$TMP/cost.json" -- sh -c \
		"end=\$((\$(date +%s) + 7)); while [ \$(date +%s) -lt \$end ]; do
			'$LOCUS' bench pingpong --loops 20000 >/dev/null; done
		bpftool prog show -j >'$TMP/cost.bt'" \
		>"$TMP/cost.txt" 2>&1
	sysctl_on=$sysctl_on$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 1)
	cost_py >/dev/null 2>&1 && break
done
check "own cost: in the report, and as bpftool read it during the same run (try $try)" cost_py
# A short run: measured, or said to be too short with its span (never 'no program ran' over the
# events the same programs counted)
"$LOCUS" run --collector bpf --sections wakeups -- "$LOCUS" bench pingpong --loops 300 \
	>"$TMP/short.txt" 2>&1
check "own cost of a short run: measured, or 'too short a run' with the span attached" \
	bash -c "tr '\n' ' ' <'$TMP/short.txt' | tr -s ' ' | grep -Eq 'own cost: ([0-9,]+ ns a program run|not measured \(too short a run: .* in the [0-9.]+ s attached)'"

# Maps are bounded: their memory is the same early and late in a run; drops are counted.
"$LOCUS" run -q --collector bpf -- "$LOCUS" bench pingpong --loops 5000000 >/dev/null 2>&1 &
lp=$!
mem() { bpftool map show -j 2>/dev/null | python3 -c '
import json, sys
names = {"tasks", "pcpu", "topo", "wake_matrix", "prev_matrix", "mig_matrix", "pairs", "done", "seen"}
print(sum(m.get("bytes_memlock", 0) for m in json.load(sys.stdin) if m.get("name") in names))'; }
sleep 1.5
m1=$(mem)
sleep 2.5
m2=$(mem)
kill $lp 2>/dev/null
wait $lp 2>/dev/null
check "BPF maps: memory early ($m1) equals memory later ($m2)" test "$m1" = "$m2" -a "${m1:-0}" -gt 0
finish
