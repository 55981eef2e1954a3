#!/usr/bin/env bash
# regress.sh - hostile files pinned to their outcome, and every renderer on every fixture
# file, all under the ASan/UBSan build (-fno-sanitize-recover: undefined behaviour stops it).
# A regression file X has X.expect: the one line its outcome must be (what was read, or
# the rejection's message). No root needed: nothing is recorded.
. "$(dirname "$0")/../lib.sh"
SAN=$PWD/build/locus-san
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
TOPO=tests/fixtures/topology/desktop-4c8t

if [ ! -x "$SAN" ]; then
	skip "build/locus-san is not built (make check builds it)"
	finish
fi

sanitizer_clean() {
	! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$1"
}

# The outcome of reading a perf.data file, as one line.
report_outcome() {
	local f=$1 rc
	rm -f "$TMP/r.json"
	"$SAN" report -q -a -i "$f" --sysfs-root "$TOPO" --json "$TMP/r.json" --svg "$TMP/r.svg" \
		-o "$TMP/r.txt" 2>"$TMP/e.txt"
	rc=$?
	printf 'exit=%d' "$rc"
	[ -s "$TMP/r.json" ] && python3 - "$TMP/r.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
i = d["input"]
w = d.get("wakeups", {}).get("total", "-")
print(" records=%d samples=%d sched=%d mem=%d wakeups=%s" % (i["records"], i["samples"], i["sched_samples"], i["memory_samples"], w), end="")
EOF
	[ -s "$TMP/e.txt" ] && printf ' error=%s' "$(head -n 1 "$TMP/e.txt" | sed "s|^locus: $f: ||")"
	echo
}

# The outcome of reading a loop's file (locus diff of the file with itself), as one line.
diff_outcome() {
	local f=$1 rc
	rm -f "$TMP/d.json"
	"$SAN" diff -q --json "$TMP/d.json" "$f" "$f" >"$TMP/r.txt" 2>"$TMP/e.txt"
	rc=$?
	printf 'exit=%d' "$rc"
	[ -s "$TMP/d.json" ] && python3 - "$TMP/d.json" <<'EOF'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["measure"] == "metric"]
print(" metric_runs=" + ",".join("%s:%d" % (r["value"], r["base"]["n"]) for r in rows), end="")
EOF
	[ -s "$TMP/e.txt" ] && printf ' error=%s' "$(head -n 1 "$TMP/e.txt" | sed "s|^locus: $f: ||")"
	echo
}

for f in tests/fuzz/regress/*.data tests/fuzz/regress/*.json; do
	want=$(cat "${f%.*}.expect" 2>/dev/null) || { fail "$f has no .expect file"; continue; }
	case $f in
	*.data) got=$(report_outcome "$f") ;;
	*) got=$(diff_outcome "$f") ;;
	esac
	if ! sanitizer_clean "$TMP/e.txt"; then
		fail "regression $(basename "$f"): sanitizer report: $(grep -m1 -E 'runtime error|Sanitizer' "$TMP/e.txt")"
	else
		expect_eq "regression $(basename "$f"): $want" "$want" "$got"
	fi
done

# Every renderer on every fixture file: text at two widths and every section, JSON, SVG.
"$PWD/build/memgen" "$TMP/mem.data" tests/fixtures/topology/2s16c2t-64 300
"$PWD/build/schedgen" "$TMP/s512.data" tests/fixtures/topology/8n512 tests/fixtures/tracefs-tree 40 5
for f in tests/fuzz/corpus/*.data "$TMP/mem.data" "$TMP/s512.data"; do
	name=$(basename "$f")
	bad=""
	for cols in 80 200; do
		COLUMNS=$cols "$SAN" report -q -a -i "$f" --sysfs-root "$TOPO" --sections all \
			--json "$TMP/x.json" --svg "$TMP/x.svg" >"$TMP/x.txt" 2>"$TMP/e.txt"
		rc=$?
		sanitizer_clean "$TMP/e.txt" || bad="sanitizer report at $cols columns: $(grep -m1 -E 'runtime error|Sanitizer' "$TMP/e.txt")"
		[ $rc -eq 0 ] || bad="exit $rc at $cols columns: $(head -n 1 "$TMP/e.txt")"
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/x.json" 2>/dev/null || bad="invalid JSON"
	done
	if [ -n "$bad" ]; then fail "render $name: $bad"; else ok "render $name: text (80, 200 columns), JSON, SVG"; fi
done
for f in tests/fixtures/sweep/*.json tests/fuzz/corpus-sweep/*.json; do
	"$SAN" diff -q --json "$TMP/d.json" "$f" "$f" >"$TMP/d.txt" 2>"$TMP/e.txt"
	rc=$?
	if ! sanitizer_clean "$TMP/e.txt"; then
		fail "diff $(basename "$f"): sanitizer report: $(grep -m1 -E 'runtime error|Sanitizer' "$TMP/e.txt")"
	elif [ $rc -ne 0 ]; then
		fail "diff $(basename "$f"): exit $rc: $(head -n 1 "$TMP/e.txt")"
	else
		ok "diff $(basename "$f"): text and JSON"
	fi
done
finish
