#!/usr/bin/env bash
# names.sh - every task named as `perf script` names it in the same file, at that moment:
# a task there before the recording that wakes the workload (a shell loop writing to a
# fifo; tbench_srv), in the pairs of the default scope and of -a; an exec'd child under its
# new name in the text, the JSON and the trace (its period split at the exec, as perf's
# COMM record says); the workload's root task in the SVG legend under its own name.
. "$(dirname "$0")/../lib.sh"

if ! have_root || ! command -v perf >/dev/null; then
	skip "names: needs root and perf"
	finish
fi

# pairs_as_perf JSON SCRIPT [TID NAME]: each pair's names are perf script's at one of that
# pair's sched_waking samples: the waker as the sample's comm or as the tracepoints last
# named it (perf script shows both: a kworker is "kworker/1:1H-kb" from /proc at the start,
# "kworker/1:1H" in prev_comm), the wakee as the waking's comm field. With TID, that task
# wakes the workload in a pair and perf names it NAME.
pairs_as_perf() {
	python3 - "$@" <<'PY'
import collections, json, re, sys
d = json.load(open(sys.argv[1]))
seen = collections.defaultdict(set)
tp = {}  # tid -> its name in the latest tracepoint field that carried it
line = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[\d+\]\s+[\d.]+:\s+(\S+):\s*(.*)$")
fields = re.compile(r"(?:^|\s)(?:prev_|next_|child_)?comm=(.*?) (?:prev_|next_|child_)?pid=(\d+)")
for l in open(sys.argv[2], errors="replace"):
    m = line.match(l.rstrip("\n"))
    if not m:
        continue
    comm, tid, ev, rest = m.group(1), int(m.group(3)), m.group(4), m.group(5)
    if ev == "sched:sched_waking":
        w = re.match(r"comm=(.*) pid=(\d+) prio=", rest)
        for name in {comm, tp.get(tid, comm)}:
            seen[(tid, int(w.group(2)))].add((name, w.group(1)))
    for name, t in fields.findall(rest):
        tp[int(t)] = name
pairs = d["pairs"]
assert pairs, "no pairs"
bad = [(p["waker_comm"], p["waker_tid"], p["wakee_comm"], p["wakee_tid"], sorted(seen[(p["waker_tid"], p["wakee_tid"])])[:3])
       for p in pairs if p["waker_tid"] > 0 and
       (p["waker_comm"], p["wakee_comm"]) not in seen[(p["waker_tid"], p["wakee_tid"])]]
print("%d pairs, %d named otherwise than perf script: %r" % (len(pairs), len(bad), bad[:4]))
assert not bad
if len(sys.argv) > 3:
    tid, name = int(sys.argv[3]), sys.argv[4]
    mine = [p for p in pairs if p["waker_tid"] == tid]
    print("task %d: perf script names it %r; locus: %r" % (tid, name, [p["waker_comm"] for p in mine]))
    assert mine and all(p["waker_comm"] == name for p in mine)
PY
}

# 1. a shell loop there before the recording writes to a fifo the workload reads
mkfifo "$TMP/fifo"
(while :; do echo x; sleep 0.01; done) >"$TMP/fifo" 2>/dev/null &
writer=$!
sleep 0.2
"$LOCUS" record -q -o "$TMP/fifo.data" -- sh -c "head -c 60 '$TMP/fifo' >/dev/null"
expect_eq "fifo: record exits 0" 0 $?
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
perf script -i "$TMP/fifo.data" -F comm,pid,tid,cpu,time,event,trace >"$TMP/fifo.script" 2>/dev/null
wname=$(awk -v t="$writer" '$2 ~ "/"t"$" && /sched:/ { print $1; exit }' "$TMP/fifo.script")
check "fifo: perf script names the writer ($writer: '$wname')" test -n "$wname"
"$LOCUS" report -i "$TMP/fifo.data" --json "$TMP/fifo.json" -o "$TMP/fifo.txt" 2>/dev/null
check "fifo, the workload's scope: the writer is named in the pairs as perf script names it" \
	pairs_as_perf "$TMP/fifo.json" "$TMP/fifo.script" "$writer" "$wname"
check "fifo: the text pairs say $wname/$writer" grep -Eq "^ +[0-9,]+ +$wname/$writer " "$TMP/fifo.txt"
"$LOCUS" report -a -i "$TMP/fifo.data" --json "$TMP/fifo.a.json" -o "$TMP/fifo.a.txt" 2>/dev/null
check "fifo, -a: the writer is named in the pairs as perf script names it" \
	pairs_as_perf "$TMP/fifo.a.json" "$TMP/fifo.script" "$writer" "$wname"

# 2. tbench_srv started before the recording serves the workload (its children are forked
# during it); every pair as perf script names it
if command -v tbench_srv >/dev/null && command -v tbench >/dev/null; then
	tbench_srv >/dev/null 2>&1 &
	srv=$!
	sleep 0.5
	"$LOCUS" record -q -o "$TMP/tb.data" -- tbench -t 1 1 127.0.0.1 >/dev/null 2>&1
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	perf script -i "$TMP/tb.data" -F comm,pid,tid,cpu,time,event,trace >"$TMP/tb.script" 2>/dev/null
	"$LOCUS" report -i "$TMP/tb.data" --json "$TMP/tb.json" -o "$TMP/tb.txt" 2>/dev/null
	check "tbench: every pair of the workload's scope named as perf script names it" \
		pairs_as_perf "$TMP/tb.json" "$TMP/tb.script"
	check "tbench: tbench_srv wakes the workload, named" grep -Eq "^ +[0-9,]+ +tbench_srv/[0-9]+ " "$TMP/tb.txt"
	"$LOCUS" report -a -i "$TMP/tb.data" --json "$TMP/tb.a.json" -o /dev/null 2>/dev/null
	check "tbench, -a: every pair named as perf script names it" \
		pairs_as_perf "$TMP/tb.a.json" "$TMP/tb.script"
else
	skip "tbench: dbench (tbench, tbench_srv) not installed"
fi

# 3. an exec'd child: sh forks, the child execs sleep
"$LOCUS" record -q -o "$TMP/ex.data" --svg-timeline "$TMP/ex.svg" -- sh -c 'sleep 0.2; true'
expect_eq "exec: record exits 0" 0 $?
perf script --show-task-events -i "$TMP/ex.data" -F comm,pid,tid,cpu,time,event,trace --ns \
	>"$TMP/ex.script" 2>/dev/null
"$LOCUS" report -i "$TMP/ex.data" --json "$TMP/ex.json" --trace "$TMP/ex.trace" -o "$TMP/ex.txt" 2>/dev/null
check "exec: JSON, text and trace name the child as perf script does after its exec" \
	python3 - "$TMP/ex.json" "$TMP/ex.script" "$TMP/ex.txt" "$TMP/ex.trace" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
script = open(sys.argv[2], errors="replace").read()
# the workload's child: another job's task may exec sleep during the recording (the file
# is the machine's: a helper's tmux 'sleep 60' came first once)
root = d["input"]["workload_pid"]
kids = {int(x) for x in re.findall(r"sched_process_fork: comm=\S+ pid=%d child_comm=\S+ child_pid=(\d+)" % root, script)}
m = [x for x in re.finditer(r"^\s*(\S+)\s+(\d+)/(\d+)\s.*PERF_RECORD_COMM exec: sleep:(\d+)/(\d+)$", script, re.M)
     if int(x.group(5)) in kids]
assert m, ("perf script shows no exec of sleep by the workload's children", root, kids)
child = int(m[0].group(5))
last = [l.split()[0] for l in script.splitlines() if re.match(r"^\s*\S+\s+\d+/%d\s" % child, l)][-1]
print("child", child, "perf script's last name", last)
assert last == "sleep"
rows = [t for t in d["tasks"] if t["tid"] == child]
assert rows and rows[0]["comm"] == "sleep", rows
assert re.search(r"^\s+sleep/%d\s" % child, open(sys.argv[3]).read(), re.M), "text task row"
ev = json.load(open(sys.argv[4]))["traceEvents"]
sl = [e for e in ev if e["ph"] == "X" and e["args"]["tid"] == child]
execs = [e for e in sl if e["args"].get("start") == "exec"]
print("its periods:", [(e["name"], e["args"].get("start", "switch")) for e in sl])
assert execs and execs[0]["name"] == "sleep"
assert all(e["name"] == "sleep" for e in sl if float(e["ts"]) >= float(execs[0]["ts"]))
PY
"$LOCUS" report -q -a -i "$TMP/ex.data" --trace "$TMP/ex.a.trace" -o /dev/null 2>/dev/null
check "exec: every period named as perf script (renamed at each exec, first events too)" \
	python3 tests/tools/trace_check.py "$TMP/ex.a.trace" --perf-script "$TMP/ex.script"

# 4. the workload's root renamed twice (locus forks it, it execs sh, sh execs sleep): the
# SVG legend names it as perf script does at its last event, never "locus"
"$LOCUS" record -q -o "$TMP/root.data" --svg-timeline "$TMP/root.svg" -- sh -c 'exec sleep 0.2'
perf script -i "$TMP/root.data" -F comm,pid,tid,cpu,time,event,trace >"$TMP/root.script" 2>/dev/null
"$LOCUS" report -i "$TMP/root.data" --json "$TMP/root.json" -o /dev/null 2>/dev/null
check "the SVG legend names the workload's root as perf script does (its own name)" \
	python3 - "$TMP/root.json" "$TMP/root.script" "$TMP/root.svg" <<'PY'
import json, re, sys
root = json.load(open(sys.argv[1]))["input"]["workload_pid"]
names = [l.split()[0] for l in open(sys.argv[2], errors="replace") if re.match(r"^\s*\S+\s+\d+/%d\s" % root, l)]
texts = [re.sub("<[^>]*>", "", t) for t in re.findall(r"<text[^>]*>.*?</text>", open(sys.argv[3]).read())]
legend = texts[texts.index("running:") + 1:texts.index("other tasks")]
mine = [t for t in legend if t.split()[-1] == str(root)]
print("root", root, "perf script's last name", names[-1:], "legend", legend)
assert names and mine == ["%s %d" % (names[-1], root)] and names[-1] != "locus"
PY
# bpf_recorded NAME CMD: locus run --collector bpf of CMD (every wakeup timed) inside a
# locus record -a of the same run: NAME.json the collector's, NAME.script perf script's
bpf_recorded() {
	"$LOCUS" record -q -a -o "$TMP/$1.data" -- "$LOCUS" run -q --collector bpf --delay-rate 0 \
		--json "$TMP/$1.json" -- sh -c "$2" >/dev/null 2>&1 && [ -s "$TMP/$1.json" ] || return 1
	perf script --show-task-events -i "$TMP/$1.data" -F comm,pid,tid,cpu,time,event,trace \
		>"$TMP/$1.script" 2>/dev/null
}
# renamed_waker JSON SCRIPT: the writer that exec'd awk woke its busiest wakee first as sh
# and last as awk (perf script), and the collector names that pair's waker awk
renamed_waker() {
	python3 - "$@" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
script = open(sys.argv[2], errors="replace").read().splitlines()
m = [re.search(r"PERF_RECORD_COMM exec: awk:(\d+)/(\d+)$", l) for l in script]
writer = [int(x.group(2)) for x in m if x][0]
line = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[\d+\]\s+[\d.]+:\s+sched:sched_waking:\s+comm=(.*) pid=(\d+) prio=")
names = {}
for l in script:
    w = line.match(l)
    if w and int(w.group(3)) == writer:
        names.setdefault(int(w.group(5)), []).append(w.group(1))
pairs = {(p["waker_tid"], p["wakee_tid"]): p["waker_comm"] for p in d["pairs"]}
print("writer", writer, "its wakings' names per wakee (perf script):", {k: (v[0], v[-1], len(v)) for k, v in names.items()})
print("bpf:", {k: v for k, v in pairs.items() if k[0] == writer})
reader = max(names, key=lambda k: len(names[k]))  # cat: 20 wakings, others a few
if names[reader][0] != "sh" or names[reader][-1] != "awk":
    # the reader was awake whenever sh or awk wrote (a busy machine): no rename to test
    print("not decidable: the writer did not wake the reader both as sh and as awk")
    sys.exit(3)
assert pairs.get((writer, reader)) == "awk", (reader, pairs.get((writer, reader)))
PY
}
# 5. the BPF collector: a pair that lives across an exec (a reader woken 40 times as sh,
# then 40 times as cat: more than a batch each) is named as at its last wakeup, against a
# recording of the same run (locus record -a around locus run --collector bpf)
rd='for i in $(seq 40); do read x; done; exec cat >/dev/null'
wr='for i in $(seq 80); do echo x; sleep 0.005; done'
if bpf_recorded bx "($wr) | sh -c '$rd'"; then
	check_or_skip "bpf: a pair across an exec named as at its last wakeup (perf script, same run)" \
		python3 - "$TMP/bx.json" "$TMP/bx.script" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["provenance"]["source"] == "bpf", d["provenance"]["source"]
script = open(sys.argv[2], errors="replace").read().splitlines()
m = [re.search(r"PERF_RECORD_COMM exec: cat:(\d+)/(\d+)$", l) for l in script]
reader = [int(x.group(2)) for x in m if x][0]
line = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[\d+\]\s+[\d.]+:\s+sched:sched_waking:\s+comm=(.*) pid=(\d+) prio=")
last = {}
for l in script:
    w = line.match(l)
    if w and int(w.group(5)) == reader:
        last[int(w.group(3))] = (w.group(1), w.group(4))
pairs = {(p["waker_tid"], p["wakee_tid"]): (p["waker_comm"], p["wakee_comm"]) for p in d["pairs"]}
print("reader", reader, "perf script at each waker's last waking:", last)
print("bpf:", {k: v for k, v in pairs.items() if k[1] == reader})
if not any(v[1] == "cat" for v in last.values()):
    # a busy machine ran the writer's 80 lines into the pipe before the reader read its 40:
    # cat never slept, so no wakeup names it, and the run shows nothing to compare
    print("not decidable: the reader was never woken after its exec (perf script)")
    sys.exit(3)
for waker, names in last.items():
    if names[1] == "cat" and (waker, reader) in pairs:
        assert pairs[(waker, reader)] == names, (waker, pairs[(waker, reader)], names)
assert any(names[1] == "cat" and (waker, reader) in pairs for waker, names in last.items())
PY
	# 6. a waker renamed within a batch: sh wakes the reader 10 times, execs awk, which
	# wakes it 10 more (20 < the 32 of a batch, no other waker between): named as awk
	awk10='awk "BEGIN { for (i = 0; i < 10; i++) { print \"x\"; fflush(); system(\"sleep 0.005 >/dev/null\") } }"'
	wr="for i in \$(seq 10); do echo x; sleep 0.005 >/dev/null; done; exec $awk10"
	bpf_recorded bw "($wr) | cat >/dev/null"
	check_or_skip "bpf: a waker renamed by an exec within a batch named as at its last wakeup (perf script)" \
		renamed_waker "$TMP/bw.json" "$TMP/bw.script"
	# 6b. the same, the waker on CPU 1 as sh and on CPU 0 as awk: each CPU's cache holds
	# the pair under one name, read in CPU order (the old name last, were it not for the
	# rename generation)
	if [ "$(nproc)" -ge 2 ]; then
		echo "for i in \$(seq 10); do echo x; sleep 0.005 >/dev/null; done; exec taskset -c 0 $awk10" >"$TMP/w.sh"
		bpf_recorded bm "taskset -c 1 sh $TMP/w.sh | cat >/dev/null"
		check_or_skip "bpf: a waker renamed by an exec on another CPU named as at its last wakeup (perf script)" \
			renamed_waker "$TMP/bm.json" "$TMP/bm.script"
	else
		skip "bpf: a waker renamed on another CPU (needs 2 CPUs)"
	fi
	# 7. a wakee renamed with a batch pending: W1 (sh) wakes the reader (sh) twice, the
	# reader execs cat, then another waker wakes it: W1's pair stays named (sh, sh)
	wl='{ sh -c "echo a; sleep 0.05; echo b"; sleep 0.2 >/dev/null; echo c; sleep 0.05 >/dev/null; echo d; }'
	bpf_recorded bv "$wl | sh -c 'read x; read x; exec cat >/dev/null'"
	check_or_skip "bpf: a wakee renamed by an exec with a batch pending: each pair named as at its last wakeup" \
		python3 - "$TMP/bv.json" "$TMP/bv.script" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
script = open(sys.argv[2], errors="replace").read().splitlines()
m = [re.search(r"PERF_RECORD_COMM exec: cat:(\d+)/(\d+)$", l) for l in script]
reader = [int(x.group(2)) for x in m if x][0]
line = re.compile(r"^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+\[\d+\]\s+[\d.]+:\s+sched:sched_waking:\s+comm=(.*) pid=(\d+) prio=")
last = {}
for l in script:
    w = line.match(l)
    if w and int(w.group(5)) == reader:
        last[int(w.group(3))] = (w.group(1), w.group(4))
pairs = {(p["waker_tid"], p["wakee_tid"]): (p["waker_comm"], p["wakee_comm"]) for p in d["pairs"]}
print("reader", reader, "perf script at each waker's last waking:", last)
print("bpf:", {k: v for k, v in pairs.items() if k[1] == reader})
if not any(v == ("sh", "sh") for v in last.values()):
    # no sh woke the reader before its exec: every line was in the pipe before it read
    # (a busy machine started it late, CI once), no batch was pending, nothing to compare
    print("not decidable: no sh woke the reader before its exec (perf script)")
    sys.exit(3)
if not any(v[1] == "cat" for v in last.values()):
    # "c" and "d" were in the pipe before cat read (a busy machine starved the reader):
    # cat never slept, so no wakeup names it, and the run shows nothing to compare
    print("not decidable: the reader was never woken after its exec (perf script)")
    sys.exit(3)
for waker, names in last.items():
    if (waker, reader) in pairs:
        assert pairs[(waker, reader)] == names, (waker, pairs[(waker, reader)], names)
PY
else
	skip "bpf: the collector does not load here"
	skip "bpf: a waker renamed within a batch (the collector does not load here)"
	skip "bpf: a waker renamed on another CPU (the collector does not load here)"
	skip "bpf: a wakee renamed with a batch pending (the collector does not load here)"
fi
finish
