#!/usr/bin/env bash
# schedstat_records.sh - /proc/schedstat snapshots in perf.data. A file in the layout of
# `perf sched stats record` (PERF_RECORD_SCHEDSTAT_CPU / _DOMAIN, built by
# tests/tools/perf_schedstat.py from perf's own definitions, apart from locus's code) for
# each of versions 15, 16 and 17: locus report gives every counter's delta as the
# generator computed it from the two texts. A file with one snapshot, or with a damaged
# record, says why there are no deltas. locus record stores its snapshots the same way
# where /proc/schedstat exists.
. "$(dirname "$0")/../lib.sh"

GEN=tests/tools/perf_schedstat.py
for v in 15 16 17; do
	python3 "$GEN" "tests/fixtures/schedstat/v$v-before" "tests/fixtures/schedstat/v$v-after" \
		"$TMP/v$v.data" >"$TMP/v$v.exp"
	"$LOCUS" report -q -i "$TMP/v$v.data" --json "$TMP/v$v.json" >"$TMP/v$v.txt" 2>"$TMP/v$v.err"
	expect_eq "v$v: report exits 0" 0 $?
	check "v$v: every counter's delta, CPU by CPU and domain by domain" python3 - "$TMP/v$v.exp" "$TMP/v$v.json" <<'EOF'
import json, sys
exp = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))["schedstat"]
v = exp["version"]
assert s["available"] and s["version"] == v and s["jiffies"] == exp["jiffies"], s.get("reason")
cpu_keys = ["yld_count", None, "sched_count", "sched_goidle", "ttwu_count", "ttwu_local",
            "rq_cpu_time", "run_delay", "pcount"]
lb = (["lb_count", "lb_balanced", "lb_failed", "lb_imbalance_load", "lb_imbalance_util",
       "lb_imbalance_task", "lb_imbalance_misfit", "lb_gained", "lb_hot_gained", "lb_nobusyq",
       "lb_nobusyg"] if v >= 17 else
      ["lb_count", "lb_balanced", "lb_failed", "lb_imbalance", "lb_gained", "lb_hot_gained",
       "lb_nobusyq", "lb_nobusyg"])
order = ["idle", "busy", "newly_idle"] if v == 15 else ["busy", "idle", "newly_idle"]
dom = ["alb_count", "alb_failed", "alb_pushed", "sbe_count", "sbe_balanced", "sbe_pushed",
       "sbf_count", "sbf_balanced", "sbf_pushed", "ttwu_wake_remote", "ttwu_move_affine",
       "ttwu_move_balance"]
got = {c["cpu"]: c for c in s["cpus"]}
assert sorted(got) == sorted(int(c) for c in exp["cpus"]), (sorted(got), exp["cpus"].keys())
n = 0
for cpu, vals in exp["cpus"].items():
    c = got[int(cpu)]
    for k, val in zip(cpu_keys, vals):
        if k:
            assert c[k] == val, (cpu, k, c[k], val); n += 1
    doms = {d["level"]: d for d in c["domains"]}
    for key, cols in exp["domains"].items():
        dc, lvl = map(int, key.split("/"))
        if dc != int(cpu):
            continue
        d = doms[lvl]
        names = [(t, k) for t in order for k in lb] + [(None, k) for k in dom]
        assert len(names) == len(cols), (len(names), len(cols))
        for (t, k), val in zip(names, cols):
            got_v = d["lb"][t][k] if t else d[k]
            assert got_v == val, (cpu, lvl, t, k, got_v, val); n += 1
print("v%d: %d counters equal" % (v, n))
EOF
	check "v$v: text names the records and the snapshots" grep -q "/proc/schedstat records (SCHEDSTAT_CPU and _DOMAIN), 2 snapshots" "$TMP/v$v.txt"
	check "v$v: the domain table" grep -q "Scheduler domains (/proc/schedstat v$v, 250 jiffies" "$TMP/v$v.txt"
done

# one snapshot: said, no deltas
python3 - "$TMP/v16.data" "$TMP/one.data" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", b, 40)
data, recs, at = b[off:off + size], [], 0
while at < len(data):
    recs.append(data[at:at + struct.unpack_from("<H", data, at + 6)[0]]); at += len(recs[-1])
half = b"".join(recs[:len(recs) // 2])
hdr = bytearray(b[:off]); struct.pack_into("<QQ", hdr, 40, off, len(half))
open(sys.argv[2], "wb").write(bytes(hdr) + half)
EOF
"$LOCUS" report -q -i "$TMP/one.data" >"$TMP/one.txt" 2>&1
check "one snapshot: said why there are no deltas" grep -q "not available: the file holds one schedstat snapshot" \
	<(tr -s ' \n' '  ' <"$TMP/one.txt") # prose folds at 80 columns

# a domain record cut short (its size says 40 bytes): refused and counted, not read past
python3 - "$TMP/v15.data" "$TMP/cut.data" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off = struct.unpack_from("<Q", b, 40)[0]
at = off + 72                      # the first domain record, after the first CPU's
assert struct.unpack_from("<I", b, at)[0] == 86
struct.pack_into("<H", b, at + 6, 40)
struct.pack_into("<IHH", b, at + 40, 68, 0, 208 - 40)  # the rest: a FINISHED_ROUND-sized skip
open(sys.argv[2], "wb").write(bytes(b))
EOF
"$LOCUS" report -q -i "$TMP/cut.data" >"$TMP/cut.txt" 2>&1
check "a short record: refused, said" grep -q "SCHEDSTAT records refused: a SCHEDSTAT_DOMAIN record too short" \
	<(tr -s ' \n' '  ' <"$TMP/cut.txt")

# locus record: the snapshots go into the file where /proc/schedstat exists
if have_root && [ -r /proc/schedstat ]; then
	"$LOCUS" record -q -o "$TMP/r.data" -- sleep 0.1 >/dev/null 2>&1
	"$LOCUS" report -q -i "$TMP/r.data" >"$TMP/r.txt" 2>/dev/null
	check "locus record: two snapshots in the file" grep -q "2 snapshots" "$TMP/r.txt"
else
	skip "locus record's snapshots: no /proc/schedstat here (CONFIG_SCHEDSTATS off)"
fi
finish
