#!/usr/bin/env bash
# sweep.sh - the benchmark loop (run -r/--sweep/--metric) and locus diff, end to end.
. "$(dirname "$0")/../lib.sh"

if ! command -v hackbench >/dev/null; then
	skip "hackbench (rt-tests) is not installed"
	finish
fi

# The issue's command, twice.
for f in a b; do
	"$LOCUS" run -r 3 --sweep n=1,2 --metric hackbench --json "$TMP/$f.json" --svg "$TMP/$f.svg" \
		-- hackbench -g {n} -l 200 >"$TMP/$f.txt" 2>"$TMP/$f.err"
	expect_eq "sweep $f: exit 0" 0 $?
done
check "the table of n=1" grep -q '^ n=1$' "$TMP/a.txt"
check "the table of n=2" grep -q '^ n=2$' "$TMP/a.txt"
expect_eq "three runs per value, each with hackbench's time" 6 \
	"$(grep -Ec '^   [123] +[0-9]+\.[0-9]+ ' "$TMP/a.txt")"
expect_eq "a mean and a stddev% row per value" 4 "$(grep -Ec '^   (mean|stddev%) ' "$TMP/a.txt")"
check "the metric and its direction are named" grep -q 'metric: hackbench time (lower is better)' "$TMP/a.txt"
check "columns: metric, switches, migrations, class shares, p99" \
	grep -Eq '^   run +s +cs/s +migr/s +wake/s +same% .* p99( +idle%)? +wall s$' "$TMP/a.txt"
check "HITM says why not here" grep -q 'HITM/s: not supported' "$TMP/a.txt"
check "progress per run on stderr" grep -q '^locus: n=2 run 3/3: [0-9.]* s, ' "$TMP/a.err"
check "JSON: six runs, all ok" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"]
assert len(r) == 6 and all(x["ok"] for x in r), r
assert all("metric" in x["measures"] and "cs_per_s" in x["measures"] for x in r)
assert d["env"]["kernel"] and d["env"]["cpu_model"] and d["env"]["time"] and d["env"]["topology"]
assert d["env"]["command_line"].startswith("locus run -r 3 --sweep n=1,2")
assert d["sweep"] == {"name": "n", "values": ["1", "2"], "repeat": 3}
' "$TMP/a.json"
check "SVG: a whole document" bash -c "head -c 5 '$TMP/a.svg' | grep -q '<svg' && tail -n 1 '$TMP/a.svg' | grep -q '</svg>'"
check "SVG: round y ticks, a % axis on the class panel, the unit said once" python3 - "$TMP/a.svg" <<'PY'
import math, sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
texts = [t.text or "" for t in r.iter("{http://www.w3.org/2000/svg}text")]
ticks = [float(t) for t in texts if t.replace(".", "", 1).isdigit()]
step = sorted(set(ticks))[1] - sorted(set(ticks))[0]
m = step / 10 ** math.floor(math.log10(step))
assert any(abs(m - x) < 1e-9 for x in (1, 2, 2.5, 5)), (step, ticks)
assert "100%" in texts and "50%" in texts, texts
assert "hackbench time, s (lower is better)" in texts, texts
PY
check "SVG: error bars where the runs spread, each the 95% interval of the mean of the JSON's runs, the legend says so" \
	python3 tests/tools/svg_check.py "$TMP/a.svg" --errbars "$TMP/a.json"
check "SVG: the caption has the command line and this kernel (uname -r)" \
	python3 tests/tools/svg_check.py "$TMP/a.svg" --caption-has "locus run -r 3 --sweep n=1,2" \
	--caption-has "$(uname -r)"
check "SVG: both panels label their x axis with the sweep's name" python3 - "$TMP/a.svg" <<'PY'
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
xl = [t.text for t in r.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "xlabel"]
assert xl == ["n", "n"], xl
PY
check "SVG: every label within the picture's width" python3 tests/tools/svg_check.py "$TMP/a.svg" --fits
"$LOCUS" diff --svg "$TMP/d.svg" "$TMP/a.json" "$TMP/b.json" >/dev/null 2>&1
check "diff SVG: every label within the picture's width, the machine named as the others name it" \
	bash -c "python3 tests/tools/svg_check.py '$TMP/d.svg' --fits && grep -q 'machine $(uname -n) (' '$TMP/d.svg'"
"$LOCUS" diff "$TMP/a.json" "$TMP/b.json" --svg "$TMP/d2.svg" >/dev/null 2>&1
expect_eq "diff with --svg after the files: exit 0" 0 $?
check "diff with --svg after the files: the same picture as before them" cmp "$TMP/d.svg" "$TMP/d2.svg"
if command -v rsvg-convert >/dev/null; then
	check "SVG: a real renderer draws it (rsvg-convert to PNG)" \
		bash -c "rsvg-convert -o '$TMP/a.png' '$TMP/a.svg' && test -s '$TMP/a.png'"
fi

"$LOCUS" diff "$TMP/a.json" "$TMP/b.json" >"$TMP/d.txt" 2>"$TMP/d.err"
expect_eq "diff: exit 0" 0 $?
check "diff: a row per value for the metric" test "$(grep -Ec '^   [12] +s ' "$TMP/d.txt")" -eq 2
check "diff: metric ratios near 1 (0.5 to 2)" awk '$2 == "s" && $1 ~ /^[12]$/ { if ($7 < 0.5 || $7 > 2) exit 1 }' "$TMP/d.txt"
# Two batches run one after the other on a VM can drift apart for real (16% once here),
# and then marking them is right; a sound comparison marks most same-workload pairs nothing.
quiet=0
for try in 1 2 3; do
	if ! grep -Eq '^   [12] +s .*\*' "$TMP/d.txt"; then quiet=1; break; fi
	"$LOCUS" run -q -r 3 --sweep n=1,2 --metric hackbench --json "$TMP/a.json" -- hackbench -g {n} -l 200 >/dev/null 2>&1
	"$LOCUS" run -q -r 3 --sweep n=1,2 --metric hackbench --json "$TMP/b.json" -- hackbench -g {n} -l 200 >/dev/null 2>&1
	"$LOCUS" diff "$TMP/a.json" "$TMP/b.json" >"$TMP/d.txt" 2>/dev/null
done
expect_eq "diff: same workload, metric not marked (in one of 3 pairs at most)" 1 "$quiet"
"$LOCUS" diff --json - "$TMP/a.json" "$TMP/b.json" 2>/dev/null >"$TMP/d.json"
check "diff --json -: rows with ratios" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [r for r in d["rows"] if r["measure"] == "metric"]
assert len(m) == 2 and all(0.5 < r["ratio"] < 2 for r in m), m
' "$TMP/d.json"

# A crafted pair with the metric doubled is marked, in the metric's direction.
"$LOCUS" diff tests/fixtures/sweep/base.json tests/fixtures/sweep/slower2x.json >"$TMP/x.txt" 2>"$TMP/x.err"
check "2x slower: the metric rows marked worse" test "$(grep -Ec '^   [124] +s .*\+100\.0%  \* worse$' "$TMP/x.txt")" -eq 3
check "2x slower: stderr counts them" grep -q '^locus: 12 significant differences$' "$TMP/x.err"

# Bad input: one line, exit 2; a broken file: one line, exit 1.
for bad in "--metric ([0-9]+ -- true" "--metric nogroup -- true" "--metric tbench --direction up -- true" \
	   "--sweep n=1,2 -- true" "--sweep =1 -- true" "--sweep n= -- echo {n}" "-r 0 -- true" "--direction lower -- true"; do
	# shellcheck disable=SC2086
	"$LOCUS" run $bad >/dev/null 2>"$TMP/u.txt"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/u.txt")" -eq 1 ]; then ok "run $bad: usage error"; else fail "run $bad: exit $rc: $(cat "$TMP/u.txt")"; fi
done
echo '{"format": "locus-sweep-1", "runs": [' >"$TMP/broken.json"
"$LOCUS" diff "$TMP/broken.json" "$TMP/a.json" >/dev/null 2>"$TMP/bd.txt"
expect_eq "diff of a truncated file: exit 1" 1 $?
check "diff of a truncated file: one line saying where" grep -Eq "^locus: $TMP/broken.json: bad JSON: line [0-9]+: unexpected end of input$" "$TMP/bd.txt"
"$LOCUS" diff "$TMP/a.json" >/dev/null 2>&1
expect_eq "diff of one file: usage error" 2 $?

# The metric missing from the output, and a failing run in the middle: runs kept.
"$LOCUS" run -q --metric tbench --json "$TMP/m.json" -- "$LOCUS" bench pingpong --loops 500 >/dev/null 2>"$TMP/m.err"
expect_eq "metric not in the output: exit 1" 1 $?
check "metric not in the output: says which and shows the last line" \
	grep -q "run 1/1: the metric (tbench throughput) is not in the workload's output (its last line: 'pingpong: 1 pair" "$TMP/m.err"
check "metric not in the output: the run is kept, ok false" python3 -c '
import json, sys; r = json.load(open(sys.argv[1]))["runs"]; assert len(r) == 1 and not r[0]["ok"]' "$TMP/m.json"
"$LOCUS" run -q --sweep n=1,2,3 --metric pingpong --json "$TMP/f.json" \
	-- sh -c "$LOCUS bench pingpong --loops 500; test {n} != 2" >"$TMP/f.txt" 2>"$TMP/f.err"
expect_eq "a failing run in the middle: the workload's status" 1 $?
check "a failing run in the middle: says which" grep -q '^locus: n=2 run 1/1: the workload exited 1$' "$TMP/f.err"
check "a failing run in the middle: the sweep went on" python3 -c '
import json, sys; r = json.load(open(sys.argv[1]))["runs"]
assert [x["ok"] for x in r] == [True, False, True], r' "$TMP/f.json"
check "a failing run in the middle: marked in the table" grep -q 'failed (exit 1)' "$TMP/f.txt"

# Ctrl-C in the middle of a sweep keeps the runs done.
# The interrupted run is labelled one way everywhere (stderr, table, JSON), is no failure,
# and the loop exits with its status, or 128+2 when it exited 0 (this shell's background
# job ignores SIGINT: the run ends on its own, 0).
# The signal comes once the third run has started (each leaves a file; not a fixed sleep: a
# loaded machine had not finished the first in 1.3 s), two runs done.
"$LOCUS" run -q --sweep n=1,2,3,4,5,6 --json "$TMP/i.json" -- \
	sh -c "touch '$TMP/i.started.{n}'; sleep 0.4; echo {n}" >"$TMP/i.txt" 2>"$TMP/i.err" &
lp=$!
for _ in $(seq 300); do [ -e "$TMP/i.started.3" ] && break; sleep 0.05; done
kill -INT $lp
wait $lp
expect_eq "Ctrl-C: an unfinished loop exits 128+SIGINT when its last run exited 0" 130 $?
check "Ctrl-C: says how many runs were kept" \
	grep -Eq '^locus: interrupted: [0-9]+ runs? kept, the last one interrupted; exit 130$' "$TMP/i.err"
check "Ctrl-C: the run's line says interrupted, not failed" \
	grep -Eq '^locus: n=[0-9] run 1/1: interrupted \(exit 0\): kept, marked interrupted \(ok false\), not counted as failed$' "$TMP/i.err"
check "Ctrl-C: the table says interrupted, nothing says failed" \
	bash -c "grep -q 'interrupted (exit 0)' '$TMP/i.txt' && ! grep -q 'failed (exit' '$TMP/i.txt' &&
		! grep -q 'runs failed' '$TMP/i.err'"
check "Ctrl-C: the runs done are in the JSON, the last marked interrupted" python3 -c '
import json, sys; r = json.load(open(sys.argv[1]))["runs"]; assert 2 <= len(r) < 6, r
assert r[-1].get("interrupted") is True and not r[-1]["ok"], r[-1]
assert not any(x.get("interrupted") for x in r[:-1]), r' "$TMP/i.json"

# A pinned workload told from an unpinned one: its allowed CPUs (the oracle: taskset -p of the
# shell that started it, as the child inherits) in the text, the loop's JSON, the diff and the
# SVG captions.
if [ "$(nproc)" -ge 2 ]; then
	"$LOCUS" run -r 2 --metric hackbench --json "$TMP/free.json" -- hackbench -g 1 -l 50 \
		>/dev/null 2>&1
	taskset -c 0 "$LOCUS" run -r 2 --metric hackbench --json "$TMP/pin.json" --svg "$TMP/pin.svg" \
		-- hackbench -g 1 -l 50 >"$TMP/pin.txt" 2>&1
	free_mask=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c)')
	check "affinity: the loop's JSON holds each workload's allowed CPUs (taskset's, and this shell's)" \
		python3 - "$TMP/free.json" "$TMP/pin.json" <<'PY'
import json, os, sys
def cpus(s):
    out = set()
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out
f = json.load(open(sys.argv[1]))["provenance"]["workload_affinity"]
p = json.load(open(sys.argv[2]))["provenance"]["workload_affinity"]
assert cpus(f) == os.sched_getaffinity(0) and p == "0", (f, p)
PY
	check "affinity: the loop's text says it" grep -q "CPUs 0-[0-9]*, the workload's affinity 0," "$TMP/pin.txt"
	"$LOCUS" diff "$TMP/free.json" "$TMP/pin.json" >"$TMP/aff.txt" 2>/dev/null
	check "affinity: locus diff says the new run could use CPU 0 only" \
		grep -Eq "^   the workloads were allowed other CPUs: new: affinity 0 \(base 0-[0-9]+\)$" "$TMP/aff.txt"
	"$LOCUS" diff --json - "$TMP/free.json" "$TMP/pin.json" 2>/dev/null >"$TMP/aff.json"
	check "affinity: and its JSON" python3 -c '
import json, sys; a = json.load(open(sys.argv[1]))["workload_affinity"]
assert a["new"] == "0" and a["base"] != "0" and a["differs"] is True, a' "$TMP/aff.json"
	check "affinity: the loop's SVG caption says it" grep -q "the workload.s affinity: 0<" "$TMP/pin.svg"
	taskset -c 0 "$LOCUS" run --svg "$TMP/heat.svg" -- hackbench -g 1 -l 50 >"$TMP/heat.txt" 2>&1
	check "affinity: locus run's header and heatmap caption say it" bash -c \
		"grep -q \"CPUs: all asked, 0-[0-9]* honored ([0-9]*); the workload's affinity: 0\$\" '$TMP/heat.txt' &&
		 grep -q \"the workload.s affinity: 0<\" '$TMP/heat.svg'"
else
	skip "affinity: one CPU, nothing to pin apart"
fi
finish
