#!/usr/bin/env bash
# leftover.sh - nothing a workload leaves running outlives locus: background jobs (which
# ignore SIGINT in a shell), daemons (setsid, reparented to locus as their subreaper) and
# a process that ignores SIGTERM are ended after the workload exits, and the report names
# them. The oracle is /proc: the pids seen running beside the workload, looked up after.
. "$(dirname "$0")/../lib.sh"

# locus with SIGINT at its default (a script's background job starts with it ignored, and
# the workload would inherit that: a terminal's Ctrl-C does not)
LOCUS_INT=(python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$LOCUS")

# the live descendants of pid (children first), from /proc
descendants() {
	local p
	for p in $(pgrep -P "$1"); do
		echo "$p"
		descendants "$p"
	done
}
alive() { [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# wait up to 5 s for a descendant of $1 named $2; prints its pid
find_desc() {
	local i p
	for i in $(seq 50); do
		for p in $(descendants "$1"); do
			if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ]; then
				echo "$p"
				return
			fi
		done
		sleep 0.1
	done
}

# Interrupted: SIGINT to locus ends the shell (relayed); its background sleep ignores
# SIGINT and used to survive.
"${LOCUS_INT[@]}" run -- sh -c 'sleep 300 & wait' >"$TMP/int.txt" 2>&1 &
lp=$!
sp=$(find_desc "$lp" sleep)
kill -INT "$lp"
wait "$lp"
rc=$?
expect_eq "run -- sh -c 'sleep 300 & wait', SIGINT: exits 130" 130 "$rc"
if [ -z "$sp" ]; then
	fail "the background sleep was not seen running"
else
	check "no 'sleep 300' left after locus exits (pid $sp)" bash -c "! [ -d /proc/$sp ] || [ \"\$(cat /proc/$sp/comm 2>/dev/null)\" != sleep ]"
	check "the report says it ended sleep[$sp] after the interrupt" \
		grep -q "the workload was interrupted and left 1 process running (sleep\[$sp\]): ended by SIGTERM" "$TMP/int.txt"
fi

# A normal exit: a background job, a daemon (setsid, parent gone: adopted by locus) and
# one that ignores SIGTERM are named, then ended (the last by SIGKILL after the grace).
"$LOCUS" stat --json "$TMP/left.json" -- sh -c 'sleep 300 & (setsid sleep 301 &);
	(trap "" TERM; exec sleep 302) & sleep 1; exit 0' >"$TMP/left.txt" 2>&1 &
lp=$!
pids=""
# the sleeps whose ancestry reaches this locus (the daemon's via it), polled for as long as
# locus runs (not a fixed 3 s: on a loaded machine its start alone can take that long)
while kill -0 "$lp" 2>/dev/null; do
	seen=$(pgrep -f '^sleep 30[012]$' | while read -r p; do
		a=$p
		while [ "$a" -gt 1 ] && [ "$a" != "$lp" ]; do
			a=$(awk '{print $4}' "/proc/$a/stat" 2>/dev/null || echo 1)
		done
		[ "$a" = "$lp" ] && echo "$p"
	done)
	# the most seen at once (a later poll may come after locus ended them)
	[ "$(echo "$seen" | grep -c .)" -gt "$(echo "$pids" | grep -c .)" ] && pids=$seen
	[ "$(echo "$pids" | grep -c .)" -ge 3 ] && break
	sleep 0.1
done
wait "$lp"
expect_eq "stat -- sh (exit 0, three left behind): exits 0" 0 $?
expect_eq "three sleeps seen running under locus" 3 "$(echo "$pids" | grep -c .)"
left=0
for p in $pids; do alive "$p" && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] && left=$((left + 1)); done
expect_eq "none of them left after locus exits" 0 "$left"
check "JSON: 3 processes left running, 2 ended by SIGTERM, 1 by SIGKILL" python3 - "$TMP/left.json" <<'PY'
import json, sys
l = json.load(open(sys.argv[1]))["left_running"]
assert l["processes"] == 3 and l["ended_by_sigterm"] == 2 and l["ended_by_sigkill"] == 1, l
PY
check "the text report names them in one line" grep -Eq '^ \(the workload exited and left 3 processes running \(.*\): 2 ended by SIGTERM, 1 by SIGKILL' "$TMP/left.txt"

# Nothing left: nothing said.
"$LOCUS" stat -- true >"$TMP/none.txt" 2>&1
check "a workload that leaves nothing: no such line" bash -c "! grep -q 'left .* running' '$TMP/none.txt'"
finish
