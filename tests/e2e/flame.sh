#!/usr/bin/env bash
# flame.sh - flame graphs and every SVG locus writes, checked against the same files:
# folded stacks of real workloads (perf record -g of sched_switch, collapsed by
# tests/tools/stackcollapse.py from perf script of the same file), the frames' widths and
# the differential colours against the folded files, the text's moved stacks against shares
# computed from them, the reader's one-line errors on bad lines, and each SVG rendered by
# rsvg-convert and by headless Chromium (a real click zooms a flame graph; ?s= searches).
# The PNGs stay in tests/out/flame/ to be looked at.
. "$(dirname "$0")/../lib.sh"

# flame_check.py's "ok - "/"FAIL - " lines counted as this script's checks
tally() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"FAIL - "*) fail "${line#FAIL - }" ;;
		*) echo "$line" ;;
		esac
	done
}
pycheck() { tally < <(python3 tests/e2e/flame_check.py "$@" 2>&1); }
PNG=tests/out/flame
rm -rf "$PNG" && mkdir -p "$PNG"
[ -x build/flamegen ] || make -s build/flamegen >/dev/null 2>&1

# --- the reader: strict, one line, the file and line named ---
printf 'a;b 3\nc;;d 2\n' >"$TMP/bad.folded"
printf 'a;b 3\n' >"$TMP/good.folded"
"$LOCUS" diff "$TMP/bad.folded" "$TMP/good.folded" >/dev/null 2>"$TMP/err"
rc=$?
expect_eq "a bad folded line: exit 1" 1 "$rc"
expect_eq "a bad folded line: one line naming file and line" \
	"locus: $TMP/bad.folded:2: an empty frame (frames are separated by single ';', none empty)" \
	"$(cat "$TMP/err")"
printf '[unknown];main;read 2\n' >"$TMP/unknown-first.folded"
"$LOCUS" diff "$TMP/unknown-first.folded" "$TMP/good.folded" >/dev/null 2>&1
expect_eq "a folded file opening with '[unknown]' is read as stacks, not JSON" 0 $?
# the unwinder's [unknown] frames: at a stack's root they are dropped, so two walks of one
# path (one ending on a bogus return address) are one stack, and nothing moved; kept as
# recorded with --keep-unknown-frames, the same two files show the move
printf '[unknown];[unknown];main;write 10\nmain;read 5\n' >"$TMP/u-base.folded"
printf 'main;write 10\nmain;read 5\n' >"$TMP/u-new.folded"
"$LOCUS" diff --json "$TMP/u.json" "$TMP/u-base.folded" "$TMP/u-new.folded" >/dev/null 2>&1
check "[unknown] root frames folded: the same path, nothing moved" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stacks"] == 2 and all(abs(m["change"]) < 1e-12 for m in d["moved"]), d' "$TMP/u.json"
"$LOCUS" diff --keep-unknown-frames --json "$TMP/uk.json" "$TMP/u-base.folded" "$TMP/u-new.folded" \
	>/dev/null 2>&1
check "--keep-unknown-frames: as recorded, the move shows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stacks"] == 3 and max(abs(m["change"]) for m in d["moved"]) > 0.6, d' "$TMP/uk.json"
"$LOCUS" diff --flame "$TMP/x.svg" tests/fuzz/corpus-sweep/base.json tests/fuzz/corpus-sweep/base.json \
	>/dev/null 2>"$TMP/err"
expect_eq "--flame on loop files refused as usage (2)" 2 $?
check "... saying why" grep -q "compare stacks" "$TMP/err"
"$LOCUS" diff tests/fuzz/corpus-sweep/base.json tests/fuzz/corpus-sweep/base.json >"$TMP/loop.txt" 2>/dev/null
check "locus diff of loop files unchanged: still compares the loops" grep -q "ratio" "$TMP/loop.txt"

# --- hostile frames: escaped, well-formed, drawn by both renderers ---
python3 - "$TMP/hostile.folded" <<'PY'
import sys
deep = ";".join(f"f{i}" for i in range(10000))
with open(sys.argv[1], "w") as f:
    f.write('main;<script>alert(1)</script>;a&b 5\n')
    f.write('main;"quoted" \'single\';]]>;x 3\n')
    f.write("main;" + "L" * 4000 + " 4\n")
    f.write("main;" + deep + " 2\n")
    f.write("main;caf\xc3\xa9;[unknown];read_[k] 6\n".encode("latin-1").decode("utf-8"))
PY
build/flamegen "$TMP/hostile.folded" "$TMP/hostile.svg"
check "hostile frames: the SVG is well-formed XML" python3 -c \
	"import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$TMP/hostile.svg"
check "hostile frames: no raw markup from a frame" sh -c "! grep -q '<script>alert' $TMP/hostile.svg"
check "hostile frames: the 10,000-frame stack cut at 1,024 and said" \
	grep -q "1 stack deeper than 1024 frames cut there" "$TMP/hostile.svg"

svgs=("$TMP/hostile.svg")
folded_of=("") # each SVG's folded file (the new one of a differential), for the search oracle

# --- locus diff --svg: base and new loops overlaid, against the JSON of the same comparison ---
for pr in base:slower2x tbench_base:tbench_stacked; do
	a=tests/fixtures/sweep/${pr%%:*}.json b=tests/fixtures/sweep/${pr#*:}.json
	"$LOCUS" diff -q --svg "$TMP/diff-${pr#*:}.svg" --json "$TMP/diff-${pr#*:}.json" "$a" "$b" >/dev/null
	check "locus diff --svg ${pr%%:*} ${pr#*:} exits 0" test $? -eq 0
	pycheck diffsvg "$TMP/diff-${pr#*:}.svg" "$TMP/diff-${pr#*:}.json"
	svgs+=("$TMP/diff-${pr#*:}.svg")
	folded_of+=("")
done
"$LOCUS" diff --svg "$TMP/x.svg" "$TMP/good.folded" "$TMP/good.folded" >/dev/null 2>&1
expect_eq "--svg on folded files refused as usage (2)" 2 $?

# --- real workloads: sched_switch stacks of pinned vs unpinned ping-pong, pipe vs socket ---
collapse() { # perf.data -> folded, perf script of the same file
	perf script -i "$1" 2>/dev/null | python3 tests/tools/stackcollapse.py >"$2"
}
record_g() { # OUT.data CMD...: sched_switch with callchains
	local out=$1
	shift
	perf record -q -g -e sched:sched_switch -o "$out" -- "$@" >/dev/null 2>&1
}
pair() { # NAME BASE NEW: the differential flame graph and its oracles
	local n=$1 a=$2 b=$3
	"$LOCUS" diff --top 10 --flame "$TMP/$n.svg" --json "$TMP/$n.json" "$a" "$b" >"$TMP/$n.txt"
	check "$n: locus diff of two folded files exits 0" test $? -eq 0
	pycheck difftext "$TMP/$n.txt" "$a" "$b" 10
	pycheck diffcolours "$TMP/$n.svg" "$a" "$b"
	pycheck widths "$TMP/$n.svg" "$b"
	check "$n: the JSON lists the moved stacks" python3 -c \
		"import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not d['moved'])" "$TMP/$n.json"
	cp "$TMP/$n.txt" "$PNG/$n.txt"
	cp "$a" "$b" "$PNG/" # kept beside the pictures: a failure can be replayed
	svgs+=("$TMP/$n.svg")
	folded_of+=("$b")
}
if ! have_root || ! command -v perf >/dev/null; then
	skip "real workloads: perf record -g of sched_switch needs root and perf"
else
	record_g "$TMP/pin.data" "$LOCUS" bench pingpong --loops 20000 --pin 0,1
	record_g "$TMP/free.data" "$LOCUS" bench pingpong --loops 20000
	collapse "$TMP/pin.data" "$TMP/pin.folded"
	collapse "$TMP/free.data" "$TMP/free.folded"
	build/flamegen "$TMP/free.folded" "$TMP/flame-free.svg"
	pycheck widths "$TMP/flame-free.svg" "$TMP/free.folded"
	svgs+=("$TMP/flame-free.svg")
	folded_of+=("$TMP/free.folded")
	pair pingpong-pinned-vs-free "$TMP/pin.folded" "$TMP/free.folded"
	if command -v hackbench >/dev/null; then
		record_g "$TMP/pipe.data" hackbench -p -g 2 -l 300
		record_g "$TMP/sock.data" hackbench -g 2 -l 300
		collapse "$TMP/pipe.data" "$TMP/pipe.folded"
		collapse "$TMP/sock.data" "$TMP/sock.folded"
		pair hackbench-pipe-vs-socket "$TMP/pipe.folded" "$TMP/sock.folded"
	else
		skip "pipe vs socket: hackbench absent (rt-tests)"
	fi
	# recordings with callchains: locus diff reads their stacks as locus report --folded
	# writes them (the same files: the tables equal), and report's own --flame
	"$LOCUS" record -q -g -o "$TMP/gpin.data" -- "$LOCUS" bench pingpong --loops 5000 --pin 0,1 \
		>/dev/null 2>&1
	"$LOCUS" record -q -g -o "$TMP/gfree.data" -- "$LOCUS" bench pingpong --loops 5000 >/dev/null 2>&1
	for v in wakers blocked-time; do
		"$LOCUS" report -i "$TMP/gpin.data" --folded "$v=$TMP/gpin.$v" >/dev/null 2>&1
		"$LOCUS" report -i "$TMP/gfree.data" --folded "$v=$TMP/gfree.$v" \
			--flame "$v=$TMP/report-$v.svg" >/dev/null 2>&1
		"$LOCUS" diff --stacks "$v" --top 1000 --flame "$TMP/rec-$v.svg" "$TMP/gpin.data" \
			"$TMP/gfree.data" >"$TMP/rec-$v.all" 2>&1
		"$LOCUS" diff --top 1000 "$TMP/gpin.$v" "$TMP/gfree.$v" >"$TMP/fold-$v.all" 2>&1
		check "diff of two recordings says the view it compared ($v)" \
			grep -q "^  the view compared: $v (" "$TMP/rec-$v.all"
		for t in rec fold; do # the table, from its column heads
			sed -n '/^ *base  *new  *change /,$p' "$TMP/$t-$v.all" >"$TMP/$t-$v.txt"
		done
		check "diff of two recordings (--stacks $v) equals diff of their --folded $v files" \
			cmp -s "$TMP/rec-$v.txt" "$TMP/fold-$v.txt"
		check "... and compares something ($(wc -l <"$TMP/rec-$v.txt") lines)" \
			test "$(wc -l <"$TMP/rec-$v.txt")" -gt 3
		pycheck widths "$TMP/report-$v.svg" "$TMP/gfree.$v"
		pycheck diffcolours "$TMP/rec-$v.svg" "$TMP/gpin.$v" "$TMP/gfree.$v"
		svgs+=("$TMP/report-$v.svg" "$TMP/rec-$v.svg")
		folded_of+=("$TMP/gfree.$v" "$TMP/gfree.$v")
	done
	# pinned (0,1) vs same-CPU (0,0) recordings: no move is made only of [unknown] frames
	# (two stacks that differ only by them would be one path, once walked further)
	"$LOCUS" record -q -g -o "$TMP/gsame.data" -- "$LOCUS" bench pingpong --loops 5000 --pin 0,0 \
		>/dev/null 2>&1
	"$LOCUS" diff --top 1000 --json "$TMP/pin-same.json" --flame "$TMP/pin-same.svg" \
		"$TMP/gpin.data" "$TMP/gsame.data" >"$TMP/pin-same.txt" 2>&1
	"$LOCUS" diff --top 1000 --json "$TMP/pin-same-k.json" --keep-unknown-frames \
		"$TMP/gpin.data" "$TMP/gsame.data" >/dev/null 2>&1
	check "pinned vs same-CPU recordings: no stack's move made only of [unknown] frames" \
		python3 - "$TMP/pin-same.json" "$TMP/pin-same-k.json" <<'PY'
import json, sys
def twins(path):
    d = json.load(open(path))
    known = {}
    for m in d["moved"]:
        k = ";".join(f for f in m["stack"].split(";") if f != "[unknown]")
        known.setdefault(k, []).append(m["stack"])
    t = [v for v in known.values() if len(v) > 1]
    print("%s: %d stacks moved, %d with [unknown] frames, %d told apart only by them"
          % (path.rsplit("/", 1)[-1], len(d["moved"]),
             sum("[unknown]" in m["stack"] for m in d["moved"]), len(t)))
    return d, t
d, t = twins(sys.argv[1])
twins(sys.argv[2])  # as recorded: shown (whether the unwinder split a path varies by run)
assert d["moved"] and not t, t[:2]
PY
	svgs+=("$TMP/pin-same.svg")
	folded_of+=("")
	# the other pictures locus draws: heatmap, timeline, loop chart
	"$LOCUS" record -q -o "$TMP/rec.data" -- "$LOCUS" bench pingpong --loops 3000 >/dev/null 2>&1
	"$LOCUS" report -i "$TMP/rec.data" --svg "$TMP/heatmap.svg" --svg-timeline "$TMP/timeline.svg" \
		>/dev/null 2>&1
	"$LOCUS" run -q -r 2 --svg "$TMP/loop.svg" -- "$LOCUS" bench pingpong --loops 2000 \
		>/dev/null 2>&1
	for f in heatmap timeline loop; do
		if [ -s "$TMP/$f.svg" ]; then
			svgs+=("$TMP/$f.svg")
			folded_of+=("")
		else
			fail "locus wrote no $f.svg"
		fi
	done
fi

# --- every SVG through rsvg-convert ---
if command -v rsvg-convert >/dev/null; then
	for s in "${svgs[@]}"; do
		n=$(basename "$s" .svg)
		check "rsvg-convert renders $n.svg" rsvg-convert "$s" -o "$PNG/$n.rsvg.png"
	done
else
	skip "rsvg-convert absent (librsvg2-bin)"
fi

# --- and through headless Chromium, a click zooming each flame graph ---
py=""
for p in python3 /usr/bin/python3; do
	if $p -c 'import websocket' 2>/dev/null; then py=$p; break; fi
done
if ! command -v chromium >/dev/null; then
	skip "headless Chromium: chromium absent (scripts/deps.sh --test installs Debian's)"
elif [ -z "$py" ]; then
	skip "headless Chromium: python3-websocket absent (scripts/deps.sh --test installs it)"
else
	args=()
	for i in "${!svgs[@]}"; do
		cp "${svgs[$i]}" "$PNG/"
		args+=("$(basename "${svgs[$i]}")${folded_of[$i]:+:${folded_of[$i]}}")
	done
	(cd "$PNG" && $py ../../../tests/e2e/flame_check.py browser . "${args[@]}") \
		>"$TMP/browser.out" 2>&1
	tally <"$TMP/browser.out"
	grep -q "^ok - chromium rendered" "$TMP/browser.out" || fail "chromium: nothing rendered"
fi
finish
