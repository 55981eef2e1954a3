#!/usr/bin/env bash
# switches.sh - voluntary and involuntary switches as the kernel counts them. The kernel
# counts a switch involuntary (nivcsw) when it preempted the task or the task was still
# runnable; sched_switch carries the state it read (prev_state), and every source must
# use it: a state read later (the BPF program's prev->__state) may already be a racing
# wakeup's. Oracle: the kernel's rusage of the same tasks in the same run (locus run's
# own split, from wait4), and GNU time's rusage of the workload under locus record.
. "$(dirname "$0")/../lib.sh"

need_sched_two_cpus

# split JSON: "ok", "lost N" (the ring buffer lost records: no exact count to compare), or
# an assertion naming the counts
split_check() {
	python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ru, sc = d["context_switch_split"], d["context_switches"]
lost = d["provenance"]["drops"]["records_lost"] or 0
print("rusage %d/%d, sched section %d/%d (voluntary/involuntary), lost %d" % (
    ru["voluntary"], ru["involuntary"], sc["voluntary"], sc["involuntary"], lost))
if lost:
    print("lost", lost)
    sys.exit(3)
assert sc["voluntary"] + sc["involuntary"] >= 20000, sc
assert abs(sc["involuntary"] - ru["involuntary"]) <= 3, ("involuntary", sc, ru)
assert abs(sc["voluntary"] - ru["voluntary"]) <= 3, ("voluntary", sc, ru)
EOF
}

# Cross-CPU wakeups race the switch-out (--pin 0,1); same-CPU ones preempt (--pin 0,0).
for c in bpf perf; do
	m=; [ "$c" = perf ] && m="-m 1024" # the BPF collector has no ring to size: it refuses -m
	for pin in 0,1 0,0; do
		if ! "$LOCUS" run -q --collector "$c" $m --json "$TMP/s.$c.json" -- "$LOCUS" \
			bench pingpong --pin "$pin" --loops 20000 >/dev/null 2>"$TMP/s.err"; then
			if [ "$c" = bpf ] && grep -q "BPF\|bpf" "$TMP/s.err"; then
				skip "bpf --pin $pin: the collector does not load: $(head -n 1 "$TMP/s.err")"
				continue
			fi
			fail "$c --pin $pin: locus run failed: $(head -n 1 "$TMP/s.err")"
			continue
		fi
		split_check "$TMP/s.$c.json"
		case $? in
		0) ok "$c --pin $pin: switches split as the kernel's rusage of the same tasks (within 3)" ;;
		3) skip "$c --pin $pin: the ring buffer lost records, no exact count to compare" ;;
		*) fail "$c --pin $pin: switches split as the kernel's rusage of the same tasks (within 3)" ;;
		esac
	done
done

# A file: locus record around GNU time around the ping-pong; time's rusage counts the
# ping-pong's tasks (its child), locus report -p the same tasks from the file's
# sched_switch records (the state field of the tracepoint's format).
if [ -x /usr/bin/time ]; then
	"$LOCUS" record -q -m 1024 -o "$TMP/r.data" -- /usr/bin/time -f '%w %c' -o "$TMP/time.out" \
		"$LOCUS" bench pingpong --pin 0,1 --loops 20000 >/dev/null 2>&1
	child=$(perf script -i "$TMP/r.data" -F trace 2>/dev/null |
		awk '/comm=time .*child_pid=/ { sub(/.*child_pid=/, ""); print $1; exit }')
	"$LOCUS" report -q -i "$TMP/r.data" -p "${child:-0}" --json "$TMP/r.json" >/dev/null 2>&1
	check "file: switches of the time's child as its rusage (within 3)" python3 - "$TMP/r.json" "$TMP/time.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
vol, invol = (int(x) for x in open(sys.argv[2]).read().split()[-2:])
sc = d["context_switches"]
lost = d["provenance"]["drops"]["records_lost"] or 0
print("time: %d/%d, file: %d/%d (voluntary/involuntary), lost %d" % (vol, invol, sc["voluntary"], sc["involuntary"], lost))
assert sc["voluntary"] + sc["involuntary"] >= 20000, sc
# a lost record can only hide switches: the file never counts more than the kernel did
assert sc["involuntary"] <= invol + 3 and sc["voluntary"] <= vol + 3, (sc, vol, invol)
if not lost:
    assert abs(sc["involuntary"] - invol) <= 3 and abs(sc["voluntary"] - vol) <= 3, (sc, vol, invol)
EOF
else
	skip "file: no GNU time (/usr/bin/time) for the oracle"
fi
finish
