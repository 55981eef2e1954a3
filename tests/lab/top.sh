#!/usr/bin/env bash
# top.sh - in a lab guest of many CPUs: locus top in tmux, the heatmap folded per LLC (and per
# node in a smaller pane) as on big machines, read from the screen; a text report 40 columns
# wide, its heatmap folded per LLC, against its JSON matrix folded here by sysfs's LLC groups,
# cell by cell (the ramp's level of each folded sum). The screens are kept in $LAB_OUT.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	skip "no tmux"
	finish
fi
T() { tmux -L lab "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
pane_until() {
	for _ in $(seq 1 $(($2 * 2))); do T capture-pane -p | grep -Eq "$1" && return 0; sleep 0.5; done
	return 1
}
n=$(nproc)
T new-session -d -x 120 -y 40 "TERM=xterm-256color LANG=C.UTF-8 $LOCUS top -d 1 \
-o $TMP/top.txt -- hackbench -g 8 -l ${TOP_LOOPS:-150}; echo \$? >$TMP/rc; sleep 600"
# the screen once hackbench's wakeups fill cells in three LLC rows (its groups started)
painted_rows() { grep -cE '[│|]L[0-9]+ +[ .:=+*#%@-]*[.:=+*#%@-]' "$1"; }
pane_until 'c same CPU [0-9.]+%' 180
for _ in $(seq 1 120); do
	T capture-pane -p >"$OUT/top-120x40.txt"
	[ "$(painted_rows "$OUT/top-120x40.txt")" -ge 3 ] && break
	sleep 1
done
T capture-pane -p -e >"$TMP/top-120x40.esc"
cat "$OUT/top-120x40.txt"
check "120x40: heatmap cells painted in 256 colours" grep -Eq $'L[0-9]+.*\e\\[[0-9;]*48;5;[0-9]+m' "$TMP/top-120x40.esc"
check "120x40: the heatmap pane" grep -q "2 wakeups: waker x target CPU" "$OUT/top-120x40.txt"
check "120x40: $n CPUs folded per LLC (footer)" grep -Eq "per LLC +max" "$OUT/top-120x40.txt"
llc_firsts=$(for c in $(seq 0 $((n - 1))); do cut -d, -f1 "/sys/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list" | cut -d- -f1; done | sort -nu | sed 's/^/L/' | tr '\n' ' ')
check "120x40: a row per LLC, named by its first CPU ($llc_firsts)" "$PY" - "$OUT/top-120x40.txt" $llc_firsts <<'PY'
import re, sys
screen = open(sys.argv[1]).read()
rows = re.findall(r"[│|](L\d+)\s", screen)
want = sys.argv[2:]
print("rows:", rows)
assert [r for r in rows if r in want] == want, (rows, want)
PY
check "120x40: the cells keep their ramp characters in the text (a screen pasted into a mail)" \
	"$PY" - "$OUT/top-120x40.txt" <<'PY'
import re, sys
cells = "".join(re.findall(r"[│|]L\d+ +([ .:\-=+*#%@]+)", open(sys.argv[1]).read()))
print("ramp characters in the LLC rows:", sum(c != " " for c in cells))
assert any(c != " " for c in cells), cells
PY
T resize-window -x 80 -y 20
sleep 3
T capture-pane -p >"$OUT/top-80x20.txt"
cat "$OUT/top-80x20.txt"
check "80x20: folded further (per node, or per LLC where they are one)" \
	grep -Eq "per (node|LLC) +max" "$OUT/top-80x20.txt"
T resize-window -x 120 -y 40
T send-keys q
for _ in $(seq 1 240); do [ -s "$TMP/rc" ] && break; sleep 0.5; done
expect_eq "top exits with hackbench's status after q" 0 "$(cat "$TMP/rc" 2>/dev/null)"
keep "$TMP/top.txt"
COLUMNS=40 "$LOCUS" run -q --sections wakeups --json "$TMP/fold.json" -- hackbench -g 8 -l 50 \
	>"$TMP/fold.txt" 2>&1
expect_eq "run of hackbench, 40 columns: exit 0" 0 $?
keep "$TMP/fold.txt"
check "40 columns: the heatmap folded per LLC equals the JSON matrix folded by sysfs" \
	"$PY" - "$TMP/fold.txt" "$TMP/fold.json" <<'PY'
import json, math, re, sys
text, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
m = d["wakeups"]["matrix"]
n = len(m)
first = {}
for c in range(n):
    s = open("/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list" % c).read()
    first[c] = int(s.split(",")[0].split("-")[0])
groups = sorted(set(first.values()))
g = {c: groups.index(first[c]) for c in range(n)}
fold = [[0] * len(groups) for _ in groups]
for a in range(n):
    for b in range(n):
        fold[g[a]][g[b]] += m[a][b]
mx = max(max(r) for r in fold)
ramp = " .:-=+*#%@"
def level(v):
    if v == 0 or mx == 0: return 0
    return max(1, min(9, 1 + int(8.999 * math.log(v) / math.log(mx if mx > 1 else 2))))
sec = text[text.index("waker CPU (rows) -> target CPU (columns), one cell per LLC"):]
rows = dict(re.findall(r"^\s+L(\d+)\|(.*)\|$", sec, re.M)[:len(groups)])
checked = 0
for i, gi in enumerate(groups):
    if str(gi) not in rows:
        assert all(v == 0 for v in fold[i]), ("row left out but not empty", gi, fold[i])
        continue
    cells = rows[str(gi)]
    step = len(cells) // len(groups)
    for j in range(len(groups)):
        ch = cells[j * step]
        assert ch == ramp[level(fold[i][j])], (gi, groups[j], fold[i][j], ch, ramp[level(fold[i][j])])
        checked += 1
print("%d folded cells equal (%d LLC groups, max %d)" % (checked, len(groups), mx))
PY
finish
