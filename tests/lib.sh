# lib.sh - helpers for end-to-end tests: each check prints one line; finish prints the tally.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
LOCUS=${LOCUS:-$PWD/locus}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
_p=0 _f=0 _s=0

ok() { _p=$((_p + 1)); echo "ok - $*"; }
fail() { _f=$((_f + 1)); echo "FAIL - $*"; }
skip() { _s=$((_s + 1)); echo "skip - $*"; }
# check DESC CMD...: passes when CMD exits 0
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else fail "$d"; fi
}
# check_or_skip DESC CMD...: as check, but CMD exiting 3 means the run could not decide
# (the scenario did not happen, an oracle lost events: CMD printed why): skipped, counted
check_or_skip() {
	local d=$1 rc
	shift
	"$@"
	rc=$?
	case $rc in
	0) ok "$d" ;;
	3) skip "$d: not decidable on this run (said above)" ;;
	*) fail "$d" ;;
	esac
}
# expect_eq DESC WANT GOT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: want '$2', got '$3'"; fi
}
finish() {
	echo "e2e: $_p passed, $_f failed, $_s skipped"
	exit 0
}
# Extract a counter's value from a locus/perf text report line ("40,012  context-switches").
counter_value() {
	awk -v n="$1" '$2 == n || $3 == n { gsub(",", "", $1); print $1; exit }' "$2"
}
# within_pct A B PCT: |A-B| <= PCT% of B
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}
have_root() { [ "$(id -u)" -eq 0 ]; }
# need_sched_two_cpus: skip the whole script (and end it) unless root can read the sched
# tracepoints and there are two CPUs to wake across
need_sched_two_cpus() {
	if ! have_root; then
		skip "sched tracepoints need root"
		finish
	fi
	if [ "$(nproc)" -lt 2 ]; then
		skip "needs two CPUs"
		finish
	fi
}

# perf script's count of every sched and ipi tracepoint in a file, as JSON
perf_counts() {
	perf script -i "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(sched|ipi):/) { sub(":$", "", $i); n[$i]++; break } }
		END { printf "{"; s = ""; for (k in n) { printf "%s\"%s\": %d", s, k, n[k]; s = ", " } print "}" }'
}
# same_counts REPORT.json PERF.json: locus report's events by type are perf script's
same_counts() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
ev = {(("ipi:" if k.startswith("ipi_") else "sched:") + k): v for k, v in d["sched"]["events_by_type"].items()}
assert ev and ev == p and ev.get("sched:sched_switch", 0) > 0, (ev, p)
PY
}
