#!/usr/bin/env bash
# trace.sh - locus report --trace and --svg-timeline: a Chrome trace-event JSON timeline of a
# recording, checked
# by tests/tools/trace_check.py against the format's rules and against perf script's
# decoding of the same file (running periods = switch-ins, one for one with CPU, time and
# name; flows = wakeups that then ran), whole and in a --from/--to window: a perf sched
# record file of hackbench and a locus record file of the ping-pong (where this VM's kernel
# records few switch-ins out of idle: those periods are checked apart, from the task's first
# event). The idle-passed-over counter and flow verdicts equal the report's of the same file,
# scope and window. The SVG timeline of a window beside the trace of the same window
# (tests/tools/svg_timeline_check.py). Then the refusals.
. "$(dirname "$0")/../lib.sh"

CHECK=tests/tools/trace_check.py
if ! have_root || ! command -v perf >/dev/null; then
	skip "needs root and perf"
	finish
fi

# the counter of the workload's wakeups passing over an idle CPU, and each flow's idle_passed,
# are the report's own verdicts (the analyzer tells them to the timeline): the counter's last
# value equals the report's idle_passed_over of the same file, scope and window, rising in
# time; a flow of a task the report judged carries its verdict, the others say "not judged"
idle_exact() { # NAME FILE [report options]
	local name=$1 file=$2
	shift 2
	"$LOCUS" report -q -i "$file" --json "$TMP/$name.ir.json" --trace "$TMP/$name.it.json" \
		-o /dev/null "$@" >/dev/null 2>&1
	check "$name: the trace's idle-passed-over counter is the report's count ($*)" \
		python3 - "$TMP/$name.ir.json" "$TMP/$name.it.json" <<'PY'
import json, sys
want = json.load(open(sys.argv[1]))["wakeups"]["idle_passed_over"]
ev = json.load(open(sys.argv[2]))["traceEvents"]
c = [(e["ts"], e["args"]["wakeups"]) for e in ev
     if e["ph"] == "C" and e["name"] == "wakeups passing over an idle CPU"]
got = c[-1][1] if c else 0
flows = [e["args"]["idle_passed"] for e in ev if e["ph"] == "s"]
if want is None:  # a file without the tasks' affinity (perf's): nothing judged, nor counted
    print("report: not computed; trace's counter %d; flows %d, not judged %d" %
          (got, len(flows), flows.count("not judged")))
    assert not c and flows and flows.count("not judged") == len(flows)
    sys.exit(0)
named = sum(1 for f in flows if f not in ("none", "not allowed", "not judged"))
print("report %d, trace's counter %d; flows: %d, %d passed over, %d not judged" %
      (want, got, len(flows), named, flows.count("not judged")))
assert [v for _, v in c] == list(range(1, len(c) + 1)), "the counter rises one at a time"
assert [t for t, _ in c] == sorted(t for t, _ in c), "the counter rises in time"
assert got == want, (got, want)
assert named <= got, (named, got)
PY
}

trace_one() { # NAME FILE
	local name=$1 file=$2
	perf script --show-task-events -i "$file" -F comm,pid,tid,cpu,time,event,trace --ns >"$TMP/$name.script" 2>/dev/null
	"$LOCUS" report -q -a -i "$file" --trace "$TMP/$name.json" >/dev/null 2>"$TMP/$name.err"
	expect_eq "$name: report --trace exits 0" 0 $?
	check "$name: the format's rules; periods and flows as perf script's" \
		python3 "$CHECK" "$TMP/$name.json" --perf-script "$TMP/$name.script"
	# windows inside the recording, however fast the workload ran (a quiet machine runs
	# hackbench -g 2 -l 200 in under 50 ms): a quarter of the way in, to half way
	local span from to
	span=$(awk '/ sched:sched_(switch|waking):/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0;
		if (!n++) f = t; l = t; break } } END { printf "%.6f", l - f }' "$TMP/$name.script")
	from=$(echo "$span" | awk '{ printf "%.4f", $1 / 4 }')
	to=$(echo "$span" | awk '{ printf "%.4f", $1 / 2 }')
	"$LOCUS" report -q -a -i "$file" --trace "$TMP/$name.w.json" --from "$from" --to "$to" \
		>/dev/null 2>&1
	check "$name: a window (--from $from --to $to), as perf script's in it" \
		python3 "$CHECK" "$TMP/$name.w.json" --perf-script "$TMP/$name.script" \
		--from "$from" --to "$to"
	idle_exact "$name" "$file"
	idle_exact "$name" "$file" -a
	idle_exact "$name" "$file" --from "$from" --to "$to"
	idle_exact "$name" "$file" -a --from "$from" --to "$to"
	# the SVG of a short window, beside the trace of the same window
	"$LOCUS" report -q -a -i "$file" --trace "$TMP/$name.s.json" --svg-timeline "$TMP/$name.svg" \
		--from "$from" --to "$(echo "$from" | awk '{ printf "%.4f", $1 + 0.002 }')" \
		>/dev/null 2>"$TMP/$name.serr"
	expect_eq "$name: --svg-timeline with --trace exits 0" 0 $?
	check "$name: SVG: 2 CPU lanes, round ticks, its wakeups the trace's flows, all drawn" \
		python3 tests/tools/svg_timeline_check.py "$TMP/$name.svg" --lanes 2 --trace "$TMP/$name.s.json"
	if command -v rsvg-convert >/dev/null; then
		check "$name: SVG: a real renderer draws it (rsvg-convert to PNG)" \
			bash -c "rsvg-convert -o '$TMP/$name.png' '$TMP/$name.svg' && test -s '$TMP/$name.png'"
	fi
}

if command -v hackbench >/dev/null; then
	perf sched record -q -o "$TMP/hb.data" -- hackbench -g 2 -l 200 >/dev/null 2>&1
	trace_one hackbench "$TMP/hb.data"
else
	skip "hackbench (rt-tests) not installed"
fi
"$LOCUS" record -q -o "$TMP/pp.data" -- "$LOCUS" bench pingpong --pin 0,1 --loops 3000 >/dev/null 2>&1
trace_one pingpong "$TMP/pp.data"

# a file whose switch-ins out of idle are lost (schedgen's lossy scenario, as this VM's perf
# ring buffers lose them): the report defers its verdicts until a CPU's next event shows it
# stayed idle; the trace's flows that passed over are, one for one, the wakeups an oracle
# counted from perf script of the same file (tests/e2e/idle_oracle.py), and the counter is
# the report's count
if [ -x build/schedgen ]; then
	for fix in core2quad desktop-4c8t; do
		build/schedgen "$TMP/l-$fix.data" tests/fixtures/topology/$fix \
			tests/fixtures/tracefs-tree lossy 2000 3 >/dev/null 2>&1
		perf script --ns -F tid,cpu,time,event,trace -i "$TMP/l-$fix.data" 2>/dev/null |
			python3 tests/e2e/idle_oracle.py --passed "$TMP/l-$fix.passed" >/dev/null
		idle_exact "lossy-$fix" "$TMP/l-$fix.data" -a
		check "lossy file ($fix): the flows that passed over are the oracle's wakeups" \
			python3 - "$TMP/lossy-$fix.it.json" "$TMP/l-$fix.passed" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = {(e["args"]["tid"], int(round(float(e["ts"]) * 1000)) + e["args"]["delay_ns"])
       for e in ev if e["ph"] == "s" and e["args"]["idle_passed"] not in
       ("none", "not allowed", "not judged")}
want = {tuple(int(x) for x in l.split()) for l in open(sys.argv[2])}
print("trace %d, oracle %d, both %d" % (len(got), len(want), len(got & want)))
assert want and got == want, (sorted(got - want)[:5], sorted(want - got)[:5])
PY
	done
else
	skip "lossy files: needs build/schedgen"
fi

# locus record writes them too, once the workload ends, and exits with the workload's status
"$LOCUS" record -q -o "$TMP/rec.data" --trace "$TMP/rec.json" --svg-timeline "$TMP/rec.svg" \
	--from 0.01 --to 0.1 -- sh -c "'$LOCUS' bench pingpong --pin 0,1 --loops 2000 >/dev/null; exit 3" 2>"$TMP/rec.err"
expect_eq "record --trace --svg-timeline: the workload's exit status" 3 $?
perf script --show-task-events -i "$TMP/rec.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$TMP/rec.script" 2>/dev/null
check "record --trace: its window as perf script's" \
	python3 "$CHECK" "$TMP/rec.json" --perf-script "$TMP/rec.script" --from 0.01 --to 0.1
# built in the recording's own pass (the stream decodes each record it writes): the same
# items, in the same order, as locus report --trace reads back from the file it wrote
"$LOCUS" report -q -i "$TMP/rec.data" --trace "$TMP/rec.back.json" --from 0.01 --to 0.1 \
	-o /dev/null 2>/dev/null
check "record --trace: its own pass's items are locus report --trace's of the file, one for one" \
	python3 - "$TMP/rec.json" "$TMP/rec.back.json" <<'PY'
import json, sys
live, back = ([json.dumps(e, sort_keys=True) for e in json.load(open(p))["traceEvents"]]
              for p in sys.argv[1:3])
print(len(live), "items live,", len(back), "read back")
for i, (a, b) in enumerate(zip(live, back)):  # the first that differs, to see why
    if a != b:
        print("item", i, "live", a[:300], "\nread back", b[:300])
        break
assert len(live) > 100 and live == back
PY
check "record --svg-timeline: 2 CPU lanes, its wakeups the trace's flows" \
	python3 tests/tools/svg_timeline_check.py "$TMP/rec.svg" --lanes 2 --trace "$TMP/rec.json"
check "record --svg-timeline: the caption has the recording's command and this kernel (uname -r)" \
	python3 tests/tools/svg_check.py "$TMP/rec.svg" --caption-has "bench pingpong --pin 0,1" \
	--caption-has "$(uname -r)"
# a zoomed window of wakeups that stay on one CPU: ticks per pixel column, not a row of arcs
"$LOCUS" record -q -o "$TMP/same.data" -- "$LOCUS" bench pingpong --pin 0,0 --loops 3000 >/dev/null 2>&1
"$LOCUS" report -q -a -i "$TMP/same.data" --trace "$TMP/all.json" -o /dev/null
# the 1 ms that holds the most same-CPU wakeups, in seconds from the recording's first
# event (beside busy loops on CPU 0 the ping-pong runs in bursts between their slices: 1 ms
# around the middle wakeup held 6 in a CI run)
from=$(python3 -c '
import bisect, json, sys
t = json.load(open(sys.argv[1]))["traceEvents"]
t0 = min(e["ts"] for e in t if "ts" in e)
s = sorted(e["ts"] for e in t if e["ph"] == "s" and e["args"].get("class") == "same_cpu")
i = max(range(len(s)), key=lambda i: bisect.bisect_left(s, s[i] + 900) - i)
print("%.6f" % ((s[i] - t0 - 50) / 1e6))' "$TMP/all.json")
"$LOCUS" report -q -a -i "$TMP/same.data" --trace "$TMP/same.json" --svg-timeline "$TMP/same.svg" \
	--from "$from" --to "$(python3 -c "print('%.6f' % ($from + 0.001))")" -o /dev/null
check "same-CPU wakeups zoomed: ticks holding, per CPU, the trace's same_cpu flows; no arcs" \
	python3 tests/tools/svg_timeline_check.py "$TMP/same.svg" --lanes 2 --trace "$TMP/same.json" --min-same 10
if command -v rsvg-convert >/dev/null; then
	check "same-CPU zoom: a real renderer draws it" \
		bash -c "rsvg-convert -o '$TMP/same.png' '$TMP/same.svg' && test -s '$TMP/same.png'"
fi

# the counts said on stderr are the file's
"$LOCUS" report -a -i "$TMP/pp.data" --trace "$TMP/pp2.json" >/dev/null 2>"$TMP/pp2.err"
check "stderr states the size and the counts" grep -Eq "pp2.json: [0-9,]+ bytes, [0-9]+ running periods, [0-9]+ wakeup flows" "$TMP/pp2.err"

# a limit: cut, said, still valid JSON
"$LOCUS" report -q -a -i "$TMP/pp.data" --trace "$TMP/cut.json" --trace-limit 1 >/dev/null 2>"$TMP/cut.err"
if [ "$(stat -c %s "$TMP/pingpong.json")" -gt 1100000 ]; then
	check "limit: said in one line" grep -q "stopped at the limit of 1 MiB (--trace-limit)" "$TMP/cut.err"
fi
check "limit: still valid" python3 "$CHECK" "$TMP/cut.json"

# children that run once and exit (a subshell each) belong to the workload of a --pid replay:
# the timeline asks the analyzer before their last switch retires them
# (the workload's sh says its pid: a system-wide recording holds other shells too, and on a
# busy machine another's exec may come first)
perf sched record -q -o "$TMP/sub.data" -- sh -c "echo \$\$ >'$TMP/sh.pid'; (:); (:); (:); (:); sleep 0.01" >/dev/null 2>&1
sh_pid=$(cat "$TMP/sh.pid")
"$LOCUS" report -q -i "$TMP/sub.data" --pid "$sh_pid" --svg-timeline "$TMP/sub.svg" -o /dev/null 2>&1
check "--pid: subshells that ran once are the workload's in the SVG legend" python3 - "$TMP/sub.data" "$TMP/sub.svg" "$sh_pid" <<'PY'
import re, subprocess, sys
out = subprocess.run(["perf", "script", "-i", sys.argv[1]], capture_output=True, text=True).stdout
kids = re.findall(r"sched_process_fork: comm=sh pid=%s child_comm=\S+ child_pid=(\d+)" % sys.argv[3], out)
once = [k for k in kids if len(re.findall(r"prev_pid=%s " % k, out)) == 1]
texts = [re.sub("<[^>]*>", "", t) for t in re.findall(r"<text[^>]*>.*?</text>", open(sys.argv[2]).read())]
legend = texts[texts.index("running:") + 1:texts.index("other tasks")]
listed = {t.split()[-1] for t in legend}
# on a busy machine a subshell may be preempted and run twice: then it shows the same, and
# the case this guards (a task whose only slice is its last) is just not in this recording
print("children", kids, "ran once", once, "legend", legend)
if not kids or not set(kids) <= listed:
    sys.exit("children %r not all in the legend %r" % (kids, sorted(listed)))
PY

# refusals: usage errors exit 2, nothing written
"$LOCUS" record -q -o "$TMP/none.data" --from 1 -- true >/dev/null 2>"$TMP/e1"
expect_eq "record --from without --trace: exit 2" 2 $?
check "record --from without a timeline: said" grep -q -- "--from and --to choose the window of --trace and --svg-timeline" "$TMP/e1"
"$LOCUS" report -i "$TMP/pp.data" --from 0.05 >"$TMP/w1.txt" 2>&1
expect_eq "report --from without a timeline cuts the report: exit 0" 0 $?
check "report --from: the report says its window" grep -q "window: 50.00 ms to the end" "$TMP/w1.txt"
"$LOCUS" report -q -i "$TMP/pp.data" --svg-timeline "$TMP/late.svg" --from 1000 >/dev/null 2>"$TMP/e5"
expect_eq "--from past the end: exit 1" 1 $?
check "--from past the end: said in one line" bash -c "grep -q -- '--from is past the recording.s end' '$TMP/e5' && test \$(wc -l <'$TMP/e5') = 1"
check "--from past the end: no SVG" test ! -e "$TMP/late.svg"
"$LOCUS" report -q -i "$TMP/pp.data" --from 1000 >"$TMP/late.txt" 2>"$TMP/e7"
expect_eq "report --from past the end, no timeline: exit 1, no empty report" 1 $?
check "report --from past the end: said in one line, nothing on stdout" \
	bash -c "grep -q -- '--from is past the recording.s end (it lasts ' '$TMP/e7' && test \$(wc -l <'$TMP/e7') = 1 && test ! -s '$TMP/late.txt'"
"$LOCUS" report -q -i "$TMP/pp.data" --svg-timeline "$TMP/x.svg" --trace-limit 5 >/dev/null 2>"$TMP/e6"
expect_eq "--trace-limit without --trace: exit 2, not ignored" 2 $?
check "--trace-limit without --trace: said" grep -q -- "--trace-limit bounds the file of --trace" "$TMP/e6"
"$LOCUS" report -q -i "$TMP/pp.data" --trace "$TMP/x.json" --from 2 --to 1 >/dev/null 2>"$TMP/e2"
expect_eq "--to before --from: exit 2" 2 $?
"$LOCUS" report -q -i "$TMP/pp.data" --trace "$TMP/x.json" --from nan >/dev/null 2>"$TMP/e3"
expect_eq "--from nan: exit 2" 2 $?
check "nothing written on a usage error" test ! -e "$TMP/x.json"
"$LOCUS" report -q -i tests/fuzz/corpus/perf-sched-stats-v16.data --trace "$TMP/y.json" >/dev/null 2>"$TMP/e4"
expect_eq "no sched events: exit 1" 1 $?
check "no sched events: said" grep -q "no sched events in the file: no timeline to write" "$TMP/e4"
# One pass: the timelines ride along with the report. The oracle is the report alone on the
# same file: strace counts the bytes each run reads from it (two passes read them twice).
if command -v strace >/dev/null; then
	rd() {
		strace -f -y -e trace=openat,read,pread64 -o "$TMP/st" "$@" >/dev/null 2>&1
		grep -E "^[0-9]+ +(read|pread64)\([0-9]+<$TMP/pp.data>" "$TMP/st" |
			awk -F'= ' '{ s += $NF } END { print s + 0 }'
	}
	alone=$(rd "$LOCUS" report -q -i "$TMP/pp.data")
	both=$(rd "$LOCUS" report -q -i "$TMP/pp.data" --trace "$TMP/one.json" --svg-timeline "$TMP/one.svg")
	check "one pass: report + --trace + --svg-timeline read the file as the report alone ($both and $alone bytes)" \
		test "$both" = "$alone" -a "$alone" -gt 0
	expect_eq "one pass: the file opened once" 1 "$(grep -c "openat(.*$TMP/pp.data" "$TMP/st")"
	check "one pass: both timelines written" test -s "$TMP/one.json" -a -s "$TMP/one.svg"
else
	skip "one pass: no strace to count the reads"
fi
finish
