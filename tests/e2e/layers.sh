#!/usr/bin/env bash
# layers.sh - no file includes a layer above its own (the rules: docs/layers.md).
. "$(dirname "$0")/../lib.sh"

declare -A allow=(
	[common]="common"
	[model]="common model"
	[collectors]="common model collectors"
	[analyzers]="common model analyzers"
	[report]="common model analyzers report"
	[pipeline]="common model collectors analyzers pipeline"
	[workloads]="common workloads"
	# commands parse options and call the pipeline: no collector, analyzer or pipeline
	# internal beneath it (the probes of doctor and list, and bench's workloads, apart)
	[cli]="common model pipeline report cli"
)
# a file's own exceptions: what its job is
declare -A allow_file=(
	[cli/doctor.c]="collectors"
	[cli/list.c]="collectors"
	[cli/bench.c]="workloads"
)
bad=0
for layer in "${!allow[@]}"; do
	for f in "$layer"/*.[ch]; do
		[ -e "$f" ] || continue
		while read -r inc; do
			to=${inc%%/*}
			case " ${allow[$layer]} ${allow_file[$f]:-} " in *" $to "*) continue ;; esac
			fail "$f includes $inc: $layer may include only ${allow[$layer]}"
			bad=1
		done < <(sed -n 's|^#include "\.\./\([a-z]*/[a-z_./]*\)".*|\1|p' "$f")
	done
done
[ $bad -eq 0 ] && ok "every include stays within its layer's rules (docs/layers.md)"
big=0
for f in cli/*.c; do
	n=$(wc -l <"$f")
	[ "$n" -le 600 ] || { fail "$f has $n lines (commands stay small)"; big=1; }
done
[ $big -eq 0 ] && ok "cli/ holds commands, each under 600 lines"
# A function runs from the line naming it (at column 0, before a '{' at column 0) to its
# '}' at column 0, as the house style (.clang-format) writes them.
long=$(awk 'FNR == 1 { cand = 0; start = 0 }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { cand = FNR; name = $0 }
	/^\{/ { start = cand }
	/^\}/ { if (start && FNR - start + 1 > 60)
			printf "%s:%d %s (%d lines)\n", FILENAME, start, name, FNR - start + 1
		 start = 0 }' cli/*.c)
if [ -n "$long" ]; then
	while read -r l; do fail "function over 60 lines in cli/: $l"; done <<<"$long"
else
	ok "no function in cli/ over 60 lines"
fi
finish
