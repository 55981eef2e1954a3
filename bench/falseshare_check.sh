#!/usr/bin/env bash
# falseshare_check.sh - on a machine with PEBS (Intel) or IBS (AMD), check that locus finds
# the hot line of `locus bench falseshare` and both offsets, and that --padded makes the
# HITM go away. It cannot run in a VM without a PMU (this project's CI): there the fixture
# files of tests/e2e/cachelines.sh carry the same checks. Usage: bench/falseshare_check.sh
set -u
cd "$(dirname "$0")/.."
LOCUS=$PWD/locus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if ! "$LOCUS" doctor | grep -Eq '^ok +precise memory samples'; then
	echo "falseshare_check: this machine has no precise memory sampling; see 'locus doctor'" >&2
	exit 77
fi
ncpu=$(nproc)
a=0
b=$((ncpu > 1 ? ncpu - 1 : 0))
fail=0

record() {
	perf c2c record -o "$TMP/$1.data" -- "$LOCUS" bench falseshare --threads 2 --pin "$a,$b" \
		--loops 200000000 ${2:-} >/dev/null 2>&1 || { echo "perf c2c record failed" >&2; exit 1; }
	"$LOCUS" report -q -i "$TMP/$1.data" --json "$TMP/$1.json" >"$TMP/$1.txt"
}

record shared
record padded --padded
python3 - "$TMP/shared.json" "$TMP/padded.json" <<'PY' || fail=1
import json, sys
shared = json.load(open(sys.argv[1])); padded = json.load(open(sys.argv[2]))
top = shared["cachelines"][0]
hitm = top["hitm"]["local"] + top["hitm"]["remote"]
offs = sorted(o["offset"] for o in top["offsets"] if o["hitm"]["local"] + o["hitm"]["remote"])
print("shared: top line", top["address"], "HITM", hitm, "offsets", offs, "verdict", top["verdict"])
assert hitm > 0, "no HITM on the top line"
assert offs[:2] == [0, 8], "both neighbouring fields (+0x0, +0x8) expected"
assert top["verdict"] in ("false_sharing", "false_and_true_sharing"), top["verdict"]
pt = padded["memory"]["hitm"]["local"] + padded["memory"]["hitm"]["remote"]
print("padded: HITM in all", pt)
assert pt * 10 < hitm, "padding should remove most HITM"
PY
grep -m1 "=>" "$TMP/shared.txt"
[ $fail -eq 0 ] && echo "falseshare_check: passed" || echo "falseshare_check: FAILED"
exit $fail
