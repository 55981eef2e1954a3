#!/usr/bin/env bash
# bigmachine.sh - a recording from a 512-CPU, 8-node machine (written by tests/tools/schedgen
# with this kernel's tracepoint formats and the 8n512 topology): every report readable at 80
# columns, every count what the scenario put in, and perf reading the same file.
. "$(dirname "$0")/../lib.sh"

GEN=$PWD/build/schedgen
"$GEN" "$TMP/big.data" tests/fixtures/topology/8n512 tests/fixtures/tracefs-tree 200 50
expect_eq "schedgen writes the file" 0 $?

"$LOCUS" report -i "$TMP/big.data" >"$TMP/r.txt" 2>"$TMP/r.err"
expect_eq "report: exit 0" 0 $?
check "report: the topology travels in the file" grep -q "topology: 512 CPUs, 256 cores, 16 LLC groups (L3), 8 nodes" "$TMP/r.txt"
check "report: every line within 80 columns" awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$TMP/r.txt"
check "report: the heatmap folds to one cell per LLC" grep -q "one cell per LLC" "$TMP/r.txt"
for cls in "same CPU" "SMT sibling" "shared LLC" "same node" "other node"; do
	check "report: $cls holds exactly a fifth (2,000)" grep -Eq "^     $cls +2,000 +20\.0%" "$TMP/r.txt"
done
check "report: 10,000 wakeups, all placed" grep -q "^ Wakeups of the traced tasks: 10,000 (from sched_waking), 10,000 placed" "$TMP/r.txt"
check "report: the delays are the 1-7 us the scenario used" grep -Eq "^     all +10,000 .* 7\.00 us +7\.00 us$" "$TMP/r.txt"
"$LOCUS" report -q -i "$TMP/big.data" --json "$TMP/r.json" -o /dev/null
check "JSON: 512 CPUs, 8 nodes, the matrix of 512 rows summing to 10,000" python3 - "$TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["topology"]
assert t["cpus"] == 512 and t["nodes"] == 8, t
m = d["wakeups"]["matrix"]
assert len(m) == 512 and sum(map(sum, m)) == 10000
assert d["wakeups"]["by_class"] == {"same_cpu": 2000, "smt": 2000, "llc": 2000, "node": 2000, "remote": 2000}, d["wakeups"]["by_class"]
assert len(d["cpus"]) == 512
PY
# the heatmap folds per LLC: lines where the fixture's nodes change, shares as in the JSON
"$LOCUS" report -q -i "$TMP/big.data" --svg "$TMP/heat.svg" -o /dev/null
check "--svg heatmap: node lines at the 8n512 fixture's node boundaries, 8 node labels" \
	python3 tests/tools/svg_check.py "$TMP/heat.svg" --nodes tests/fixtures/topology/8n512
check "--svg heatmap: class shares equal the JSON's by_class shares; separators in the title" \
	python3 tests/tools/svg_check.py "$TMP/heat.svg" --shares "$TMP/r.json" --separators
check "--svg heatmap: the caption has the recording's command and kernel (schedgen writes uname -r)" \
	python3 tests/tools/svg_check.py "$TMP/heat.svg" --caption-has "schedgen" --caption-has "$(uname -r)"
"$GEN" "$TMP/s64.data" tests/fixtures/topology/2s16c2t-64 tests/fixtures/tracefs-tree 200 50
"$LOCUS" report -q -i "$TMP/s64.data" --svg "$TMP/s64.svg" --json "$TMP/s64.json" -o /dev/null
check "--svg heatmap per CPU (64): node lines where 2s16c2t-64's nodes change (0-15,32-47 on N0)" \
	python3 tests/tools/svg_check.py "$TMP/s64.svg" --nodes tests/fixtures/topology/2s16c2t-64 \
	--shares "$TMP/s64.json"
if command -v rsvg-convert >/dev/null; then
	check "--svg heatmaps: a real renderer draws them" bash -c "rsvg-convert -o '$TMP/heat.png' \
		'$TMP/heat.svg' && rsvg-convert -o '$TMP/s64.png' '$TMP/s64.svg' && test -s '$TMP/s64.png'"
fi
for sec in wakeups latency pairs migrations switches cpus; do
	"$LOCUS" report -q -i "$TMP/big.data" --sections $sec >"$TMP/s.txt" 2>&1
	check "section $sec at 80 columns" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$TMP/s.txt"
done
COLUMNS=200 "$LOCUS" report -q -i "$TMP/big.data" --sections wakeups >"$TMP/w.txt" 2>&1
check "a report of the file at any width still parses (200 columns asked, 80 without a tty)" grep -q "placed" "$TMP/w.txt"
# the timeline folds: one lane per LLC (16 of 32 CPUs), the scenario's wakeups by class
"$LOCUS" report -q -i "$TMP/big.data" --svg-timeline "$TMP/big.svg" -o /dev/null
expect_eq "--svg-timeline: exit 0" 0 $?
check "--svg-timeline: 16 LLC lanes, round ticks, a fifth of the wakeups in each class, arrows bounded, each class among them" \
	python3 tests/tools/svg_timeline_check.py "$TMP/big.svg" --lanes 16 --unit LLC \
	--class-counts 2000,2000,2000,2000,2000 --every-class-drawn
if command -v rsvg-convert >/dev/null; then
	check "--svg-timeline: a real renderer draws it" \
		bash -c "rsvg-convert -o '$TMP/big.png' '$TMP/big.svg' && test -s '$TMP/big.png'"
fi
if command -v perf >/dev/null; then
	expect_eq "perf script reads every sample of the file" 30200 "$(perf script -i "$TMP/big.data" 2>/dev/null | wc -l)"
	check "perf decodes the samples as schedgen wrote them" bash -c \
		"perf script -i '$TMP/big.data' 2>/dev/null | grep -q 'sched_waking: comm=ponger pid=10001 prio=120 target_cpu=000'"
fi
finish
