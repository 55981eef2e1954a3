#!/bin/bash
# synth_speed.sh [RUNS] [OTHER]: bench/synth.c (a 512-CPU, 8-node machine on paper, 100,000
# tasks, 20 M events) through the wakeup analyzer RUNS times (5): every run's events/s, the
# best and the median, peak RSS, and one run's whole output (the top 20 pairs checked against
# an exact count). With OTHER (a synth binary built from another commit), both run
# interleaved and the ratio of their medians is printed. This VM swings by up to 2x between
# minutes: compare builds only interleaved. The best run against the last recorded figure
# (bench/recorded.txt synth_best): its ratio, and FELL when below 0.9 of it.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
runs=${1:-5}
other=$2
topo=tests/fixtures/topology/8n512
rate() { "$1" $topo 20000000 100000 2>&1 | grep -oE '[0-9.]+ M events/s' | cut -d' ' -f1; }
: >/tmp/synth_speed.$$
for i in $(seq "$runs"); do
	echo "this $(rate build/synth)" >>/tmp/synth_speed.$$
	[ -n "$other" ] && echo "other $(rate "$other")" >>/tmp/synth_speed.$$
done
echo "## Wakeup analyzer at 512 CPUs (bench/synth_speed.sh $runs), $(date +%F)"
echo
for who in this other; do
	grep -q "^$who " /tmp/synth_speed.$$ || continue
	v=$(grep "^$who " /tmp/synth_speed.$$ | cut -d' ' -f2)
	echo "- $who build: $(echo $v | sed 's/ /, /g') M events/s; best $(echo "$v" | sort -g | tail -1), median $(echo "$v" | median)"
done
against_recorded synth_best "$(grep "^this " /tmp/synth_speed.$$ | cut -d' ' -f2 | sort -g | tail -1)" \
	"M events/s (best of $runs)"
if [ -n "$other" ]; then
	a=$(grep "^this " /tmp/synth_speed.$$ | cut -d' ' -f2 | median)
	b=$(grep "^other " /tmp/synth_speed.$$ | cut -d' ' -f2 | median)
	echo "- ratio of medians, this / other: $(echo "scale=2; $a / $b" | bc)"
fi
rm -f /tmp/synth_speed.$$
echo
echo '```'
build/synth $topo 20000000 100000
echo '```'
