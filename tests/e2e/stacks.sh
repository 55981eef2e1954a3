#!/usr/bin/env bash
# stacks.sh - callchains of sched_waking and sched_switch (record -g, perf record -g): the
# folded waker and blocked stacks of locus report equal, every stack and its count, what
# tests/tools/stacks_oracle.py counts from `perf script` of the SAME file (by address: perf
# prints resolved user frames as file offsets, the oracle maps them back through the MMAP2
# records perf printed). Once on a locus record -g file, once on perf's own; with a busy
# loop beside the workload. A file whose callchain length is hostile: one-line error.
. "$(dirname "$0")/../lib.sh"

if ! have_root || ! command -v perf >/dev/null || ! command -v hackbench >/dev/null; then
	skip "stacks: needs root, perf and hackbench"
	finish
fi

sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null; rm -rf "$TMP"' EXIT

# same_as_perf NAME FILE: locus's folded stacks of FILE against the oracle's of perf script
same_as_perf() {
	local name=$1 f=$2 kind n
	perf script -i "$f" -F comm,pid,tid,cpu,time,event,trace,ip,sym,dso --show-mmap-events \
		--show-task-events >"$TMP/$name.script" 2>/dev/null
	python3 tests/tools/stacks_oracle.py "$TMP/$name.ow" "$TMP/$name.ob" \
		<"$TMP/$name.script" >"$TMP/$name.oracle"
	cat "$TMP/$name.oracle"
	if ! "$LOCUS" report -q -a -i "$f" --stack-addresses --folded "wakers=$TMP/$name.w" \
		--folded "blocked=$TMP/$name.b" --json "$TMP/$name.json" >"$TMP/$name.txt"; then
		fail "$name: locus report --folded failed"
		return
	fi
	for kind in w b; do
		n=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/$name.o$kind")
		if [ "$n" -lt 500 ]; then
			fail "$name: the oracle counted only $n stacks ($kind): nothing to compare"
			continue
		fi
		if cmp -s <(sort "$TMP/$name.$kind") <(sort "$TMP/$name.o$kind"); then
			ok "$name: $([ $kind = w ] && echo waker || echo blocked) stacks equal perf script's, every stack exact ($(wc -l <"$TMP/$name.$kind") stacks, $n samples)"
		else
			fail "$name: $kind stacks differ from perf script's: $(diff <(sort "$TMP/$name.$kind") <(sort "$TMP/$name.o$kind") | head -4 | cut -c1-200)"
		fi
	done
	# the text and the JSON tell the same totals
	python3 - "$TMP/$name.json" "$TMP/$name.ow" "$TMP/$name.ob" <<'PY' && ok "$name: JSON totals equal the oracle's" || fail "$name: JSON totals"
import json, sys
s = json.load(open(sys.argv[1]))["stacks"]
tot = lambda p: sum(int(l.split()[-1]) for l in open(p))
assert s["wakers"]["count"] == tot(sys.argv[2]), (s["wakers"]["count"], tot(sys.argv[2]))
assert s["blocked"]["count"] == tot(sys.argv[3]), (s["blocked"]["count"], tot(sys.argv[3]))
assert sum(c["count"] for c in s["wakers"]["by_class"].values()) == s["wakers"]["count"]
assert s["offwake"]["count"] <= s["blocked"]["count"] and s["offwake"]["count"] > 0
PY
}

if "$LOCUS" record -q -g -o "$TMP/g.data" -- hackbench -p -g 2 -l 300 >/dev/null 2>"$TMP/rec.err"; then
	same_as_perf locus "$TMP/g.data"
else
	fail "locus record -g: $(tail -1 "$TMP/rec.err")"
fi

if perf record -q -g -e sched:sched_switch,sched:sched_waking -o "$TMP/p.data" -- \
	hackbench -g 2 -l 300 >/dev/null 2>&1; then
	same_as_perf perf "$TMP/p.data"
else
	skip "perf record -g failed here"
fi

# A hostile callchain length: the first sample's nr made huge; one line, exit 1, no crash.
python3 - "$TMP/g.data" "$TMP/bad.data" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", b, 40)  # the data section (a finished locus file)
at = off
while at < off + size:
    typ, misc, sz = struct.unpack_from("<IHH", b, at)
    if typ == 9:  # SAMPLE: IDENTIFIER IP TID TIME CPU, then the callchain's nr
        struct.pack_into("<Q", b, at + 48, 1 << 40)
        break
    at += sz
open(sys.argv[2], "wb").write(b)
PY
"$LOCUS" report -q -a -i "$TMP/bad.data" --folded "wakers=$TMP/bad.w" >/dev/null 2>"$TMP/bad.err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.err")" -eq 1 ] && grep -q '^locus: ' "$TMP/bad.err"; then
	ok "a hostile callchain length: one-line error, exit 1 ($(cut -c1-120 "$TMP/bad.err"))"
else
	fail "a hostile callchain length: exit $rc, $(head -3 "$TMP/bad.err")"
fi

finish
