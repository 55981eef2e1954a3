#!/usr/bin/env bash
# bisect.sh - locus diff --exit-code: its codes on fixtures, then a real `git bisect run`
# over a repository whose benchmark gets slower at one commit (and cannot run at another).
. "$(dirname "$0")/../lib.sh"
FIX=tests/fixtures/sweep

code() { "$LOCUS" diff -q --exit-code "$@" >/dev/null 2>"$TMP/code.err"; echo $?; }

expect_eq "exit-code: the same batch again is 0" 0 "$(code $FIX/base.json $FIX/same.json)"
expect_eq "exit-code: a metric twice as slow is 1" 1 "$(code $FIX/base.json $FIX/slower2x.json)"
expect_eq "exit-code: faster is 0 (better is not worse)" 0 "$(code $FIX/slower2x.json $FIX/base.json)"
expect_eq "exit-code: a new batch without a file is 125 (skip)" 125 "$(code $FIX/base.json "$TMP/none.json")"
expect_eq "exit-code: no base file is 128 (bisect stops)" 128 "$(code "$TMP/none.json" $FIX/base.json)"
python3 - "$FIX/base.json" "$TMP/failed.json" "$TMP/nometric.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["ok"] = False
    r["exit_code"] = 1
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["metric"]["present"] = False
for r in d["runs"]:
    r["measures"].pop("metric", None)
json.dump(d, open(sys.argv[3], "w"))
EOF
expect_eq "exit-code: a batch whose runs all failed is 125" 125 "$(code $FIX/base.json "$TMP/failed.json")"
expect_eq "exit-code: a base without a metric is 128" 128 "$(code "$TMP/nometric.json" $FIX/base.json)"
check "exit-code: says why it stops" grep -q "no run measured a metric" "$TMP/code.err"
expect_eq "without --exit-code a worse metric still exits 0" 0 \
	"$("$LOCUS" diff -q $FIX/base.json $FIX/slower2x.json >/dev/null 2>&1; echo $?)"

# Files that measure different things are not judged: 125 (skip) with one line why.
expect_eq "exit-code: hackbench against tbench (other command, metric, sweep) is 125" 125 \
	"$("$LOCUS" diff --exit-code $FIX/base.json $FIX/tbench_base.json >/dev/null 2>"$TMP/inc.err"; echo $?)"
expect_eq "exit-code 125 says why in one line" 1 "$(wc -l <"$TMP/inc.err")"
check "exit-code 125 names what differs" grep -q "measure different things: commands differ" "$TMP/inc.err"
"$LOCUS" diff $FIX/base.json $FIX/tbench_base.json >"$TMP/inc.txt" 2>/dev/null
check "without --exit-code they are shown, nothing marked" \
	bash -c "grep -q 'not comparable: sweeps differ' '$TMP/inc.txt' && ! grep -q '  \\* ' '$TMP/inc.txt'"
check "the table says how significance is corrected" \
	grep -q "Holm-Bonferroni over the 24 comparisons" <("$LOCUS" diff -q $FIX/base.json $FIX/slower2x.json |
		tr -s ' \n' '  ') # the prose folds at 80 columns

# locus stat -r N --json files diff too: the means are the stat files' own (same files).
for side in a b; do
	"$LOCUS" stat -r 3 --json "$TMP/st-$side.json" -- "$LOCUS" bench pingpong --loops 2000 \
		>/dev/null 2>&1
done
"$LOCUS" stat -r 3 --json "$TMP/st-other.json" -- "$LOCUS" bench pingpong --loops 2001 >/dev/null 2>&1
expect_eq "stat -r 3 pair: diff --exit-code exits 0 or 1 (compared)" yes \
	"$("$LOCUS" diff -q --exit-code --json "$TMP/st.json" "$TMP/st-a.json" "$TMP/st-b.json" \
		>"$TMP/st.txt" 2>&1; rc=$?; [ $rc -le 1 ] && echo yes || echo "no ($rc)")"
check "stat -r 3 pair: every mean and stddev is the stat file's own" python3 - "$TMP/st.json" \
	"$TMP/st-a.json" "$TMP/st-b.json" <<'EOF2'
import json, sys
d, a, b = (json.load(open(f)) for f in sys.argv[1:4])
rows = {r["measure"]: r for r in d["rows"]}
keys = {"task-clock": ("task_clock_ms", 1e-6), "context-switches": ("context_switches", 1),
        "page-faults": ("page_faults", 1)}
assert d["comparable"] and d["significance"]["correction"] == "holm-bonferroni", d
for side, f in (("base", a), ("new", b)):
    r = rows["metric"][side]
    assert r["n"] == 3 == f["runs"], (r, f["runs"])
    assert abs(r["mean"] - f["elapsed_ns"]["mean"] / 1e9) <= 1e-9 * f["elapsed_ns"]["mean"], r
    assert abs(r["stddev"] - f["elapsed_ns"]["stddev"] / 1e9) <= 1e-6 * f["elapsed_ns"]["mean"], r
    for c in f["counters"]:
        if c["name"] in keys and c.get("counted"):
            k, scale = keys[c["name"]]
            got = rows[k][side]
            assert abs(got["mean"] - c["value"] * scale) <= 1e-6 * max(1, c["value"] * scale), (k, got, c)
            assert abs(got["stddev"] - c["stddev"] * scale) <= 1e-6 * max(1, c["value"] * scale), (k, got, c)
EOF2
check "stat -r 3 pair: the text names both runs and the metric" \
	grep -q "metric: elapsed time (lower is better)" "$TMP/st.txt"
check "stat -r 3 pair: each side said to be locus stat's" \
	test "$(grep -c "st-[ab].json: locus stat of '" "$TMP/st.txt")" = 2
# a locus run --json file (one run, no loop) diffs the same way, said to be locus run's
"$LOCUS" run -q --json "$TMP/run1.json" -- "$LOCUS" bench pingpong --loops 2000 >/dev/null 2>&1
"$LOCUS" diff -q "$TMP/st-a.json" "$TMP/run1.json" >"$TMP/sr.txt" 2>/dev/null
check "diff of a stat file and a run file: each named by the command that wrote it" \
	bash -c "grep -q \"st-a.json: locus stat of '\" '$TMP/sr.txt' && grep -q \"run1.json: locus run of '\" '$TMP/sr.txt'"
expect_eq "stat files of two commands: --exit-code is 125" 125 \
	"$("$LOCUS" diff -q --exit-code "$TMP/st-a.json" "$TMP/st-other.json" >/dev/null 2>&1; echo $?)"

# The account names what moved first: a --pin 0,0 batch against a --pin 0,1 batch is a
# locality shift (every wakeup on the same CPU, then every one across the LLC).
if have_root; then
	for pin in 0,0 0,1; do
		"$LOCUS" run -q -r 3 --metric pingpong --json "$TMP/pin$pin.json" -- \
			"$LOCUS" bench pingpong --pin "$pin" --loops 3000 >/dev/null 2>&1
	done
	"$LOCUS" diff -q "$TMP/pin0,0.json" "$TMP/pin0,1.json" >"$TMP/pin.txt" 2>/dev/null
	first=$(sed -n '/What changed/,$p' "$TMP/pin.txt" | sed -n '3p')
	check "diff --pin 0,0 -> 0,1: the locality shift comes first ('$first')" \
		grep -Eq '^     (same-CPU|shared-LLC|SMT-sibling|same-node|other-node) wakeups' <<<"$first"
fi

# A repository of 8 commits: the benchmark's score drops at c6; c4 cannot run it (skipped).
if ! command -v git >/dev/null; then
	skip "git is not installed"
	finish
fi
repo=$TMP/repo
mkdir -p "$repo"
(
	cd "$repo" && git init -q && git config user.email t@t && git config user.name t
	for i in 1 2 3 4 5 6 7 8; do
		score=100
		[ "$i" -ge 6 ] && score=60
		if [ "$i" -eq 4 ]; then
			printf 'echo "does not build" >&2; exit 1\n' >bench.sh
		else
			# two values per batch of 4 runs, alike in every batch: a good commit's
			# batch equals the base's (the pid's noise made one look worse now and
			# then: a 5% false alarm of the t test, and bisect blamed a good commit)
			printf 'n=$(cat %s 2>/dev/null || echo 0); echo $((n + 1)) >%s\n' \
				"$TMP/count" "$TMP/count" >bench.sh
			printf 'echo "score: $((%d + n %% 2))"\n' "$score" >>bench.sh
		fi
		echo "# c$i" >>bench.sh
		git add bench.sh && git commit -qm "c$i"
	done
) || fail "could not make the repository"
cat >"$TMP/step.sh" <<EOF
#!/bin/sh
# one bisect step: measure this commit, compare with the baseline
"$LOCUS" run -q -r 4 --metric 'score: ([0-9]+)' --direction higher --json "$TMP/new.json" \\
	-- sh ./bench.sh >/dev/null 2>&1
exec "$LOCUS" diff -q --exit-code "$TMP/base.json" "$TMP/new.json"
EOF
chmod +x "$TMP/step.sh"
(
	cd "$repo" && git checkout -q HEAD~7 &&
		"$LOCUS" run -q -r 4 --metric 'score: ([0-9]+)' --direction higher \
			--json "$TMP/base.json" -- sh ./bench.sh >/dev/null 2>&1
	git checkout -q master 2>/dev/null || git checkout -q main
	git bisect start HEAD HEAD~7 >/dev/null &&
		git bisect run "$TMP/step.sh" >"$TMP/bisect.log" 2>&1
	git bisect log >"$TMP/bisect.trail" 2>&1
	git bisect reset -q >/dev/null 2>&1
)
first=$(sed -n 's/^# first bad commit: \[[0-9a-f]*\] //p' "$TMP/bisect.trail")
expect_eq "git bisect run finds the commit where the score dropped" "c6" "$first"
check "git bisect run skipped the commit that could not be measured" grep -q "^git bisect skip" "$TMP/bisect.trail"
finish
