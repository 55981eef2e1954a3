# lib.sh - helpers of the lab's checks, which run inside a guest (scripts/lab.sh): those of
# tests/lib.sh (ok, fail, check, finish), and a run recorded by perf for wake_oracle.py.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
LAB=$PWD/tests/lab
OUT=${LAB_OUT:-$TMP}	# what the lab brings back
KERNEL=$(uname -r)
# the system's python: a version manager's shim on PATH (pyenv here) spends seconds a call in
# an emulated guest starting its own shell scripts
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
TPS=sched:sched_waking,sched:sched_switch,sched:sched_migrate_task,sched:sched_wakeup_new
TPS=$TPS,sched:sched_process_fork,sched:sched_process_exit

if ! have_root || ! [ -d /sys/kernel/tracing/events/sched ]; then
	skip "the lab's checks run as root in a guest of scripts/lab.sh (no sched tracepoints here)"
	finish
fi

# recorded NAME LOCUS-ARGS...: `locus LOCUS-ARGS` under perf record of the sched events of
# every CPU into $TMP/NAME.data; its workload (after --) roots $TMP/NAME.root. Then
# $TMP/NAME.oracle.json (wake_oracle.py) and $TMP/NAME.report.json (locus report of the same
# file, the perf stream's analysis of that run). Returns locus's status.
recorded() {
	local name=$1 rc args=() seen=0
	shift
	for a in "$@"; do
		if [ $seen -eq 0 ] && [ "$a" = -- ]; then
			args+=(-- "$LAB/root.sh" "$TMP/$name.root")
			seen=1
		else
			args+=("$a")
		fi
	done
	perf record -q -m 1024 -a -e "$TPS" -o "$TMP/$name.data" -- "$LOCUS" "${args[@]}"
	rc=$?
	perf script -i "$TMP/$name.data" --ns -F pid,tid,cpu,time,event,trace 2>/dev/null |
		"$PY" "$LAB/wake_oracle.py" --root "$(cat "$TMP/$name.root")" >"$TMP/$name.oracle.json"
	"$LOCUS" report -q -i "$TMP/$name.data" -p "$(cat "$TMP/$name.root")" --sections wakeups,pairs \
		--json "$TMP/$name.report.json" >/dev/null 2>&1
	return $rc
}

# keep FILE...: copy to what the lab brings back
keep() { cp "$@" "$OUT/" 2>/dev/null; }
