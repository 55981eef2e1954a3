#!/usr/bin/env bash
# docs.sh - every option --help lists is in the command's man page; man pages render; install.
. "$(dirname "$0")/../lib.sh"

help_opts() { "$LOCUS" "$@" --help | grep -Eo -- '--[a-z][a-z-]*' | sort -u; }
for spec in "stat:locus-stat.1" "run:locus-run.1" "top:locus-top.1" "diff:locus-diff.1" "record:locus-record.1" "report:locus-report.1" "doctor:locus-doctor.1" "list:locus-list.1" \
	    "bench pingpong:locus-bench.1" "bench falseshare:locus-bench.1"; do
	cmd=${spec%%:*} page=man/${spec#*:}
	# shellcheck disable=SC2086
	for opt in $(help_opts $cmd); do
		esc=$(sed 's/-/\\\\-/g' <<<"$opt")
		check "'locus $cmd' option $opt is in $page" grep -q -- "$esc" "$page"
	done
done
for cmd in run top diff stat record report doctor list bench; do
	check "locus(1) lists '$cmd'" grep -q "^\.B $cmd$" man/locus.1
	check "locus --help lists '$cmd'" bash -c "\"$LOCUS\" --help | grep -q '^  $cmd '"
done
# every help text fits 80 columns (option texts fold under their column)
for cmd in "" run top stat diff record report doctor list "bench pingpong" "bench falseshare"; do
	# shellcheck disable=SC2086
	check "'locus $cmd --help' fits 80 columns" bash -c "\"$LOCUS\" $cmd --help |
		awk 'length(\$0) > 80 { print \"too wide: \" \$0; bad = 1 } END { exit bad }'"
done
for page in man/*.1; do
	out=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
	check "$page renders without warnings" test -z "$out"
done
make -s install DESTDIR="$TMP/root" PREFIX=/usr >/dev/null 2>&1
check "make install puts the binary under DESTDIR/PREFIX" test -x "$TMP/root/usr/bin/locus"
check "make install puts the man pages under DESTDIR/PREFIX" test -f "$TMP/root/usr/share/man/man1/locus-stat.1"
check "man finds locus-run where make install put it" \
	bash -c "MANPATH='$TMP/root/usr/share/man' man -w locus-run | grep -q locus-run.1"
check "make install puts the bash completion in place" test -f "$TMP/root/usr/share/bash-completion/completions/locus"
# make demo in a fresh clone (as root): locus on PATH, its man pages and completion, under a
# PREFIX in a temp dir here (the suite must not depend on, nor touch, the global install)
if have_root && command -v git >/dev/null; then
	git clone -q "$PWD" "$TMP/clone" 2>/dev/null
	make -s -C "$TMP/clone" -j2 demo PREFIX="$TMP/prefix" >"$TMP/demo.txt" 2>&1
	expect_eq "make demo in a fresh clone exits 0" 0 $?
	expect_eq "after make demo: command -v locus finds the installed one" "$TMP/prefix/bin/locus" \
		"$(PATH="$TMP/prefix/bin:/usr/bin:/bin" bash -c 'command -v locus')"
	check "after make demo: man locus-run finds its page" \
		bash -c "MANPATH='$TMP/prefix/share/man' man -w locus-run | grep -q '$TMP/prefix/share/man/man1/locus-run.1'"
	check "after make demo: the bash completion is installed" \
		test -f "$TMP/prefix/share/bash-completion/completions/locus"
	check "after make demo: the README's fixtures exist (tests/fixtures/topology/8n512)" \
		test -d "$TMP/clone/tests/fixtures/topology/8n512"
	check "make demo ran locus run on the built-in workload" grep -q "Wakeups of the traced tasks" "$TMP/demo.txt"
else
	skip "make demo installs as root, from a git clone"
fi
# the completion: subcommands, then a subcommand's options from its --help
comp() {
	PATH="$(dirname "$LOCUS"):$PATH" bash -c '. contrib/locus.bash-completion
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _locus; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}
check "completion: 'locus t' offers top" bash -c "$(declare -f comp); comp locus t | grep -qx top"
check "completion: 'locus run --coll' offers --collector" bash -c "$(declare -f comp); comp locus run --coll | grep -qx -- --collector"
check "completion: 'locus run --collector ' offers bpf" bash -c "$(declare -f comp); comp locus run --collector '' | grep -qx bpf"
check "completion: 'locus bench p' offers pingpong" bash -c "$(declare -f comp); comp locus bench p | grep -qx pingpong"
finish
