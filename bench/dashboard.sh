#!/usr/bin/env bash
# dashboard.sh - what `locus top` itself costs: CPU of its main thread (snapshots, interval
# deltas, drawing) at a 1 s refresh, in a tmux pane, over a ping-pong that keeps the
# collector busy. Medians of N runs; also with a 512-CPU topology fixture, whose matrices
# make every snapshot as large as a big machine's. Usage: bench/dashboard.sh [N] [SECONDS]
set -u
cd "$(dirname "$0")/.."
N=${1:-5}
SECS=${2:-20}
LOCUS=$PWD/locus
TMP=$(mktemp -d)
SOCK=locus-bench-$$
trap 'tmux -L $SOCK kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "dashboard.sh: needs root (tracepoints)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "dashboard.sh: needs tmux" >&2; exit 1; }

# one SIZE EXTRA...: prints the main thread's share of one CPU, in percent
one() {
	local size=$1 x=${1%x*} y=${1#*x}
	shift
	rm -f "$TMP/err" "$TMP/done"
	tmux -L $SOCK new-session -d -x "$x" -y "$y" \
		"TERM=xterm-256color LANG=C.UTF-8 $LOCUS top -v -n $SECS -d 1 -o /dev/null $* -- $LOCUS bench pingpong --loops 100000000 2>$TMP/err; touch $TMP/done"
	for _ in $(seq 1 $((SECS * 10 + 300))); do [ -e "$TMP/done" ] && break; sleep 0.1; done
	tmux -L $SOCK kill-server 2>/dev/null
	sed -n 's/.*(\([0-9.]*\)% of one CPU).*/\1/p' "$TMP/err"
}

. bench/lib.sh

: >"$TMP/a"
: >"$TMP/b"
for _ in $(seq 1 "$N"); do
	one 120x40 >>"$TMP/a"
	one 200x60 --sysfs-root tests/fixtures/topology/8n512 >>"$TMP/b"
done
echo "## Dashboard cost (locus top, 1 s refresh, ${SECS} s, median of $N)"
echo
echo "CPU time of locus top's main thread (snapshot, interval delta, render, draw) as a share of"
echo "one CPU, while locus collects an unpinned ping-pong (~80k wakeups/s here; BPF collector)."
echo
echo "| screen | topology | main thread, % of one CPU | runs |"
echo "| --- | --- | --- | --- |"
echo "| 120x40 | this machine ($(nproc) CPUs) | $(median <"$TMP/a") | $(tr '\n' ' ' <"$TMP/a")|"
echo "| 200x60 | 8n512 fixture (512 CPUs, 8 nodes) | $(median <"$TMP/b") | $(tr '\n' ' ' <"$TMP/b")|"
