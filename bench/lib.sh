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
