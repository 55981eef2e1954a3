#!/usr/bin/env bash
# run.sh - run every test layer (unit, unit under ASan/UBSan, end-to-end) and end with
# one summary line: "check: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
failed=()

run_unit() {
	local bin=$1 out p f rc
	out=$("$bin" 2>&1)
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -n 1)
	p=${p:-0} f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed or a sanitizer stopped it
	fi
	pass=$((pass + p)) fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		failed+=("$bin")
		printf '%s\n' "$out" | tail -n 30
	fi
	printf '%-40s %3d passed, %d failed\n' "$bin" "$p" "$f"
}

for bin in build/unit/test_* build/unit-san/test_*; do
	case $bin in *.d) continue ;; esac
	[ -x "$bin" ] && run_unit "$bin"
done

# Mutated perf.data files through the reader under ASan: each read or rejected with a message.
if [ -x build/mutate-san ]; then
	out=$(build/mutate-san tests/fuzz/corpus "${LOCUS_MUTATIONS:-10000}" 2>&1)
	rc=$?
	line=$(grep '^mutate:' <<<"$out")
	if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed+=("build/mutate-san")
		printf '%s\n' "$out" | tail -n 30
	fi
	printf '%-40s %s\n' "build/mutate-san" "${line:-crashed (exit $rc)}"
fi

# A short libFuzzer pass of every target (reader and every renderer), a fixed seed and number
# of executions from the committed corpora; new inputs go to a scratch directory.
for target in perfdata:corpus sweep:corpus-sweep schedstat:corpus-schedstat folded:corpus-folded; do
	bin=build/fuzz_${target%%:*}
	[ -x "$bin" ] || continue
	scratch=build/fuzz-check-${target%%:*}
	rm -rf "$scratch" && mkdir -p "$scratch"
	out=$("$bin" -seed=1 -runs="${LOCUS_FUZZ_RUNS:-5000}" -max_len=65536 -timeout=10 \
		"$scratch" "tests/fuzz/${target#*:}" 2>&1)
	rc=$?
	line=$(grep -E '^#[0-9]+[[:space:]]+DONE' <<<"$out" | sed -E 's/^#([0-9]+)[[:space:]]+DONE[[:space:]]+(cov: [0-9]+).*/\1 runs, \2/')
	if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed+=("$bin")
		printf '%s\n' "$out" | grep -v '^#' | tail -n 30
	fi
	printf '%-40s %s\n' "$bin" "${line:-crashed (exit $rc)}"
done

mkdir -p tests/out
for t in tests/e2e/*.sh; do
	log=tests/out/$(basename "$t" .sh).log
	bash "$t" >"$log" 2>&1
	rc=$?
	line=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		fail=$((fail + 1))
		failed+=("$t (no result line, exit $rc)")
		tail -n 20 "$log"
		printf '%-40s did not finish (exit %d)\n' "$t" "$rc"
		continue
	fi
	read -r p f s <<<"$(sed -E 's/^e2e: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/' <<<"$line")"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" -ne 0 ]; then
		failed+=("$t")
		# each failure with the lines before it (what its oracle printed)
		grep -B 6 -E '^FAIL' "$log" | grep -v '^ok - ' | head -n 60
	fi
	printf '%-40s %3d passed, %d failed, %d skipped\n' "$t" "$p" "$f" "$s"
done

for f in "${failed[@]}"; do
	echo "failed: $f"
done
echo "check: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
