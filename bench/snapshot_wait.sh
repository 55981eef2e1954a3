#!/usr/bin/env bash
# snapshot_wait.sh - how long the perf stream's reader waits for a dashboard snapshot:
# locus top --text at 0.1 s refreshes with the 512-CPU topology fixture (its matrices are
# a 512-CPU machine's) over hackbench -g 20 (800 tasks), the perf collector; the reader's
# longest wait for the lock and the longest a snapshot held it, as locus -v reports them.
# Usage: bench/snapshot_wait.sh [N] [BEFORE_BINARY]  (medians of N; BEFORE_BINARY: another
# build of locus, run interleaved with this one)
set -u
cd "$(dirname "$0")/.."
N=${1:-5}
BEFORE=${2:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "snapshot_wait.sh: needs root" >&2; exit 1; }

one() { # BINARY -> "wait held" in ms
	"$1" top --text -v -q -d 0.1 --exit-on-end --collector perf \
		--sysfs-root tests/fixtures/topology/8n512 -- hackbench -g 20 -l 1500 \
		>/dev/null 2>"$TMP/err"
	sed -n 's/.*waited at most \([0-9.]*\) ms for the lock, a snapshot held it at most \([0-9.]*\) ms.*/\1 \2/p' "$TMP/err" | tail -1
}
. bench/lib.sh

for _ in $(seq 1 "$N"); do
	[ -n "$BEFORE" ] && one "$BEFORE" >>"$TMP/before"
	one ./locus >>"$TMP/after"
done
echo "## The reader's wait for a dashboard snapshot: $(date -u +%Y-%m-%d), locus top -d 0.1, 512-CPU fixture, hackbench -g 20 -l 1500, perf collector, median of $N interleaved"
echo
echo "| build | reader's longest wait (ms) | a snapshot held the lock at most (ms) |"
echo "| --- | --- | --- |"
for side in before after; do
	[ -s "$TMP/$side" ] || continue
	printf '| %s | %s | %s |\n' "$side" "$(cut -d' ' -f1 "$TMP/$side" | median)" \
		"$(cut -d' ' -f2 "$TMP/$side" | median)"
done
