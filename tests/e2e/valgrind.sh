#!/usr/bin/env bash
# valgrind.sh - short runs of each command under valgrind memcheck: no invalid access, no
# definite leak of locus's own (third-party leaks in tests/valgrind.supp, with the reason).
. "$(dirname "$0")/../lib.sh"

if ! command -v valgrind >/dev/null; then
	skip "valgrind is not installed"
	finish
fi
VG="timeout 300 valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --suppressions=tests/valgrind.supp"
vg() {
	local want=$1 what=$2
	shift 2
	# shellcheck disable=SC2086
	$VG "$LOCUS" "$@" >"$TMP/vg.out" 2>"$TMP/vg.err"
	local rc=$?
	if [ $rc -eq "$want" ]; then ok "valgrind: $what"; else fail "valgrind: $what: exit $rc: $(grep -m3 '==' "$TMP/vg.err")"; fi
}
vg 0 "stat" stat -q -e task-clock,page-faults -o /dev/null -- true
vg 0 "stat -r 3 --json" stat -q -r 3 --json "$TMP/s.json" -o /dev/null -- true
vg 0 "report on a perf sched record file" report -q -i tests/fuzz/corpus/perf-sched-true.data -o /dev/null
vg 0 "report on memory samples" report -q -i tests/fuzz/corpus/memgen-c2c.data -o /dev/null
vg 1 "report on a hostile file" report -q -i tests/fuzz/regress/tracing-data-wrong-header-name.data
vg 0 "diff" diff -q --json "$TMP/d.json" tests/fixtures/sweep/base.json tests/fixtures/sweep/slower2x.json
vg 0 "doctor" doctor
vg 0 "list" list
if have_root; then
	# BPF syscalls are beyond valgrind: the streaming collector here
	vg 0 "run (perf collector)" run -q --collector perf -o /dev/null -- "$LOCUS" bench pingpong --loops 2000
	vg 0 "top --text (perf collector)" top -q --text -n 2 -d 0.2 --collector perf -o /dev/null -- "$LOCUS" bench pingpong --loops 50000
	vg 0 "record" record -q -o "$TMP/r.data" -- "$LOCUS" bench pingpong --loops 2000
fi
finish
