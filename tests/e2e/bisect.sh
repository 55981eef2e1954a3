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
