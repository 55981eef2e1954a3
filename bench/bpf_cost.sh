#!/usr/bin/env bash
# bpf_cost.sh - what each BPF program of the default collector costs per event, from the
# kernel's own accounting (kernel.bpf_stats_enabled: run_time_ns / run_cnt per program),
# for this build and, with LOCUS_BASE=path, an earlier one, interleaved N times; medians.
# The workload is the pinned ping-pong (cross-CPU wakeups: every program fires). Only the
# programs the measured locus process holds are counted (others' collectors run beside it).
# Usage: bench/bpf_cost.sh [N] (needs root and bpftool; BPF_COST_LOOPS sets the ping-pong's
# round trips, default 200000: the programs are read BPF_COST_AT seconds in (default 3), the
# rest of the run is waited for; LOCUS_MORE="label:path ..." adds builds to the same
# interleaved run, build/floor among them (its two empty programs count as on_switch and
# on_waking; build/floor-ipi's third as on_ipi); LOCUS_NEW=path measures a copy as "new"
# (the worktree's ./locus by default: a rebuild during a run would change it); BPF_COST_RAW=file appends each round's counts: build round program
# run_time_ns run_cnt, for bench/cost_table.sh); BPF_COST_WRAP="chrt -f 10" runs the ping-pong
# under that command (on a loaded machine: real-time, so other jobs do not set its pace)
set -u
cd "$(dirname "$0")/.."
N=${1:-3}
TMP=$(mktemp -d)
old_stats=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 0)
trap 'echo "$old_stats" >/proc/sys/kernel/bpf_stats_enabled; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bpf_cost.sh: needs root" >&2; exit 1; }
command -v bpftool >/dev/null || { echo "bpf_cost.sh: needs bpftool" >&2; exit 1; }
echo 1 >/proc/sys/kernel/bpf_stats_enabled

builds="new:${LOCUS_NEW:-$PWD/locus}"
[ -n "${LOCUS_BASE:-}" ] && builds="$builds base:$LOCUS_BASE"
[ -n "${LOCUS_MORE:-}" ] && builds="$builds $LOCUS_MORE"

# sample BUILD_LABEL BINARY ROUND: the programs' counts near the end of a 4-second run
sample() {
	local label=$1 bin=$2 round=$3 run="run -q --collector bpf"
	case $(basename "$bin") in floor | floor-ipi) run="" ;; esac
	# shellcheck disable=SC2086 # run, BPF_COST_WRAP: a command and its options, or none
	"$bin" $run -- ${BPF_COST_WRAP:-} "$PWD/locus" bench pingpong --pin 0,1 \
		--loops "${BPF_COST_LOOPS:-200000}" \
		>/dev/null 2>&1 &
	local pid=$!
	sleep "${BPF_COST_AT:-3}"
	bpftool prog show -j >"$TMP/$label.$round.json" 2>/dev/null
	# this run's own programs (a shared machine runs other collectors' programs of the same
	# names): the prog_id of each BPF program its process holds open
	for fd in $(for p in $pid $(pgrep -P "$pid"); do echo /proc/"$p"/fd/*; done); do
		[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:bpf-prog" ] &&
			sed -n 's/^prog_id:[[:space:]]*//p' "${fd%/fd/*}/fdinfo/${fd##*/}"
	done >"$TMP/$label.$round.ids" 2>/dev/null
	wait "$pid"
}

# each round starts one build further: a build's place in the round (the load of a shared
# machine drifts within a round) is not its cost
read -ra order <<<"$builds"
for r in $(seq 1 "$N"); do
	for k in $(seq 0 $((${#order[@]} - 1))); do
		b=${order[$(((k + r) % ${#order[@]}))]}
		sample "${b%%:*}" "${b#*:}" "$r"
	done
done

python3 - "$TMP" "${BPF_COST_RAW:-}" $builds <<'EOF'
import glob, json, os, statistics, sys
tmp, raw, builds = sys.argv[1], sys.argv[2], [b.split(":")[0] for b in sys.argv[3:]]
progs = ["on_waking", "on_wakeup_new", "on_migrate", "on_switch", "on_fork", "on_exit",
         "on_ipi", "on_wake_idle",
         # --sections blame only (bpftool names them from BTF: whole)
         "on_irq_entry", "on_irq_exit", "on_softirq_entry", "on_softirq_exit"]
alias = {"floor_switch": "on_switch", "floor_waking": "on_waking", "floor_ipi": "on_ipi"}
cost = {b: {p: [] for p in progs} for b in builds}
rows = []
for b in builds:
    for f in glob.glob(os.path.join(tmp, b + ".*.json")):
        ids = set(int(x) for x in open(f[:-5] + ".ids").read().split())
        rnd = f[:-5].rsplit(".", 1)[1]
        for p in json.load(open(f)):
            name = alias.get(p.get("name", ""), p.get("name", ""))
            if name in progs and p.get("run_cnt") and p.get("id") in ids:
                cost[b][name].append((p["run_time_ns"] / p["run_cnt"], p["run_cnt"]))
                rows.append("%s %s %s %d %d\n" % (b, rnd, name, p["run_time_ns"], p["run_cnt"]))
if raw:
    open(raw, "a").writelines(rows)
print("| program | " + " | ".join("%s ns/event (events)" % b for b in builds) + " |")
print("| --- |" + " --- |" * len(builds))
for p in progs:
    cells = []
    for b in builds:
        v = cost[b][p]
        cells.append("%.0f (%d)" % (statistics.median(x for x, _ in v), statistics.median(n for _, n in v)) if v else "-")
    print("| %s | %s |" % (p, " | ".join(cells)))
EOF
