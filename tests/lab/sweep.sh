#!/usr/bin/env bash
# sweep.sh - in a lab guest: the seeds' experiment. tbench (server on 127.0.0.1) in a
# benchmark loop, locus run -r RUNS --sweep clients=..., once with a scheduler feature on and
# once off (/sys/kernel/debug/sched/features, set by the command itself before tbench: the
# same command line in both files), then locus diff of the two: its table and its account
# of what moved. SWEEP_FEATURES (default "WA_IDLE WA_WEIGHT": wake_affine's two ways of
# pulling a wakee to its waker's CPU, off together: it stays near where it last ran),
# SWEEP_RUNS (5), SWEEP_CLIENTS (2,4), TBENCH_SECONDS (3).
. "$(dirname "$0")/lib.sh"

F=/sys/kernel/debug/sched/features
feats=${SWEEP_FEATURES:-WA_IDLE WA_WEIGHT}
for f in $feats; do
	if ! grep -qw "$f" "$F" 2>/dev/null; then
		skip "no scheduler feature $f in $F on $KERNEL"
		finish
	fi
done
cmd='for f in $LAB_FEATURES; do echo $f >/sys/kernel/debug/sched/features || exit 1; done
tbench_srv >/dev/null 2>&1 & s=$!; sleep 1; tbench -t '"${TBENCH_SECONDS:-3}"' {clients} 127.0.0.1; kill $s'
feat=${feats// /+}
for state in on off; do
	v=$feats
	[ $state = off ] && v=$(printf 'NO_%s ' $feats)
	LAB_FEATURES=$v "$LOCUS" run -q -r "${SWEEP_RUNS:-5}" --sweep "clients=${SWEEP_CLIENTS:-2,4}" \
		--metric tbench --json "$TMP/$state.json" -- sh -c "$cmd" >"$TMP/$state.txt" 2>&1
	expect_eq "$feat $state: the loop exits 0" 0 $?
	check "$feat $state: the features were set ($v)" sh -c 'for f in $0; do grep -qw $f '"$F"' || exit 1; done' "$v"
	check "$feat $state: every run has tbench's metric" "$PY" - "$TMP/$state.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
print(len(runs), "runs:", ", ".join("clients=%s %.2f MB/s" % (r["value"], r["measures"]["metric"])
                                    for r in runs if r.get("ok")))
assert runs and all(r.get("ok") and r["measures"].get("metric") is not None for r in runs), runs[:1]
PY
done
for f in $feats; do echo "$f" >"$F"; done
"$LOCUS" diff "$TMP/on.json" "$TMP/off.json" >"$TMP/diff.txt" 2>&1
expect_eq "locus diff on off: exit 0" 0 $?
cat "$TMP/diff.txt"
"$LOCUS" diff -q --json "$TMP/diff.json" "$TMP/on.json" "$TMP/off.json" >/dev/null 2>&1
check "locus diff: a row per clients value and measure, both files comparable" "$PY" - \
	"$TMP/diff.json" "${SWEEP_CLIENTS:-2,4}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["comparable"], d.get("not_comparable_because")
vals = sorted({r["value"] for r in d["rows"]})
print("values", vals, "rows", len(d["rows"]), "significant",
      [(r["value"], r["measure"]) for r in d["rows"] if r["significant"]])
assert vals == sorted(sys.argv[2].split(",")), (vals, sys.argv[2])
assert all(r["base"]["n"] >= 2 and r["new"]["n"] >= 2 for r in d["rows"])
PY
keep "$TMP/diff.txt" "$TMP/diff.json" "$TMP/on.json" "$TMP/off.json" "$TMP/on.txt" "$TMP/off.txt"
finish
