#!/usr/bin/env bash
# lab.sh - a smoke run of the lab (make lab-check runs all of it): Debian 12's kernel under
# QEMU with 2 sockets x 2 cores x 2 threads and 2 nodes; inside, a ping-pong pinned to SMT
# siblings, to two cores of one LLC and to two sockets, with the BPF collector, against the
# oracle of a perf recording of each run (tests/lab/pinned.sh). Skipped, with the reason,
# where QEMU cannot start or no Debian kernel package can be had.
. "$(dirname "$0")/../lib.sh"

if ! have_root; then
	skip "the lab's guest runs its checks as root through the host's own root"
	finish
fi
out=$PWD/build/lab/smoke
rm -rf "$out" && mkdir -p "$out"
t0=$(date +%s)
scripts/lab.sh --kernel 6.1 --smp 2x2x2 --nodes 2 --timeout 900 --out "$out" \
	--env PINNED_COLLECTORS=bpf --env PINNED_LOOPS=600 -- tests/lab/pinned.sh >"$TMP/lab.out" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	skip "$(grep 'cannot run here' "$TMP/lab.out" | tail -n 1)"
	finish
fi
# the guest's checks are this script's: their lines, and their tally added to its own
grep -E '^(ok|FAIL|skip) - ' "$TMP/lab.out"
grep -E '^(lab: up|   [a-z_]+: [0-9.]+% of all placed)' "$TMP/lab.out"
read -r p f s < <(sed -n -E 's/^e2e: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p' \
	"$TMP/lab.out" | tail -n 1)
if [ -z "${p:-}" ]; then
	tail -n 20 "$TMP/lab.out"
	fail "the guest's checks did not finish (lab.sh exit $rc)"
	finish
fi
_p=$((_p + p)) _f=$((_f + f)) _s=$((_s + s))
expect_eq "the guest's checks: lab.sh exits 0" 0 $rc
echo "smoke run: $(($(date +%s) - t0)) s wall"
finish
