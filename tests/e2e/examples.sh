#!/usr/bin/env bash
# examples.sh - every command the README and the man pages' EXAMPLES show, run as written
# on the built tree (`locus` on PATH is ./locus), in the order they are given, so files one
# makes are there for the next. A command passes when it exits 0 (0 or 1 with --exit-code);
# what cannot run here is skipped with the reason (hardware, a server, your own program).
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "the examples trace sched tracepoints (locus run, record): they need root"
	finish
fi
mkdir -p "$TMP/bin"
ln -s "$LOCUS" "$TMP/bin/locus"
BUDGET=${EXAMPLE_SECONDS:-120}

# The commands of a man page's EXAMPLES (.nf blocks): \- is -, \e is \, continued lines
# joined; comments and requests left out.
man_examples() {
	awk '/^\.SH EXAMPLES/ { e = 1; next } /^\.SH/ { e = 0 } e && !/^\./' "$1" |
		sed 's/\\-/-/g; s/\\e/\\/g' | awk '
		{ sub(/[ \t]+#.*$/, "") }
		/^[ \t]*#/ || /^[ \t]*$/ { next }
		{ line = line $0 }
		/\\$/ { sub(/\\$/, "", line); next }
		{ gsub(/[ \t]+/, " ", line); print line; line = "" }'
}
# The README's: "$ locus ..." lines, and 4-space code lines that start with locus or perf
# outside fenced blocks (those hold output and scripts; bisect.sh runs the step script).
readme_examples() {
	awk '/^```/ { f = !f; next }
		/^ *\$ locus / { sub(/^ *\$ /, ""); print; next }
		!f && /^    (locus|perf) / { sub(/^    /, ""); sub(/[ \t]+#.*$/, ""); print }' README.md
}
# Why a command cannot run here, or nothing when it can.
why_not() {
	local f
	case "$1" in
	*"-- tbench "*) echo "needs a tbench_srv on 127.0.0.1 (a server the doc assumes running)"; return ;;
	"locus top"*) echo "interactive: tests/e2e/top.sh drives the dashboard in tmux"; return ;;
	*./bench* | *./server*) echo "'./bench' and './server' stand for your own program"; return ;;
	"sudo "*) command -v sudo >/dev/null ||
		echo "sudo is not installed (this is root: 'locus doctor' ran as is)"; return ;;
	*c2c.data*) echo "c2c.data stands for a perf c2c record file (tests/e2e/cachelines.sh makes them)"; return ;;
	*big.data*) echo "big.data stands for a file from a big machine"; return ;;
	"git bisect"*) echo "a git bisect of kernels: tests/e2e/bisect.sh runs one with locus diff --exit-code"; return ;;
	esac
	for f in $(inputs "$1"); do
		[ -e "$f" ] || { echo "$f is not there: made by a step skipped above, or one the text describes (another kernel)"; return; }
	done
}
# locus diff's options that take a value, as its --help lists them ("--json FILE", "-o, --output FILE")
DIFF_VALUED=" $("$LOCUS" diff --help 2>&1 | grep -oE -- '(-[a-zA-Z], )?--[a-z-]+ [A-Z]+' |
	sed -E 's/ [A-Z]+$//; s/, / /' | tr '\n' ' ') "
# The files a command reads: each -i's, and locus diff's operands (not its options' values),
# up to a pipe or a redirection.
inputs() {
	local words w diff=0 skipnext=0 i
	read -ra words <<<"$1"
	for ((i = 0; i < ${#words[@]}; i++)); do
		w=${words[i]}
		case "$w" in
		"|" | "||" | "&&" | ";" | ">"* | "<"* | "&") diff=0; continue ;;
		esac
		if [ "$skipnext" = 1 ]; then skipnext=0; continue; fi
		if [ "$w" = -i ]; then echo "${words[i + 1]}"; skipnext=1; continue; fi
		if [ "$w" = diff ] && [ "${words[i - 1]:-}" = locus ]; then diff=1; continue; fi
		[ "$diff" = 1 ] || continue
		case "$DIFF_VALUED" in
		*" $w "*) skipnext=1 ;;
		*) [[ $w == -* ]] || echo "$w" ;;
		esac
	done
}
run_all() { # run_all WHERE: read commands on stdin, run each in $TMP/WHERE (stdin not for them)
	local where=$1 cmd why rc
	mkdir -p "$TMP/$where"
	ln -sfn "$PWD/tests" "$TMP/$where/tests"
	while IFS= read -r cmd; do
		why=$(cd "$TMP/$where" && why_not "$cmd")
		if [ -n "$why" ]; then
			skip "$where: '$cmd': $why"
			continue
		fi
		(cd "$TMP/$where" && PATH="$TMP/bin:$PATH" timeout -s INT "$BUDGET" bash -c "$cmd" \
			</dev/null >"$TMP/out.txt" 2>&1)
		rc=$?
		if [ $rc -eq 124 ] || [ $rc -eq 130 ]; then
			skip "$where: '$cmd': longer than ${BUDGET}s on this machine (EXAMPLE_SECONDS)"
		elif [ $rc -eq 0 ] || { [ $rc -eq 1 ] && [[ $cmd == *--exit-code* ]]; }; then
			ok "$where: '$cmd'"
		else
			fail "$where: '$cmd' exits $rc: $(grep -m1 '^locus:' "$TMP/out.txt" || tail -n 1 "$TMP/out.txt")"
		fi
	done
}
# Pages in the order their files flow: record makes hb.data, report reads it.
man_all() {
	local page
	for page in locus locus-stat locus-run locus-bench locus-diff locus-doctor locus-record \
		locus-report locus-top; do
		man_examples "man/$page.1"
	done
}
# not through a pipe: run_all's tally must stay in this shell
run_all readme < <(readme_examples)
run_all man < <(man_all)
finish
