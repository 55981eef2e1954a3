#!/usr/bin/env bash
# unprivileged.sh - as nobody (no BPF, no tracefs, perf_event_paranoid 2): run, top and doctor
# tell one story (nothing traces the scheduler, and why, once), and every figure rusage or
# /proc gives is shown. Oracle: the workload's own getrusage, printed by it in the same run.
. "$(dirname "$0")/../lib.sh"

if ! have_root || ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	skip "needs root to become nobody with setpriv"
	finish
fi
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 2 ]; then
	skip "perf_event_paranoid < 2: nobody could count kernel events"
	finish
fi
mkdir -p "$TMP/np" && chmod 755 "$TMP" "$TMP/np"
cp "$LOCUS" "$TMP/np/locus" && chmod 755 "$TMP/np/locus"
NL="$TMP/np/locus"
asnobody() { (cd "$TMP/np" && setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"); }
# a pipe ping-pong with a child; at the end, its own and its reaped child's switches
cat >"$TMP/np/pp.py" <<'PY'
import os, resource
r1, w1 = os.pipe(); r2, w2 = os.pipe()
pid = os.fork()
if pid == 0:
    for _ in range(3000):
        os.read(r1, 1); os.write(w2, b"x")
    os._exit(0)
for _ in range(3000):
    os.write(w1, b"x"); os.read(r2, 1)
os.waitpid(pid, 0)
s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print("own", s.ru_nvcsw + c.ru_nvcsw, s.ru_nivcsw + c.ru_nivcsw, flush=True)
os._exit(0)  # no interpreter teardown after the count: preempted on a busy machine, it
             # added 243 involuntary switches the count could not see
PY
chmod 644 "$TMP/np/pp.py"

asnobody "$NL" run -- python3 pp.py >"$TMP/run.txt" 2>"$TMP/run.err"
expect_eq "run as nobody exits 0" 0 $?
check "run: one line says nothing traces the scheduler, with both reasons" \
	test "$(grep -c '^locus: the scheduler cannot be traced here: BPF: .*; perf ring buffers: .*; reporting counters only$' "$TMP/run.err")" -eq 1
check "run: no 'streaming through perf ring buffers' beside it" bash -c "! grep -q streaming '$TMP/run.err'"
read -r _ ownv owni < <(grep '^own ' "$TMP/run.txt")
cs=$(counter_value context-switches "$TMP/run.txt")
# the split's own lines ("3,178   voluntary   # 52.5%"), not "voluntary + involuntary"
split_value() { awk -v n="$1" '$2 == n && $3 == "#" { gsub(",", "", $1); print $1; exit }' "$2"; }
vol=$(split_value voluntary "$TMP/run.txt")
inv=$(split_value involuntary "$TMP/run.txt")
check "run: context-switches from rusage ($cs) = voluntary $vol + involuntary $inv" test "$cs" = "$((vol + inv))"
# within 20: locus leaves out the switches of the held child before its exec (the
# workload's own getrusage counts them) and adds its exit's (os._exit: no teardown)
within20() { [ "$1" -ge 0 ] && [ "$2" -ge 0 ] && [ $(($1 - $2)) -le 20 ] && [ $(($2 - $1)) -le 20 ]; }
check "run: voluntary $vol within 20 of the workload's own count $ownv" within20 "$vol" "$ownv"
check "run: involuntary $inv within 20 of the workload's own $owni" within20 "$inv" "$owni"
check "run: context-switches and task-clock say [rusage]" \
	bash -c "grep -Eq 'context-switches .*\[rusage\]' '$TMP/run.txt' && grep -Eq 'task-clock .*\[rusage\]' '$TMP/run.txt'"

asnobody "$NL" top -n 3 --text -- "$NL" bench pingpong --loops 400000 >"$TMP/top.txt" 2>&1
check "top: cs vol and cs invol are shown (from /proc), not n/a" \
	bash -c "grep -Eq '^\|cs vol +[0-9.]+[KM]? ' '$TMP/top.txt' && grep -Eq '^\|cs invol +[0-9.]+[KM]? ' '$TMP/top.txt'"
check "top: the header says where they come from" grep -q "cs vol/invol: the tasks' own accounting in /proc" "$TMP/top.txt"

asnobody "$NL" doctor >"$TMP/doc.txt" 2>&1
check "doctor: the BPF row does not send the work to perf" bash -c "! grep -q 'instead' '$TMP/doc.txt'"
check "doctor: tracefs is 'no' for this user, as its tracepoints are" grep -Eq '^no +tracefs' "$TMP/doc.txt"
check "doctor: the scheduler line tells run's story" bash -c "sed -n '/^the scheduler:/,\$p' '$TMP/doc.txt' |
	tr '\n' ' ' | tr -s ' ' | grep -q 'the scheduler: cannot be traced here (BPF and the sched tracepoints, above): run and top report what rusage and /proc give'"
finish
