#!/usr/bin/env bash
# same_outputs.sh - two builds of locus, the same inputs: every output byte for byte.
#
#   tests/tools/same_outputs.sh OLD_LOCUS NEW_LOCUS INPUTS_DIR [FILTER]
#   (MODE=static: the byte-for-byte invocations only; MODE=live: the live runs only)
#
# Runs each invocation below with OLD, then with NEW, from the same working directory (each
# binary copied to the same path, so messages naming either read alike), and compares
# stdout, stderr, the exit status and every file the run wrote there, byte for byte. The
# inputs: tests/fixtures, tests/fuzz corpora and regressions, and INPUTS_DIR, recordings made
# once (locus record plain, -g, --blame, -a, -p, and recaff*.data with affinity records; perf
# record -g; perf sched record; schedgen and memgen files). FILTER (a grep -E pattern) runs only the invocations it
# matches. Live runs cannot be byte-identical: `live` compares the sections their text
# prints and the keys of their JSON. Prints each difference and ends with
# "same_outputs: N invocations, N identical, N different".
set -u
OLD=$(readlink -f "$1") NEW=$(readlink -f "$2") IN=$(readlink -f "$3") FILTER=${4:-}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin" "$WORK/run" "$WORK/a" "$WORK/b"
n=0 same=0 differ=0

# One invocation, as a string of words (no quoting inside: paths have no spaces).
MODE=${MODE:-all}
# wanted SKIPPED-MODE ARGS: whether to run ARGS (not in that mode, matching $FILTER), counted
wanted() {
	[ "$MODE" = "$1" ] && return 1
	[ -n "$FILTER" ] && ! grep -Eq -- "$FILTER" <<<"$2" && return 1
	n=$((n + 1))
}
# side_setup a|b: that side's binary in place, an empty directory to run in
side_setup() {
	if [ "$1" = a ]; then cp "$OLD" "$WORK/bin/locus"; else cp "$NEW" "$WORK/bin/locus"; fi
	rm -rf "$WORK/run" && mkdir "$WORK/run"
}
one() {
	local args=$1 stdin=${2:-/dev/null} side
	wanted live "$args" || return
	for side in a b; do
		side_setup $side
		# shellcheck disable=SC2086
		(cd "$WORK/run" && COLUMNS=100 "$WORK/bin/locus" $args <"$stdin" >"$WORK/$side.out" \
			2>"$WORK/$side.err"; echo $? >"$WORK/$side.rc")
		rm -rf "$WORK/$side.files" && cp -r "$WORK/run" "$WORK/$side.files"
	done
	if cmp -s "$WORK/a.out" "$WORK/b.out" && cmp -s "$WORK/a.err" "$WORK/b.err" &&
	   cmp -s "$WORK/a.rc" "$WORK/b.rc" && diff -r -q "$WORK/a.files" "$WORK/b.files" >/dev/null; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERENT: locus $args"
		for f in out err rc; do
			cmp -s "$WORK/a.$f" "$WORK/b.$f" ||
				diff "$WORK/a.$f" "$WORK/b.$f" | head -8 | sed "s/^/  $f: /"
		done
		diff -r "$WORK/a.files" "$WORK/b.files" | head -8 | sed 's/^/  files: /'
	fi
}

F=$REPO/tests/fixtures
C=$REPO/tests/fuzz/corpus
TOPO=$F/topology

# --help and usage of every command, and the top level.
for c in run stat top record report diff list doctor bench; do
	one "$c --help"
	one "$c -h"
	one "$c --no-such-option"
done
one ""
one "--help"
one "--version"
one "frob"
one "list"
one "doctor"
one "doctor extra"
one "list extra"
for bad in "pingpong --pin 0" "pingpong --pin 0,99999" "pingpong --loops 0" "pingpong --pairs x" \
	   "falseshare --threads 65" "falseshare --pin 7-1" "nosuch" "pingpong extra"; do
	one "bench $bad"
done

# Usage errors of the counting commands (checked before anything runs).
for c in run stat top record; do
	for bad in "-r 0 -- true" "-r x -- true" "-C 99999 -- true" "-p 1 -a -- true" "-p x -- true" \
		   "-e nosuch:event -- true" "-o /nonexist/dir/x -- true" "--json /nonexist/x.json -- true" \
		   "-m 3 -- true" "--collector frob -- true" "--collector perf --btf x -- true" \
		   "--collector bpf --tracefs /x -- true" "--collector bpf -m 8 -- true" \
		   "--sysfs-root /nonexist -- true" "--max-tasks 0 -- true" "--delay-rate x -- true" \
		   "-r 2" "-p 999999999 -- true" "-p 1,x -- true"; do
		[ "$c $bad" = "run -r 2" ] && continue # the built-in workload: live
		one "$c $bad"
	done
done
for bad in "--sections frob -- true" "--sections blame --folded wakers=x -- true" \
	   "-g -r 2 -- true" "--folded wakers=x -- true" "--folded frob=x -g -- true" \
	   "--svg /nonexist/x.svg -- true" "--sweep N=1,2 -- true" "--metric frob -- true" \
	   "--direction up --metric x(1) -- true"; do
	one "run $bad"
done
for bad in "-d 0 -- true" "-n 0 -- true" "--workload-output /nonexist/x" \
	   "--workload-output x.txt -a"; do
	one "top $bad"
done
for bad in "" "-o - -- true" "-p 1" "--from 1 -- true" "--to 1 --from 2 --trace x -- true" \
	   "--trace-limit 5 -- true" "--trace /nonexist/x.json -- true" "--from x --trace y -- true"; do
	one "record $bad"
done

# locus report of every file, with every output option.
files="$IN/rec.data $IN/recg.data $IN/recg2.data $IN/recblame.data $IN/reca.data $IN/recp.data
       $(ls $IN/recaff*.data 2>/dev/null)
       $IN/perfg.data $IN/perfsched.data $IN/gen512.data $IN/lossy.data $IN/c2c.data"
for f in $C/*.data $REPO/tests/fuzz/regress/*.data; do files="$files $f"; done
for f in $files; do
	one "report -i $f"
	one "report -i $f --json j.json -o t.txt"
	one "report -i $f --json -"
	one "report -i $f -q --svg h.svg -o /dev/null"
	one "report -i $f --trace t.json --svg-timeline t.svg -o t.txt"
	one "report -i $f -a --sections all,blame --json j.json"
	one "report -i $f --sections all,blame --trace t.json --json j.json -o t.txt"
	one "report -i $f --sections wakeups,latency -q"
	one "report -i $f --sections cachelines --line-size 128 -d lcl"
	one "report -i $f -v -o /dev/null"
done
for f in $IN/rec.data $IN/recg.data $IN/recblame.data $IN/perfsched.data $IN/lossy.data \
	 $IN/gen512.data; do
	one "report -i $f --from 0.01 --to 0.05 --trace w.json --svg-timeline w.svg --json j.json -o t.txt"
	one "report -i $f --from 0.02 -a -o t.txt --trace-limit 1 --trace w.json"
	one "report -i $f --from 1000 --trace w.json"
	one "report -i $f --sections blame -o t.txt --json j.json"
	one "report -i $f -a --sections blame --trace b.json"
done
for f in $IN/recg.data $IN/recg2.data $IN/perfg.data; do
	for k in wakers blocked offwake blocked-time offwake-time; do
		one "report -i $f -q --folded $k=s.folded --flame $k=s.svg -o t.txt --json j.json"
	done
	one "report -i $f -a --folded wakers=s.folded --stack-addresses -o t.txt"
	one "report -i $f -p 1 --folded blocked=s.folded -o t.txt"
done
for f in $IN/lossy.data $IN/gen512.data; do
	one "report -i $f --sysfs-root $TOPO/desktop-4c8t -a"
done
one "report -i $IN/c2c.data -d rmt --line-size 64"
one "report -i $IN/c2c.data -d tot --json -"
one "report -i -" "$C/perf-pipe.data"
one "report -i - --json j.json --trace t.json" "$IN/rec.data"
one "report -i /nonexist.data"
one "report -i $REPO/README.md"
for bad in "-p x" "-p 1 -a" "--sections counters" "--sections frob" "--line-size 96" "-d frob" \
	   "extra" "--from 1" "--trace-limit 1" "--to 1 --from 2 --trace x" "--folded frob" \
	   "--folded wakers" "--json /nonexist/x"; do
	one "report -i $IN/rec.data $bad"
done

# locus diff: loop files, stat files, folded files, recordings.
S=$F/sweep
one "diff $S/base.json $S/same.json"
one "diff $S/base.json $S/slower2x.json --json d.json --svg d.svg -o d.txt"
one "diff $S/base.json $S/slower2x.json --exit-code"
one "diff $S/base.json $S/same.json $S/slower2x.json"
one "diff $S/tbench_base.json $S/tbench_stacked.json"
one "diff $S/tbench_base.json $S/tbench_stacked.json --exit-code -q --json -"
one "diff $REPO/tests/fuzz/corpus-sweep/base.json $REPO/tests/fuzz/corpus-sweep/stat.json"
one "diff $REPO/tests/fuzz/regress/sweep-metric-null.json $S/base.json"
one "diff $REPO/tests/fuzz/regress/sweep-run-1e300.json $S/base.json"
one "diff $S/base.json"
one "diff $S/base.json /nonexist.json"
one "diff /nonexist.json $S/base.json --exit-code"
one "diff $S/base.json $S/same.json --flame x.svg"
FO=$REPO/tests/fuzz/corpus-folded
one "diff $FO/pingpong-pinned.folded $FO/hostile.folded"
one "diff $FO/pingpong-pinned.folded $FO/hostile.folded --flame f.svg --top 5 -o d.txt --json d.json"
one "diff $IN/a.folded $IN/b.folded --flame f.svg"
one "diff $IN/a.folded $IN/b.folded --svg x.svg"
one "diff $IN/a.folded $IN/b.folded --exit-code"
one "diff $IN/a.folded $S/base.json"
one "diff $IN/a.folded $IN/b.folded --top 0"
for v in wakers blocked offwake blocked-time offwake-time; do
	one "diff $IN/recg.data $IN/recg2.data --stacks $v --flame f.svg --json d.json"
done
one "diff $IN/recg.data $IN/perfg.data"
one "diff $IN/perfg.data $IN/recg2.data --top 3 -o d.txt"
one "diff $IN/recg.data $IN/a.folded --flame f.svg"
one "diff $IN/a.folded $IN/recg2.data"
one "diff $IN/rec.data $IN/recg.data"
one "diff $IN/recg.data $IN/rec.data"
one "diff $IN/recg.data $IN/recg2.data --stacks frob"

# Live runs: the same sections in the text and the same keys in every JSON file, the same
# files written, the same exit status (their numbers differ run to run).
shape() { # FILE: its JSON keys two levels deep (lists as []), or its text's section heads
	python3 - "$1" <<'PY'
import json, re, sys
path = sys.argv[1]
try:
    doc = json.load(open(path))
except Exception:
    doc = None
if doc is not None:
    keys = set()
    def walk(v, at):
        if at.count(".") >= 2:  # deeper keys come and go with what a run met
            return
        if isinstance(v, dict):
            for k, x in v.items():
                if k.startswith("own_cost"):  # the kernel's bpf_stats, on or off
                    continue
                keys.add(at + "." + k)
                walk(x, at + "." + k)
        elif isinstance(v, list):
            for x in v:
                walk(x, at + "[]")
    walk(doc, "")
    print("\n".join(sorted(keys)))
else:
    seen = []
    for line in open(path, errors="replace"):
        m = re.match(r"^ ([A-Z][^0-9:(]*)", line)
        if m and m.group(1) not in seen:
            seen.append(m.group(1))
    print("\n".join(seen))
PY
}
live() {
	local args=$1 side f
	wanted static "$args" || return
	for side in a b; do
		side_setup $side
		# shellcheck disable=SC2086
		(cd "$WORK/run" && COLUMNS=100 "$WORK/bin/locus" ${args//@L/$WORK/bin/locus} \
			</dev/null >"$WORK/run/stdout" 2>/dev/null; echo $? >"$WORK/run/rc")
		rm -rf "$WORK/$side.files" && mkdir "$WORK/$side.files"
		for f in "$WORK/run"/*; do
			case $f in *.data) continue ;; esac
			shape "$f" >"$WORK/$side.files/${f##*/}"
		done
	done
	if diff -r -q "$WORK/a.files" "$WORK/b.files" >/dev/null; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERENT (live): locus $args"
		diff -r "$WORK/a.files" "$WORK/b.files" | head -12 | sed 's/^/  /'
	fi
}
if [ "$(id -u)" -eq 0 ]; then
	PP="@L bench pingpong --pin 0,1 --loops 2000"
	for col in perf bpf; do
		live "run --collector $col --json j.json -o t.txt -- $PP"
		live "run --collector $col --sections all,blame --json j.json -o t.txt -- $PP"
		live "run --collector $col -g --json j.json -o t.txt -- $PP"
		live "run --collector $col -r 2 --json j.json -o t.txt -- $PP"
		live "top --collector $col --text -n 2 -d 0.3 --json j.json -o t.txt -- $PP"
	done
	live "run --collector perf -g --folded wakers=w.folded -o t.txt -- $PP"
	live "run -o t.txt --svg h.svg -- $PP"
	live "stat --json j.json -o t.txt -- $PP"
	live "stat -r 2 --json j.json -o t.txt -- $PP"
	live "record -o r.data -- $PP"
	live "record -g --blame -o r.data -- $PP"
	live "record -o r.data --trace t.json --svg-timeline t.svg -- $PP"
	live "record -o r.data --trace t.json --from 0.01 --to 0.05 -- $PP"
	live "record -a -o r.data --trace t.json -- sleep 0.3"
fi

echo "same_outputs: $n invocations, $same identical, $differ different"
