# lib.sh - helpers the benchmarks share (sourced): medians, wall time, peak RSS.

# median: of the numbers on stdin, one a line
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# quartiles: "median [q1, q3]" of the numbers on stdin, one a line (the median of each half)
quartiles() {
	sort -g | awk '{ v[NR] = $1 }
		function med(lo, hi,  n) { n = hi - lo + 1; return (n % 2) ? v[lo + (n - 1) / 2] : (v[lo + n / 2 - 1] + v[lo + n / 2]) / 2 }
		END { if (!NR) { print "-"; exit } h = int(NR / 2)
		      printf "%.3f [%.3f, %.3f]\n", med(1, NR), med(1, h ? h : NR), med(h ? NR - h + 1 : 1, NR) }'
}
# elapsed CMD...: its wall time in seconds, its output dropped
elapsed() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
# rss CMD...: its peak resident memory in MiB, its output dropped
rss() { python3 -c "import resource,subprocess,sys; subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)" "$@"; }
# wall_cpu CMD...: "wall_seconds cpu_seconds" (the CPU time of CMD and its children: on this
# shared VM, less moved than wall by the other tasks), its output dropped
wall_cpu() {
	python3 -c "import resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t1 = time.monotonic(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print('%.4f %.4f' % (t1 - t0, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime))" "$@"
}
# against_recorded NAME VALUE UNIT: VALUE (higher is better) against NAME's last recorded
# figure in bench/recorded.txt ("name value date commit note..."): the ratio, and a line
# saying so when it fell below 0.9 of it.
against_recorded() {
	local line
	line=$(grep -E "^$1 " "$(dirname "${BASH_SOURCE[0]}")/recorded.txt" 2>/dev/null | tail -n 1)
	if [ -z "$line" ] || [ -z "$2" ]; then
		echo "- $1: no recorded figure to compare with (bench/recorded.txt)"
		return
	fi
	echo "$line" | awk -v v="$2" -v u="$3" '{ note = ""; for (i = 5; i <= NF; i++) note = note " " $i
		r = $2 > 0 ? v / $2 : 0
		printf "- %s: %s %s against %s %s recorded %s at %s (%s): ratio %.2f\n", $1, v, u, $2, u, $3, $4, substr(note, 2), r
		if (r < 0.9)
			printf "- FELL: %s is %.2f of its last recorded figure: rerun interleaved with %s'"'"'s build (this VM swings up to 2x between minutes) before believing it\n", $1, r, $4 }'
}
