#!/usr/bin/env bash
# llc_unknown.sh - a recording whose topology does not know the LLC (no cache directory in
# its sysfs: tests/fixtures/topology/nocache-2, this VM's shape) claims no LLC class or
# figure anywhere: text, JSON, the SVG timeline, the trace export; it says what it knows
# ("same node (LLC unknown)"), and its counts are the same file's matrix and perf script's.
# A recording of the same workload with this machine's topology is the control: where the
# machine knows its LLC, the same checks find it.
. "$(dirname "$0")/../lib.sh"

if ! have_root || ! command -v perf >/dev/null; then
	skip "llc_unknown: needs root and perf"
	finish
fi
[ -d tests/fixtures/topology/nocache-2 ] || make -s fixtures >/dev/null

NC=tests/fixtures/topology/nocache-2
"$LOCUS" record -q --sysfs-root "$NC" -o "$TMP/nc.data" -- \
	"$LOCUS" bench pingpong --pin 0,1 --loops 2000 >/dev/null 2>&1
expect_eq "record --sysfs-root (no cache information): exits 0" 0 $?
"$LOCUS" report -i "$TMP/nc.data" --json "$TMP/nc.json" --trace "$TMP/nc.trace" \
	--svg-timeline "$TMP/nc.svg" -o "$TMP/nc.txt" 2>/dev/null
expect_eq "report of it: exits 0" 0 $?
"$LOCUS" report -a -i "$TMP/nc.data" --json "$TMP/nca.json" -o "$TMP/nca.txt" 2>/dev/null

# LLC in the text only where it says the LLC is unknown
check "text: LLC only in the statements that it is unknown" python3 - "$TMP/nc.txt" "$TMP/nca.txt" <<'PY'
import re, sys
for path in sys.argv[1:]:
    text = open(path).read()
    assert "LLC unknown" in text, "the header does not say the LLC is unknown"
    bad = [l for l in text.splitlines() if "LLC" in l and "LLC unknown" not in l
           and "last-level cache is unknown" not in l and "no LLC class is counted" not in l]
    assert not bad, bad
    assert not re.search(r"\bllc\b", text), "an llc column"
    assert re.search(r"same node \(LLC unknown\)\s+[0-9,]+", text), "no node row saying so"
    assert "pulled to the waker's core" in text
print("no LLC claim in", len(sys.argv) - 1, "reports")
PY

# JSON: no llc class key anywhere; node = the matrix's cross-CPU cells (2 CPUs, 2 cores)
check "JSON: no llc class; node = the matrix's cross-CPU wakeups" python3 - "$TMP/nc.json" "$TMP/nca.json" <<'PY'
import json, sys
def walk(o, path=""):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "llc" and not path.endswith("cpus[]"):
                raise AssertionError("llc key at " + path)
            walk(v, path + "." + k)
    elif isinstance(o, list):
        for v in o:
            walk(v, path + "[]")
for p in sys.argv[1:]:
    d = json.load(open(p))
    assert d["topology"]["llc_known"] is False
    walk({k: v for k, v in d.items() if k != "topology"})
    w = d["wakeups"]
    m = w["matrix"]
    cross = sum(m[a][b] for a in range(len(m)) for b in range(len(m)) if a != b)
    assert w["by_class"]["node"] == cross and w["by_class"]["same_cpu"] == m[0][0] + m[1][1], (w["by_class"], m)
    assert cross > 0, "a pinned ping-pong wakes across the CPUs"
    assert w["placement"]["pulled_to"] == "core"
print("ok")
PY

# perf script of the same file: the ping-pong's cross-CPU wakeups are 'same node' flows
perf script --show-task-events -i "$TMP/nc.data" -F comm,pid,tid,cpu,time,event,trace --ns >"$TMP/nc.script" 2>/dev/null
"$LOCUS" report -q -a -i "$TMP/nc.data" --trace "$TMP/nca.trace" -o /dev/null 2>/dev/null
check "trace: periods and flows as perf script's" \
	python3 tests/tools/trace_check.py "$TMP/nca.trace" --perf-script "$TMP/nc.script"
check "trace: no flow, migration or idle CPU classed llc" python3 - "$TMP/nc.trace" "$TMP/nca.trace" <<'PY'
import json, sys
for p in sys.argv[1:]:
    ev = json.load(open(p))["traceEvents"]
    cls = [e["args"].get(k) for e in ev for k in ("class", "idle_passed") if "args" in e]
    assert "llc" not in cls, p
    assert cls.count("node") > 0, "cross-CPU flows are 'node' there"
print("ok")
PY
check "SVG: no LLC class in the legend; the node class says the LLC is unknown" python3 - "$TMP/nc.svg" <<'PY'
import re, sys
texts = [re.sub("<[^>]*>", "", t) for t in re.findall(r"<text[^>]*>.*?</text>", open(sys.argv[1]).read())]
assert not [t for t in texts if "LLC" in t and "LLC unknown" not in t], texts
assert [t for t in texts if t.startswith("same node (LLC unknown) ")], texts
print("ok")
PY
check "SVG: 2 CPU lanes, its wakeups the trace's flows (the same report)" \
	python3 tests/tools/svg_timeline_check.py "$TMP/nc.svg" --lanes 2 --trace "$TMP/nc.trace"

# the control: this machine's own topology, the same workload
if [ -r /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list ] ||
	[ -r /sys/devices/system/cpu/cpu0/cache/index2/shared_cpu_list ]; then
	"$LOCUS" record -q -o "$TMP/own.data" -- "$LOCUS" bench pingpong --pin 0,1 --loops 2000 >/dev/null 2>&1
	"$LOCUS" report -i "$TMP/own.data" --json "$TMP/own.json" -o "$TMP/own.txt" 2>/dev/null
	check "control: with this machine's cache information the LLC class is there" python3 - "$TMP/own.json" "$TMP/own.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["topology"]["llc_known"] is True
assert "llc" in d["wakeups"]["by_class"] and "shared LLC" in open(sys.argv[2]).read()
print("ok")
PY
else
	skip "control: this machine's sysfs has no cache information either"
fi
finish
