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
	perf script -i "$f" -F comm,pid,tid,cpu,time,event,trace,ip,sym,symoff,dso --show-mmap-events \
		--show-task-events >"$TMP/$name.script" 2>/dev/null
	python3 tests/tools/stacks_oracle.py "$TMP/$name.ow" "$TMP/$name.ob" --names \
		"$TMP/$name.names" <"$TMP/$name.script" >"$TMP/$name.oracle"
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
	if "$LOCUS" report -q -a -i "$f" --json "$TMP/$name.named.json" >/dev/null; then
		names_as_perf "$name" "$3"
	else
		fail "$name: locus report --json failed"
	fi
}

# names_as_perf NAME MIN_KERNEL: the frames of the JSON's top stacks that both locus and
# perf name: a kernel frame by the same name; a user frame by the same name or by another
# symbol of the same file at the same address (an alias: __write and __GI___libc_write),
# checked with readelf. At least MIN_KERNEL kernel frames compared.
names_as_perf() {
	python3 - "$TMP/$1.named.json" "$TMP/$1.names" "$2" "$TMP/names.note" <<'PY' && ok "$1: frame names equal perf script's where both name them ($(cat "$TMP/names.note"))" || fail "$1: frame names: $(cat "$TMP/names.note")"
import json, os, re, subprocess, sys
s = json.load(open(sys.argv[1]))["stacks"]
perf = {}
for l in open(sys.argv[2]):
    a, rest = l.split(" ", 1)  # a C++ name has spaces: the last two fields are file, start
    n, dso, start = rest.rsplit(" ", 2)
    perf.setdefault(int(a, 16), []).append((n, dso, int(start, 16)))
syms = {}
def elf_syms(dso):
    if dso not in syms:
        out = subprocess.run(["readelf", "-Ws", "--dyn-syms", dso], capture_output=True, text=True).stdout
        syms[dso] = {}
        for l in out.splitlines():
            f = l.split()
            if len(f) >= 8 and f[3] == "FUNC":
                syms[dso].setdefault(f[7].split("@")[0], set()).add(int(f[1], 16))
    return syms[dso]
kern = user = alias = 0
bad = []
for k in ("wakers", "blocked", "offwake"):
    for r in s[k]["top"]:
        for fr in r["frames"] + r.get("waker_frames", []):
            a, n = int(fr["addr"], 16), fr["name"]
            if n == "[unknown]" or a not in perf:
                continue
            names = [p[0] for p in perf[a]]
            if fr["kernel"]:
                kern += 1
                if n not in names:
                    bad.append((hex(a), n, names))
            elif n in names:
                user += 1
            elif any(p[2] in elf_syms(p[1]).get(n, ()) for p in perf[a] if os.path.exists(p[1])):
                alias += 1
            else:
                bad.append((hex(a), n, names))
open(sys.argv[4], "w").write(
    "%d kernel, %d user frames the same, %d user aliases at the same address; %d differ %s" %
    (kern, user, alias, len(bad), bad[:3]))
sys.exit(1 if bad or kern < int(sys.argv[3]) else 0)
PY
}

if "$LOCUS" record -q -g -o "$TMP/g.data" -- hackbench -p -g 2 -l 300 >/dev/null 2>"$TMP/rec.err"; then
	same_as_perf locus "$TMP/g.data" 10
else
	fail "locus record -g: $(tail -1 "$TMP/rec.err")"
fi

if perf record -q -g -e sched:sched_switch,sched:sched_waking -o "$TMP/p.data" -- \
	hackbench -g 2 -l 300 >/dev/null 2>&1; then
	same_as_perf perf "$TMP/p.data" 10
else
	skip "perf record -g failed here"
fi

# The default report follows the workload's tree: fewer wakeups and sleeps than -a, not none
if [ -f "$TMP/g.data" ] && "$LOCUS" report -q -i "$TMP/g.data" --json "$TMP/scoped.json" >/dev/null; then
	check "the workload's stacks (the default scope) are a part of every task's, not none" \
		python3 -c '
import json, sys
a, w = (json.load(open(p))["stacks"] for p in sys.argv[1:3])
assert w["scope"] == "followed" and a["scope"] == "all"
for k in ("wakers", "blocked"):
    assert 0 < w[k]["count"] <= a[k]["count"], (k, w[k]["count"], a[k]["count"])' \
		"$TMP/locus.named.json" "$TMP/scoped.json"
else
	fail "locus report of the workload's tree failed"
fi

# The flame graphs of the same stacks: each frame's value the sum of the folded stacks
# under its path (tests/e2e/flame_check.py widths), for a count and a time view, named.
if [ -f "$TMP/g.data" ] && "$LOCUS" report -q -a -i "$TMP/g.data" \
	--folded "blocked=$TMP/fb.folded" --flame "blocked=$TMP/fb.svg" \
	--folded "offwake-time=$TMP/fo.folded" --flame "offwake-time=$TMP/fo.svg" >/dev/null; then
	while read -r line; do
		case $line in
		"ok - "*) ok "flame: ${line#ok - }" ;;
		"FAIL - "*) fail "flame: ${line#FAIL - }" ;;
		esac
	done < <(for v in fb fo; do
		python3 tests/e2e/flame_check.py widths "$TMP/$v.svg" "$TMP/$v.folded" 2>&1
	done)
	check "flame: kernel frames named from the file's kallsyms (schedule in the blocked graph)" \
		grep -q '>schedule' "$TMP/fb.svg"
else
	fail "locus report --flame failed"
fi

# Live: locus run -g (the perf stream). Against the same run: every sched_waking of the
# workload's tasks has its waker's stack (the wakeup analyzer's source_events), and the
# voluntary switch-outs are rusage's voluntary switches of the same tasks less their
# exits (a task's last switch-out, X or Z, is not a sleep): 0 <= difference <= tasks.
if "$LOCUS" run -q -g --json "$TMP/run.json" -- hackbench -p -g 2 -l 200 >/dev/null 2>&1; then
	check "run -g: stacks of every waking, voluntary switch-outs as rusage's less exits" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s, w, ru = d["stacks"], d["wakeups"], d["context_switch_rusage"]
assert s["wakings"] == w["source_events"] > 0, (s["wakings"], w["source_events"])
assert s["wakings_without_callchain"] == 0 and s["voluntary_switches_without_callchain"] == 0
diff = ru["voluntary"] - s["voluntary_switches"]
assert 0 <= diff <= w["new_tasks"] + 1, (ru["voluntary"], s["voluntary_switches"], w["new_tasks"])
names = [f["name"] for r in s["wakers"]["top"] for f in r["frames"]]
assert "try_to_wake_up_[k]" in names, names[:8]' "$TMP/run.json"
else
	fail "locus run -g failed"
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

# Another probe on the tracepoints (here the BPF collector of another locus) makes the kernel
# call them through their iterator, and each callchain gains a __traceiter_sched_waking leaf
# frame (perf script of the same file shows it): folded without it, as a run alone folds
if "$LOCUS" doctor 2>/dev/null | grep -q '^ok  *BPF collector'; then
	"$LOCUS" run -q --collector bpf -a -- sleep 6 >/dev/null 2>&1 &
	other=$!
	sleep 1.5
	"$LOCUS" record -q -g -o "$TMP/it.data" -- hackbench -g 1 -l 200 >/dev/null 2>&1
	wait $other
	"$LOCUS" report -q -i "$TMP/it.data" --folded "wakers=$TMP/it.w" >/dev/null 2>&1
	n=$(perf script -i "$TMP/it.data" 2>/dev/null | grep -c '__traceiter_sched_waking')
	if [ "${n:-0}" -eq 0 ]; then
		skip "no __traceiter_ frame in perf script of a recording beside another probe: nothing to fold"
	else
		check "a tracepoint's iterator frame ($n in perf script) is not a leaf of the folded stacks" \
			bash -c "[ -s '$TMP/it.w' ] && ! grep -q '__traceiter_' '$TMP/it.w'"
	fi
else
	skip "the iterator frame: the BPF collector does not load here"
fi

finish
