#!/usr/bin/env bash
# blame.sh - who delayed the wakee (locus record --blame, locus report --sections blame),
# against tests/e2e/blame_oracle.py reading `perf script` of the SAME file: a CPU-bound task
# pinned to the wakee's CPU named as the main cause; tbench over loopback with its softirq
# time; hackbench's waits queued on a CPU it was then moved from; a three-stage pipeline's
# chains. CPU-bound loops run beside every recording (no idle CPU is assumed).
. "$(dirname "$0")/../lib.sh"

need_sched_two_cpus
if ! command -v perf >/dev/null; then
	skip "blame: needs perf as the oracle"
	finish
fi
ORACLE="$(dirname "$0")/blame_oracle.py"
PY=$(python3 -c 'import sys; print(sys.executable)') # the interpreter, not a shim script

# loops beside each recording, unpinned (the oracles run after, without them)
busy=()
loops_on() {
	for _ in 1 2; do
		sh -c 'while :; do :; done' &
		busy+=($!)
	done
}
loops_off() {
	[ ${#busy[@]} -gt 0 ] && kill "${busy[@]}" 2>/dev/null
	busy=()
}
cleanup() {
	loops_off
	[ -n "${hog:-}" ] && kill "$hog" 2>/dev/null
	[ -n "${srv:-}" ] && kill "$srv" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# oracle NAME FILE [ARGS...]: locus's JSON (report ARGS) and the oracle's, of one file
oracle() {
	local name=$1 file=$2 pid
	shift 2
	"$LOCUS" report -q -i "$file" --sections all,blame --json "$TMP/$name.json" "$@" \
		>"$TMP/$name.txt" 2>"$TMP/$name.err" || return 1
	perf script --ns -F pid,tid,cpu,time,event,trace -i "$file" >"$TMP/$name.script" \
		2>/dev/null || return 1
	if [ "${1:-}" = -a ]; then
		python3 "$ORACLE" <"$TMP/$name.script" >"$TMP/$name.oracle"
	else
		pid=$(python3 -c 'import json,sys; i = json.load(open(sys.argv[1]))["input"]
print(",".join(str(p) for p in [i["workload_pid"]] + i["added_pids"]))' "$TMP/$name.json") ||
			return 1
		python3 "$ORACLE" --pid "$pid" <"$TMP/$name.script" >"$TMP/$name.oracle"
	fi
}

# compare NAME CHECK: python CHECK with d (locus's blame), o (the oracle's) and close()
compare() {
	python3 - "$TMP/$1.json" "$TMP/$1.oracle" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["blame"]
o = json.load(open(sys.argv[2]))
def close(a, b, pct=1.0):
    return abs(a - b) <= abs(b) * pct / 100
a = d["all"]
got = {k: a[k + "_ns"] for k in o["causes"]}
print("locus ", a["wakeups"], got)
print("oracle", o["wakeups"], o["causes"])
exec(sys.argv[3])
PY
}

# 1. A CPU-bound task pinned to the wakee's CPU, at nice -10 (it outweighs the loops
# beside it), and a sleeper pinned there: the hog is the main cause, its share of the
# wait as perf script of the same file counts it.
loops_on
sh -c 'echo $$ >"$0"; exec taskset -c 1 nice -n -10 sh -c "while :; do :; done"' "$TMP/hog.pid" &
sleep 0.3
hog=$(cat "$TMP/hog.pid")
"$LOCUS" record --blame -q -o "$TMP/hog.data" -- taskset -c 1 "$PY" -c '
import time
for i in range(1500):
    time.sleep(0.0005)
' >/dev/null 2>"$TMP/hog.rec.err"
expect_eq "hog: record --blame exits 0" 0 $?
kill "$hog"
loops_off
check "hog: locus and the oracle read the same file" oracle hog "$TMP/hog.data"
check "hog: the main cause perf script's, the hog's share within 1% of perf script's" \
	compare hog "
hog = $hog
t = d['tasks'][0]
otop = max(o['tasks'], key=lambda k: o['tasks'][k])
share = {k['tid']: k['inflicted_ns'] / a['wait_ns'] for k in d['tasks']}.get(hog, 0)
oshare = o['tasks'].get(str(hog), 0) / o['wait_ns']
print('top', t['tid'], t['comm'], 'oracle', otop, '; the hog', hog, share, 'oracle', oshare)
# the pinned hog at nice -10 outweighs the loops beside it; on a machine busy with other
# work another task may delay the sleeper more: the main cause is perf script's either way
assert a['wakeups'] >= 1000 and a['wakeups'] == o['wakeups']
assert str(t['tid']) == otop, ('the main cause', t['tid'], otop)
assert abs(share - oshare) <= 0.01 * oshare, (share, oshare)
assert all(close(got[k], o['causes'][k]) for k in got)
for k in d['tasks'][:10]:  # the table's rows: time, wakeups delayed, p99 share
    tid = str(k['tid'])
    assert close(k['inflicted_ns'], o['tasks'][tid]), (k, o['tasks'][tid])
    assert k['wakeups'] == o['task_wakeups'][tid], (k, o['task_wakeups'][tid])
    assert close(k['p99_ns'], o['p99_tasks'].get(tid, 0)), (k, o['p99_tasks'].get(tid))
assert d['p99']['wait_ns'] == o['p99_ns']
"
check "hog: the text names it first among the tasks to blame" \
	grep -A2 "Tasks to blame" "$TMP/hog.txt" | grep -q " $hog "

# 2. tbench over loopback (softirq-heavy): the interrupt time in the waits, by handler,
# as the irq tracepoints of the same file give it (the client's tasks and the server's,
# added by record -p).
if command -v tbench >/dev/null && command -v tbench_srv >/dev/null; then
	sh -c 'echo $$ >"$0"; exec tbench_srv >/dev/null 2>&1' "$TMP/srv.pid" &
	sleep 0.5
	srv=$(cat "$TMP/srv.pid")
	loops_on
	"$LOCUS" record --blame -q -p "$srv" -o "$TMP/tb.data" -- tbench -t 1 1 127.0.0.1 \
		>/dev/null 2>&1
	loops_off
	kill "$srv"
	srv=
	check "tbench: locus and the oracle read the same file" oracle tb "$TMP/tb.data"
	check "tbench: hardirq and softirq time within 1% of the irq tracepoints'" compare tb "
irq, oirq = got['hardirq'] + got['softirq'], o['causes']['hardirq'] + o['causes']['softirq']
print('irq', irq, 'oracle', oirq, 'of', a['wait_ns'])
assert o['irqs'].get('NET_RX', 0) > 0, 'no NET_RX in the waits'
assert close(irq, oirq)
names = {q['name']: q['ns'] for q in d['interrupts']}
assert all(close(names.get(k, 0), v) for k, v in o['irqs'].items()), (names, o['irqs'])
"
	check "tbench: the text lists NET_RX among the interrupts" grep -q "softirq  NET_RX" "$TMP/tb.txt"
else
	skip "tbench: needs tbench and tbench_srv (Debian's dbench)"
fi

# 3. hackbench (processes, two groups, two CPUs): waits queued on a CPU the task was then
# moved away from, as a count from perf script of the same file.
if command -v hackbench >/dev/null; then
	# whether the balancer moves a queued task is the run's, not locus's: up to three runs
	# until the oracle finds a wait elsewhere (a loaded CI run once had none)
	for try in 1 2 3; do
		loops_on
		"$LOCUS" record --blame -q -o "$TMP/hb.data" -- hackbench -g 2 -l 200 >/dev/null 2>&1
		loops_off
		oracle hb "$TMP/hb.data" || break
		python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["causes"]["elsewhere"] == 0)' "$TMP/hb.oracle" && break
		echo "hackbench run $try: no wait elsewhere in perf script's count; again"
	done
	check "hackbench: locus and the oracle read the same file" oracle hb "$TMP/hb.data"
	if python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["causes"]["elsewhere"] == 0)' "$TMP/hb.oracle"; then
		check "hackbench: waited elsewhere first within 1% of perf script's" compare hb "
print('elsewhere', got['elsewhere'], o['causes']['elsewhere'])
assert o['causes']['elsewhere'] > 0, 'no wait elsewhere in this run'
assert close(got['elsewhere'], o['causes']['elsewhere'])
assert a['wakeups'] == o['wakeups']
"
	else
		skip "hackbench: no task waited elsewhere in three runs (the balancer moved none): nothing to compare"
	fi
else
	skip "hackbench: needs rt-tests"
fi

# 4. A three-stage pipeline: A (never blocks) wakes B, which wakes C before it blocks:
# C's wakeups are chains of three, their compound delay B's wait plus C's.
cat >"$TMP/a.py" <<'EOF'
import os, time
for i in range(400):
    t = time.perf_counter()
    while time.perf_counter() - t < 0.001:
        pass
    os.write(1, b"x")
EOF
cat >"$TMP/b.py" <<'EOF'
import os, time
while True:
    b = os.read(0, 1)
    if not b:
        break
    t = time.perf_counter()
    while time.perf_counter() - t < 0.0002:
        pass
    os.write(1, b)
EOF
cat >"$TMP/c.py" <<'EOF'
import os
while os.read(0, 1):
    pass
EOF
loops_on
"$LOCUS" record --blame -q -o "$TMP/pl.data" -- \
	sh -c "'$PY' '$TMP/a.py' | '$PY' '$TMP/b.py' | '$PY' '$TMP/c.py'" >/dev/null 2>&1
expect_eq "pipeline: record exits 0" 0 $?
loops_off
check "pipeline: locus and the oracle read the same file" oracle pl "$TMP/pl.data"
check "pipeline: chains of three (A, B, C), their count and compound delays as perf script's" \
	compare pl "
c = d['chains']
print(c['by_length'], o['chain_len'])
print([w['compound_ns'] for w in c['worst']], o['worst_compound_ns'])
assert c['by_length'] == o['chain_len']
# C's wakeups (up to 400) come through A and B: chains of three, or longer where on a loaded
# machine A had been woken itself (how many is the run's; the counts equal the oracle's)
assert sum(c['by_length'][3:]) >= 100, 'C\'s wakeups come through A and B'
assert [w['compound_ns'] for w in c['worst']] == o['worst_compound_ns']
for w in c['worst']:  # (the worst may be the shell's start-up under load)
    assert len({l['tid'] for l in w['links']}) == w['length'] >= 3
    assert w['compound_ns'] == sum(l['delay_ns'] for l in w['links'])
"
check "pipeline: the text shows a chain of three or more with its compound delay" \
	bash -c "awk '/^     [^ ]/ { sub(/^ +/, \" \"); printf \"%s\", \$0; next } { printf \"\\n%s\", \$0 }' '$TMP/pl.txt' |
		grep -Eq '^   ([3-9]|[1-9][0-9]+) tasks, compound delay [0-9.]+ [mu]?s: .* \\([0-9]+\\) -> .* \\+'"
"$LOCUS" report -q -i "$TMP/pl.data" --sections all,blame --trace "$TMP/pl.trace.json" \
	>/dev/null 2>&1
check "pipeline: each timed wakeup's flow in the trace carries its split, summing to its delay" \
	python3 - "$TMP/pl.trace.json" "$TMP/pl.json" <<'PY'
import json, sys
t, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["blame"]
flows = [e["args"] for e in t["traceEvents"] if e.get("ph") == "s" and "blame" in e["args"]]
split = lambda a: sum(v for k, v in a["blame"].items() if k.endswith("_ns") and k != "most_ns")
print(len(flows), d["all"]["wakeups"])
assert len(flows) == d["all"]["wakeups"]
assert all(split(a) == a["delay_ns"] for a in flows)
assert sum(split(a) for a in flows) == d["all"]["wait_ns"]
for c in ("running", "ahead", "softirq", "elsewhere"):
    assert sum(a["blame"][c + "_ns"] for a in flows) == d["all"][c + "_ns"], c
PY

# perf's own files: perf record -e 'sched:*,irq:*' (every cause) and perf sched record
# (no irq tracepoints: interrupts "not recorded", null in JSON), every task (-a).
loops_on
perf record -q -e 'sched:*,irq:*' -a -o "$TMP/pr.data" -- taskset -c 1 "$PY" -c '
import time
for i in range(500):
    time.sleep(0.0005)
' >/dev/null 2>&1
perf sched record -q -o "$TMP/ps.data" -- taskset -c 1 "$PY" -c '
import time
for i in range(500):
    time.sleep(0.0005)
' >/dev/null 2>&1
loops_off
check "perf record -e 'sched:*,irq:*': locus and the oracle read the same file" \
	oracle pr "$TMP/pr.data" -a
check "perf record -e 'sched:*,irq:*': every cause as perf script's" compare pr "
assert a['wakeups'] == o['wakeups'] and d['interrupts_recorded']
assert all(close(got[k], o['causes'][k]) for k in got)
"
check "perf sched record: locus and the oracle read the same file" oracle ps "$TMP/ps.data" -a
check "perf sched record: interrupts not recorded (null), the rest as perf script's" compare ps "
assert not d['interrupts_recorded'] and a['hardirq_ns'] is None and a['softirq_ns'] is None
assert a['wakeups'] == o['wakeups']
assert all(close(got[k], o['causes'][k]) for k in got if k not in ('hardirq', 'softirq'))
"
check "perf sched record: the text says interrupts were not recorded" \
	grep -q "interrupts: not recorded" "$TMP/ps.txt"

# 5. Live, the perf stream (locus run --sections blame): a hog again, named the main
# cause; the time it inflicted no more than the CPU time the kernel gave it over the
# same run (/proc/PID/stat utime+stime).
# (a perl loop: its name is its own, not the loops' beside)
loops_on
sh -c 'echo $$ >"$0"; exec taskset -c 1 nice -n -10 perl -e "1 while 1"' "$TMP/hog.pid" &
sleep 0.3
hog=$(cat "$TMP/hog.pid")
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
before=$(cpu_ticks "$hog")
"$LOCUS" run -q --collector perf --sections wakeups,blame --json "$TMP/live.json" -- \
	taskset -c 1 "$PY" -c '
import time
for i in range(1500):
    time.sleep(0.0005)
' >"$TMP/live.txt" 2>"$TMP/live.err"
expect_eq "live: run --sections blame exits 0" 0 $?
after=$(cpu_ticks "$hog")
kill "$hog"
hog=
loops_off
check "live: the hog among the main causes, within the CPU time it had" python3 - "$TMP/live.json" \
	"$before" "$after" "$(getconf CLK_TCK)" "$(cat "$TMP/hog.pid")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["blame"]
before, after, hz, hog = (int(a) for a in sys.argv[2:6])
rank = [t["tid"] for t in d["tasks"]]
t = d["tasks"][rank.index(hog)] if hog in rank else None
print("first", d["tasks"][0]["tid"], d["tasks"][0]["comm"], "; the hog ranks",
      rank.index(hog) + 1 if t else None, t and t["inflicted_ns"], "cpu", (after - before) * 1e9 / hz)
assert d["all"]["wakeups"] >= 1000
# no oracle recorded this run: the hog (nice -10, pinned beside the sleeper) is among the
# first three (another job's task may outweigh it on a busy machine), and it cannot have
# delayed others longer than it ran
assert t and rank.index(hog) < 3, rank[:5]
assert t["inflicted_ns"] <= (after - before + 1) * 1e9 / hz
PY
# locus diff of that run (the hog beside) against one without it: the account of the p99
# wait's move names the hog among its three largest movers (the jobs beside move too),
# up by as much as the two files' p99 blame say.
loops_on
"$LOCUS" run -q --collector perf --sections wakeups,blame --json "$TMP/quiet.json" -- \
	taskset -c 1 "$PY" -c '
import time
for i in range(1500):
    time.sleep(0.0005)
' >/dev/null 2>&1
loops_off
"$LOCUS" diff "$TMP/quiet.json" "$TMP/live.json" >"$TMP/diff.txt" 2>&1
check "diff: the hog's move first in the account of the p99 wait, as the files give it" \
	python3 - "$TMP/quiet.json" "$TMP/live.json" "$TMP/diff.txt" <<'PY'
import json, re, sys
a, b = (json.load(open(p))["blame"] for p in sys.argv[1:3])
def per(d, comm):
    return sum(t["p99_ns"] for t in d["tasks"] if t["comm"] == comm) / d["p99"]["wakeups"]
text = open(sys.argv[3]).read()
line = re.search(r"p99 wake-to-run .*", text)
print(line and line.group(0))
m = re.search(r"[:,] ([-+][0-9.]+) (ms|us|ns) perl ran instead", line.group(0) if line else "")
assert m and m.group(1).startswith("+"), text[-600:]
got = float(m.group(1)) * {"ms": 1e6, "us": 1e3, "ns": 1}[m.group(2)]
want = per(b, "perl") - per(a, "perl")
assert abs(got - want) <= 0.01 * abs(want) + 100, (got, want)
PY

# --sections blame alone: the section's JSON without the others.
"$LOCUS" report -q -i "$TMP/pl.data" --sections blame --json - 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["blame"]["all"]["wakeups"] > 0'
expect_eq "--sections blame alone: the blame JSON" 0 $?

# The BPF collector splits the waits in the kernel (tests/e2e/bpf_blame.sh checks it
# against perf record of the same run): asked for by name, no usage error any more.
"$LOCUS" run --collector bpf --sections blame --delay-rate 0 -- sleep 0.1 >"$TMP/bpfblame.txt" \
	2>"$TMP/bpfblame.err"
rc=$?
if "$LOCUS" doctor 2>/dev/null | grep -q '^ok  *BPF collector'; then
	expect_eq "run --collector bpf --sections blame: exit 0" 0 $rc
	check "run --collector bpf --sections blame: split in the kernel, and says so" \
		grep -q "split by cause in the kernel by the" <(tr -s ' \n' '  ' <"$TMP/bpfblame.txt")
else
	check "run --collector bpf --sections blame: no usage error where BPF cannot load" \
		test $rc -ne 2
fi
finish
