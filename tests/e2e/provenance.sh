#!/usr/bin/env bash
# provenance.sh - every collector says how it measured: CPUs honored (-C), drops forced with
# tiny tables and a tiny ring buffer, "none lost" only at zero, the same run counted by perf
# as the oracle, the loop's JSON and locus diff across collectors.
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "tracing the scheduler needs root here"
	finish
fi
collectors=perf
if "$LOCUS" doctor 2>/dev/null | grep -q '^ok  *BPF collector'; then
	collectors="bpf perf"
else
	skip "the BPF collector does not load here: only perf is checked"
fi
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $2" "$1"; }

for c in $collectors; do
	# The oracle: perf stat counts the same tracepoints around the same run.
	perf stat -x, -o "$TMP/o-$c.txt" -e sched:sched_waking,sched:sched_switch -- \
		"$LOCUS" run -q --collector $c --sections wakeups,switches --json "$TMP/o-$c.json" \
		-- "$LOCUS" bench pingpong --pin 0,1 --loops 20000 >"$TMP/o-$c.out" 2>&1
	expect_eq "$c: run under perf stat exits 0" 0 $?
	check "$c: wakeups and switches within 5% of perf stat's count of the same run" \
		python3 - "$TMP/o-$c.json" "$TMP/o-$c.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
perf = {l.split(",")[2]: int(l.split(",")[0]) for l in open(sys.argv[2]) if l.count(",") > 3}
waking, switch = perf["sched:sched_waking"], perf["sched:sched_switch"]
w = d["wakeups"]["total"] + d["wakeups"]["woken_while_running"]
cs = d["context_switches"]["voluntary"] + d["context_switches"]["involuntary"]
assert waking > 30000 and abs(w - waking) <= 0.05 * waking, (w, waking)
assert abs(cs - switch) <= 0.05 * switch, (cs, switch)
PY
	check "$c: nothing dropped: JSON none_lost and every drop 0, the header says 'none lost'" \
		json "$TMP/o-$c.json" 'p = d["provenance"]; assert p["none_lost"] and not any(p["drops"].values()), p' \
		-a -n "$(grep -E '; none lost$' "$TMP/o-$c.out")"
	check "$c: the provenance names the source, all CPUs honored" json "$TMP/o-$c.json" \
		"p = d['provenance']; assert p['source'] == '$c' and p['cpus_asked'] == 'all' and p['ncpus_honored'] == $(nproc), p"

	# -C 0 with both threads on CPU 1: nothing emitted on CPU 1 is seen.
	"$LOCUS" run -q -C 0 --collector $c --sections wakeups --json "$TMP/c0-$c.json" \
		-- "$LOCUS" bench pingpong --pin 1,1 --loops 20000 >"$TMP/c0-$c.txt" 2>&1
	expect_eq "$c: -C 0 run exits 0" 0 $?
	check "$c: -C 0: no wakeup traced from CPU 1's events, CPU 0 honored" json "$TMP/c0-$c.json" '
p, w = d["provenance"], d["wakeups"]
assert p["cpus_asked"] == "0" and p["cpus_honored"] == "0" and p["ncpus_honored"] == 1, p
assert sum(w["matrix"][1]) == 0, w["matrix"]
# the ping-pong on CPU 1 (40,000 wakeups between two locus threads) is not seen; what other
# tasks of a busy machine do on CPU 0 is
pp = sum(x["count"] for x in d["pairs"] if x["waker_comm"] == x["wakee_comm"] == "locus")
assert pp < 1000, pp'
	check "$c: -C 0: the header says which CPUs were honored" grep -q "CPUs: 0 asked, 0 honored (1)" "$TMP/c0-$c.txt"

	# Tiny task and pair tables: the task drops show in the header, the JSON and the dashboard;
	# the pair table keeps the busiest pair by Filtered Space-Saving and states its bound (no drop).
	"$LOCUS" run -q --collector $c --max-tasks 1 --max-pairs 1 --sections wakeups \
		--json "$TMP/t-$c.json" -- "$LOCUS" bench pingpong --loops 5000 >"$TMP/t-$c.txt" 2>&1
	check "$c: --max-tasks 1 --max-pairs 1: the header counts the task drops" \
		grep -Eq '[0-9,]+ tasks beyond the task table$' "$TMP/t-$c.txt"
	check "$c: --max-tasks 1 --max-pairs 1: JSON drops, tables bounded, the pair count's bound" json "$TMP/t-$c.json" '
p = d["provenance"]
assert p["drops"]["tasks"] >= 1 and p["drops"]["pair_wakeups"] == 0 and not p["none_lost"], p
assert len(d["tasks"]) <= 1, len(d["tasks"])
assert d["pairs_kept"] == 1 and d["pairs_evicted"] + d["pairs_filtered_wakeups"] > 0, d["pairs_kept"]
pr = d["pairs"][0]
assert pr["count_over_at_most"] <= d["pairs_count_bound"] <= pr["count"], (pr, d["pairs_count_bound"])
assert d["pairs_count_bound"] > 0, d["pairs_count_bound"]
# one slot and the filter: every wakeup counted by the table (BPF adds the held-back
# wakeups of live tasks apart)
assert d["pairs_wakeups"] == d["wakeups"]["total"], (d["pairs_wakeups"], d["wakeups"]["total"])'
	# ping-pongs for 2-3 s, however fast: beside CPU hogs one of 100,000 round trips on a
	# single CPU ended in 0.25 s, before the first snapshot
	"$LOCUS" top --text -d 0.5 --exit-on-end --collector $c --max-tasks 1 -- sh -c \
		'end=$(($(date +%s) + 3)); while [ "$(date +%s)" -lt $end ]; do
			"$0" bench pingpong --loops 20000 >/dev/null; done' "$LOCUS" >"$TMP/top-$c.txt" 2>&1
	check "$c: the dashboard header says lost and what measured" \
		grep -Eq "^locus top .* CPUs 0-$(($(nproc) - 1))  [0-9.,K]+ lost" "$TMP/top-$c.txt"
	check "$c: the dashboard names its source" grep -q "the workload's tasks, $([ $c = bpf ] && echo 'BPF in the kernel' || echo 'perf ring buffers')" "$TMP/top-$c.txt"
done

# A setting the chosen collector cannot honor is refused, not ignored.
"$LOCUS" run --collector perf --delay-rate 100 -- true >/dev/null 2>"$TMP/refuse.err"
expect_eq "--collector perf --delay-rate: a usage error" 2 $?
check "--collector perf --delay-rate: says why in one line" \
	grep -qx "locus run: --btf and --delay-rate are for the BPF collector (the perf collector times every wakeup) (see 'locus run --help')" "$TMP/refuse.err"

# A tiny ring buffer: the perf stream loses records and says so everywhere.
"$LOCUS" run -q --collector perf -m 1 --sections wakeups --json "$TMP/rb.json" \
	-- hackbench -g 4 -l 300 >"$TMP/rb.txt" 2>&1
if json "$TMP/rb.json" 'assert d["provenance"]["drops"]["records_lost"] > 0'; then
	ok "-m 1: records lost are counted in the JSON"
	check "-m 1: the header lists them and warns" grep -q "records the kernel dropped" "$TMP/rb.txt"
	check "-m 1: no 'none lost'" test -z "$(grep 'none lost' "$TMP/rb.txt")"
else
	skip "-m 1: this machine kept up with hackbench through one page per CPU"
fi

# The loop's JSON carries provenance; diff across collectors says so and marks no delay row.
if [ "$collectors" = "bpf perf" ]; then
	for c in bpf perf; do
		"$LOCUS" run -q -r 3 --collector $c --metric pingpong --json "$TMP/l-$c.json" \
			-- "$LOCUS" bench pingpong --pin 0,1 --loops 5000 >/dev/null 2>&1
		check "$c loop: its JSON has the provenance" json "$TMP/l-$c.json" \
			"p = d['provenance']; assert p['source'] == '$c' and p['delay_resolution'] == 'log-linear' and p['delay_rate'] == (5000 if '$c' == 'bpf' else 0), p; assert all(r['dropped'] >= 0 for r in d['runs'])"
	done
	"$LOCUS" diff "$TMP/l-bpf.json" "$TMP/l-perf.json" >"$TMP/diff.txt" 2>&1
	check "diff bpf vs perf: says in one line that they were measured differently" \
		grep -q "measured differently: base bpf, log-linear delays timed 1 in 20 (--delay-rate 5000).*; new perf, log-linear delays, " "$TMP/diff.txt"
	check "diff bpf vs perf: the p99 row is not compared" grep -Eq "p99 .*~ measured differently$" "$TMP/diff.txt"
	"$LOCUS" diff --json "$TMP/d.json" "$TMP/l-bpf.json" "$TMP/l-perf.json" >/dev/null 2>&1
	check "diff bpf vs perf JSON: delays not comparable, no delay row significant" json "$TMP/d.json" '
assert d["measured_differently"] and not d["delays_comparable"] and d["counts_comparable"], d
rows = [r for r in d["rows"] if r["measure"] == "wake_to_run_p99_us"]
assert rows and all(not r["significant"] and not r["comparable"] for r in rows), rows'
	"$LOCUS" diff "$TMP/l-perf.json" "$TMP/l-perf.json" >"$TMP/same.txt" 2>&1
	check "diff of one collector with itself: nothing said of methods" \
		test -z "$(grep -e 'measured differently' "$TMP/same.txt")"
fi
# Both sides of a client-server benchmark: the server, started beforehand, added by pid.
if command -v tbench_srv >/dev/null && command -v tbench >/dev/null; then
	tbench_srv >/dev/null 2>&1 &
	srv=$!
	sleep 0.5
	for c in $collectors; do
		"$LOCUS" run -q --collector $c -p $srv --sections pairs --json "$TMP/tb-$c.json" \
			-- tbench -t 3 2 127.0.0.1 >"$TMP/tb-$c.txt" 2>&1
		check "$c: tbench with tbench_srv added by -p: named pairs both ways" \
			python3 - "$TMP/tb-$c.json" "$srv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pairs = [(p["waker_comm"], p["wakee_comm"]) for p in d["pairs"]]
assert ("tbench", "tbench_srv") in pairs and ("tbench_srv", "tbench") in pairs, pairs[:10]
assert d["provenance"]["added_pids"] == [int(sys.argv[2])], d["provenance"]
PY
		check "$c: the header names the added server" \
			grep -q "Scheduler: the workload's tasks and pid $srv's" "$TMP/tb-$c.txt"
	done
	kill $srv 2>/dev/null
	wait $srv 2>/dev/null
else
	skip "client-server: no tbench/tbench_srv (dbench)"
fi
"$LOCUS" stat -p 1 -- true >/dev/null 2>"$TMP/stp.err"
expect_eq "stat -p beside a command: usage error (stat only counts)" 2 $?
finish
