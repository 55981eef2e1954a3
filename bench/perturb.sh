#!/usr/bin/env bash
# perturb.sh - how much locus slows the workload it measures, next to perf, interleaved.
#
# Each workload is timed by its own clock (ping-pong's round trips/s, hackbench's Time:),
# never by the tool's wall time, which is reported separately as time-to-answer: from
# start to a printed wakeup report (for perf: record, then perf sched latency).
# Variants run interleaved (bare, locus, perf, bare, ...) so machine drift cancels;
# the table gives medians of N runs and ratios to bare. Usage: bench/perturb.sh [N]
# (VARIANTS and WORKLOADS choose: pingpong (pinned 0,1), pingpong-free (unpinned), hackbench,
# tbench; PP_LOOPS sets the ping-pongs' round trips, default 200000, HB_LOOPS hackbench's -l;
# LOCUS_BASE=path adds locus-base, an earlier build's BPF
# collector, to compare two versions in the same run). Issue 31's must-show run (25 short
# rounds; needs build/floor, bpftrace, perf):
#   VARIANTS="bare floor locus-bpf locus-perf perf-sched bpftrace" \
#   WORKLOADS="pingpong pingpong-free hackbench" PP_LOOPS=20000 HB_LOOPS=500 bench/perturb.sh 25
# runqlat: bpftrace's runqlat.bt, the peer closest to locus for wake-to-run latency (the
# installed one where this bpftrace builds it, else bench/runqlat.bt, the same program).
set -u
cd "$(dirname "$0")/.."
N=${1:-5}
LOCUS=$PWD/locus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "perturb.sh: needs root (tracepoints)" >&2; exit 1; }
command -v hackbench >/dev/null || { echo "perturb.sh: needs hackbench (rt-tests)" >&2; exit 1; }

PP="$LOCUS bench pingpong --pin 0,1 --loops ${PP_LOOPS:-200000}"
PPF="$LOCUS bench pingpong --loops ${PP_LOOPS:-200000}" # unpinned: the scheduler places it
HB="$(command -v hackbench) -g 4 -l ${HB_LOOPS:-2000}"
TB="$(command -v tbench 2>/dev/null) -t 10 2 127.0.0.1"

# run VARIANT WORKLOAD: prints "metric wall_seconds"
run() {
	local variant=$1 wl=$2 out=$TMP/out t0 t1 cmd
	case $wl in
	pingpong) cmd=$PP ;;
	pingpong-free) cmd=$PPF ;;
	hackbench) cmd=$HB ;;
	*) cmd=$TB ;;
	esac
	t0=$(date +%s.%N)
	case $variant in
	bare) $cmd >"$out" 2>&1 ;;
	locus) "$LOCUS" run -q -- $cmd >"$out" 2>&1 ;;
	locus-bpf) "$LOCUS" run -q --collector bpf -- $cmd >"$out" 2>&1 ;;
	# the same with IPI attribution (--ipis: two more programs, not in the default)
	locus-ipis) "$LOCUS" run -q --collector bpf --ipis -- $cmd >"$out" 2>&1 ;;
	# two empty programs on sched_switch and sched_waking: the least a BPF collector costs
	floor) build/floor -- $cmd >"$out" 2>&1 ;;
	# the floor and a third empty program on ipi_send_cpu: the least an IPI-counting one costs
	floor-ipi) build/floor-ipi -- $cmd >"$out" 2>&1 ;;
	# an earlier build, to compare two versions in one interleaved run (LOCUS_BASE=path)
	locus-base) "$LOCUS_BASE" run -q --collector bpf -- $cmd >"$out" 2>&1 ;;
	locus-perf) "$LOCUS" run -q --collector perf -- $cmd >"$out" 2>&1 ;;
	locus-stat) "$LOCUS" stat -q -- $cmd >"$out" 2>&1 ;;
	perf-stat) perf stat -- $cmd >"$out" 2>"$TMP/perr" ;;
	bpftrace)
		# the one-liner users reach for: wakeups by (cpu, target_cpu), switches, migrations
		bpftrace -q -e 'tracepoint:sched:sched_waking { @w[cpu, args->target_cpu] = count(); }
			tracepoint:sched:sched_switch { @s[cpu] = count(); }
			tracepoint:sched:sched_migrate_task { @m[args->orig_cpu, args->dest_cpu] = count(); }' \
			-c "$cmd" >"$out" 2>"$TMP/berr"
		;;
	runqlat) bpftrace -q "$RUNQLAT" -c "$cmd" >"$out" 2>"$TMP/berr" ;;
	perf-record)
		# the same four tracepoints, every event to a file
		perf record -q -a -o "$TMP/r.data" -e sched:sched_waking,sched:sched_wakeup \
			-e sched:sched_switch,sched:sched_migrate_task -- $cmd >"$out" 2>"$TMP/perr"
		;;
	perf-sched)
		perf sched record -o "$TMP/p.data" -- $cmd >"$out" 2>"$TMP/perr"
		perf sched latency -i "$TMP/p.data" >/dev/null 2>&1
		;;
	esac
	t1=$(date +%s.%N)
	case $wl in
	pingpong*) m=$(sed -n 's/.* \([0-9]*\) round trips\/s$/\1/p' "$out" | head -n 1) ;;
	hackbench) m=$(sed -n 's/^Time: //p' "$out" | head -n 1) ;;
	*) m=$(sed -n 's/^Throughput \([0-9.]*\) MB\/sec.*/\1/p' "$out" | head -n 1) ;;
	esac
	echo "${m:-NaN} $(echo "$t1 - $t0" | bc)"
}

. bench/lib.sh

variants=${VARIANTS:-"bare floor locus-bpf runqlat bpftrace locus-perf perf-sched perf-record locus-stat perf-stat"}
RUNQLAT=
for f in /usr/share/bpftrace/tools/runqlat.bt /usr/sbin/runqlat.bt bench/runqlat.bt; do
	if [ -r "$f" ] && command -v bpftrace >/dev/null && bpftrace -d "$f" >/dev/null 2>&1; then
		RUNQLAT=$f
		break
	fi
done
command -v bpftrace >/dev/null || variants=$(echo "$variants" | sed 's/ bpftrace//')
[ -n "$RUNQLAT" ] || variants=$(echo "$variants" | sed 's/ runqlat//')
[ -x build/floor ] || variants=$(echo " $variants " | sed 's/ floor / /; s/^ //; s/ $//')
[ -x build/floor-ipi ] || variants=$(echo "$variants" | sed 's/ floor-ipi//')
[ -n "${LOCUS_BASE:-}" ] && [[ $variants != *locus-base* ]] && variants="$variants locus-base"
workloads=${WORKLOADS:-pingpong hackbench tbench}
if [[ $workloads == *tbench* ]]; then
	if command -v tbench_srv >/dev/null; then
		tbench_srv >/dev/null 2>&1 &
		srv=$!
		trap 'kill $srv 2>/dev/null; rm -rf "$TMP"' EXIT
		sleep 0.5
	else
		workloads=${workloads/tbench/}
	fi
fi
for wl in $workloads; do
	for i in $(seq "$N"); do
		for v in $variants; do
			run "$v" "$wl" >>"$TMP/$wl.$v"
		done
	done
done

echo "## Perturbation: $(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r), median of $N interleaved runs"
echo
echo "| workload | variant | workload's own measure | vs bare | per-round vs bare | x floor | time to answer (s) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for wl in $workloads; do
	base=$(cut -d' ' -f1 "$TMP/$wl.bare" | median)
	floor=""
	for v in $variants; do
		m=$(cut -d' ' -f1 "$TMP/$wl.$v" | median)
		w=$(cut -d' ' -f2 "$TMP/$wl.$v" | median)
		case $wl in
		pingpong*) unit="round trips/s"; ratio=$(echo "scale=3; $m / $base" | bc); inv=0 ;;
		tbench) unit="MB/sec"; ratio=$(echo "scale=3; $m / $base" | bc); inv=0 ;;
		*) unit="s (Time:)"; ratio=$(echo "scale=3; $base / $m" | bc); inv=1 ;;
		esac
		# each run against the bare run of its own round: robust when the machine
		# changes speed between rounds (this VM has two speeds, 1.5x apart)
		round=$(paste -d' ' "$TMP/$wl.bare" "$TMP/$wl.$v" |
			awk -v inv=$inv '$1 > 0 && $3 > 0 { printf "%.4f\n", inv ? $1 / $3 : $3 / $1 }' | median)
		# the slowdown as a multiple of the floor's (its own per-round slowdown)
		[ "$v" = floor ] && floor=$round
		times=n/a
		if [ -n "$floor" ] && [ "$v" != bare ]; then
			times=$(echo "${round:-0} $floor" |
				awk '{ if (1 - $2 <= 0.0005) print "n/a"; else if ($1 >= 1) print "none";
					else printf "%.1fx\n", (1 - $1) / (1 - $2) }')
		fi
		printf '| %s | %s | %s %s | %s | %.3f | %s | %.2f |\n' "$wl" "$v" "$m" "$unit" "$ratio" \
			"${round:-0}" "$times" "$w"
	done
done
echo
# the spread of single rounds: each variant's per-round ratio to bare, median [quartiles]
echo "| workload | $(echo "$variants" | sed 's/^bare //; s/ / | /g') |"
echo "| --- |$(for v in $variants; do [ "$v" = bare ] || printf ' --- |'; done)"
for wl in $workloads; do
	case $wl in hackbench) inv=1 ;; *) inv=0 ;; esac
	row="| $wl |"
	for v in $variants; do
		[ "$v" = bare ] && continue
		row="$row $(paste -d' ' "$TMP/$wl.bare" "$TMP/$wl.$v" |
			awk -v inv=$inv '$1 > 0 && $3 > 0 { printf "%.4f\n", inv ? $1 / $3 : $3 / $1 }' |
			quartiles) |"
	done
	echo "$row"
done
echo
echo "'vs bare' is the workload's speed relative to bare (1.000 = unperturbed, lower is slower):"
echo "the ratio of the medians; 'per-round' is the median of each run's ratio to the bare run"
echo "of the same round (the variants of a round run back to back); the second table: that"
echo "per-round ratio, median [quartiles] (the noise of single rounds)."
echo "'x floor': the variant's slowdown (1 - per-round) over the floor's; floor: build/floor,"
echo "two empty tp_btf programs on sched_switch and sched_waking (bench/floor.bpf.c), the least"
echo "any BPF collector can cost; n/a where the floor's slowdown is within noise of none."
echo "locus-bpf: locus run --collector bpf (the default where BPF loads); locus-perf: --collector"
echo "perf (every event streamed); bpftrace: the one-liner counting wakeups by (cpu, target_cpu),"
echo "switches and migrations; perf-record: perf record -a of the four sched tracepoints;"
echo "perf-sched: perf sched record (time to answer includes perf sched latency);"
echo "locus-stat / perf-stat: counting only. tbench: 2 clients on loopback, 10 s, tbench_srv."
[[ " $variants " == *" runqlat "* ]] &&
	echo "runqlat: bpftrace's runqlat.bt ($RUNQLAT): a run queue latency histogram, nothing else."
[[ " $variants " == *" locus-ipis "* ]] &&
	echo "locus-ipis: locus-bpf with --ipis (IPI attribution: two more programs, not in the default)."
[[ " $variants " == *" floor-ipi "* ]] &&
	echo "floor-ipi: the floor and a third empty program on ipi_send_cpu (build/floor-ipi)."
[ -n "${LOCUS_BASE:-}" ] && echo "locus-base: $LOCUS_BASE (an earlier build), --collector bpf."
