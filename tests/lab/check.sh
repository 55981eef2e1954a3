#!/usr/bin/env bash
# check.sh - the whole lab (make lab-check): each guest of scripts/lab.sh, one at a time, runs
# the checks of its topology; the tally of every check, the wall time, and each guest's
# outputs under build/lab/check/NAME/. LAB_GUESTS picks some by name (default all).
# Ends with one line: "lab: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.."
# name kernel smp dies nodes timeout scripts...
guests=(
	"k61-2x2x2 6.1 2x2x2 1 2 3600 collectors schedstat mixed sweep"
	"k612-2x2x2 6.12 2x2x2 1 2 3600 collectors schedstat"
	"k61-2x4x2 6.1 2x4x2 2 2 3600 pinned mixed"
	"k61-4x8x1 6.1 4x8x1 2 4 2400 top"
)
want=${LAB_GUESTS:-}
pass=0 fail=0 skip=0 failed=()
t0=$(date +%s)
mkdir -p build/lab/check
for g in "${guests[@]}"; do
	read -r name kernel smp dies nodes timeout scripts <<<"$g"
	[ -n "$want" ] && [[ " $want " != *" $name "* ]] && continue
	out=build/lab/check/$name log=build/lab/check/$name.log
	rm -rf "$out" && mkdir -p "$out"
	cmd=""
	for s in $scripts; do cmd="$cmd echo '== $s'; tests/lab/$s.sh;"; done
	echo "== $name: kernel $kernel, --smp $smp --dies $dies --nodes $nodes: $scripts"
	g0=$(date +%s)
	scripts/lab.sh --kernel "$kernel" --smp "$smp" --dies "$dies" --nodes "$nodes" \
		--timeout "$timeout" --out "$out" -- bash -c "$cmd" >"$log" 2>&1
	rc=$?
	grep -E '^(== |FAIL|skip|e2e:|lab: up)' "$log" | sed 's/^/   /'
	if [ $rc -eq 77 ]; then
		skip=$((skip + 1))
		echo "   skipped: $(grep 'cannot run here' "$log" | tail -n 1)"
		continue
	fi
	n=0
	while read -r p f s; do
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s)) n=$((n + 1))
		[ "$f" -ne 0 ] && failed+=("$name")
	done < <(sed -n -E 's/^e2e: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p' "$log")
	if [ "$n" -ne "$(wc -w <<<"$scripts")" ]; then
		fail=$((fail + 1))
		failed+=("$name (a script did not finish: exit $rc, $log)")
		tail -n 15 "$log" | sed 's/^/   | /'
	fi
	echo "   $((($(date +%s) - g0))) s"
done
for f in "${failed[@]}"; do echo "failed: $f"; done
echo "lab: $pass passed, $fail failed, $skip skipped in $((($(date +%s) - t0))) s"
[ "$fail" -eq 0 ]
