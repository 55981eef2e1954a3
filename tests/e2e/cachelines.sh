#!/usr/bin/env bash
# cachelines.sh - memory-sample files with the data_src encodings kernels write: locus ranks
# and classifies each line, and its per-line HITM counts agree with perf c2c report's.
. "$(dirname "$0")/../lib.sh"
MEMGEN=$PWD/build/memgen

"$MEMGEN" "$TMP/c2c.data" tests/fixtures/topology/2s16c2t-64 2000
expect_eq "the fixture writer ran" 0 $?
"$LOCUS" report -q -i "$TMP/c2c.data" --json "$TMP/c2c.json" >"$TMP/c2c.txt"
expect_eq "locus report reads the memory-sample file" 0 $?
check "ranked and classified: false sharing first, true sharing second, read-mostly third" \
	python3 - "$TMP/c2c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cl = d["cachelines"]
assert cl[0]["address"] == "0x7f0000001000" and cl[0]["verdict"] == "false_sharing", cl[0]
assert cl[0]["hitm"] == {"local": 0, "remote": 200}
assert [o["offset"] for o in cl[0]["offsets"]] == [0, 8]
assert [o["writers"] for o in cl[0]["offsets"]] == [[1001], [1002]]
assert cl[0]["store_l1"] == {"hit": 20, "miss": 180}
assert cl[1]["address"] == "0x7f0000002000" and cl[1]["verdict"] == "true_sharing", cl[1]
assert cl[1]["hitm"] == {"local": 150, "remote": 0}
assert sorted(cl[1]["offsets"][0]["writers"]) == [1003, 1004, 1005, 1006]
rm = [c for c in cl if c["address"] == "0x7f0000003000"][0]
assert rm["verdict"] == "read_mostly" and rm["loads"] == 300
m = d["memory"]
assert m["lines"] == 2005 and m["no_address"] == 1 and m["unparsable"] == 2, m
assert m["hitm"] == {"local": 150, "remote": 320}
# the line on a real global, named through the file's MMAP2 records (elfutils)
named = [c for c in cl if c["offsets"][0].get("data_symbol", "").startswith("memgen_pair")][0]
assert named["verdict"] == "false_sharing" and named["hitm"]["remote"] == 120
a, b = named["offsets"]
assert a["data_symbol"] == "memgen_pair" and b["data_symbol"] == "memgen_pair+0x8", (a, b)
assert a["symbols"][0].startswith("memgen_writer_a (memgen.c:"), a["symbols"]
assert b["symbols"][0].startswith("memgen_writer_b (memgen.c:"), b["symbols"]
PY
check "the text names the data and the code" grep -q "data: memgen_pair" "$TMP/c2c.txt"
check "the text report fits 80 columns" bash -c "! awk 'length > 80' '$TMP/c2c.txt' | grep -q ."
check "each offset's share of the line's stores and HITM" python3 -c "
import json, sys; o = json.load(open(sys.argv[1]))['cachelines'][0]['offsets']
assert [x['store_share'] for x in o] == [0.5, 0.5] and [x['hitm_share'] for x in o] == [0.5, 0.5]" "$TMP/c2c.json"
check "the verdict is said in words" python3 -c "
import sys; t = ' '.join(open(sys.argv[1]).read().split())
assert 'false sharing: +0x0 written by tid 1001 on node 0 and +0x8 written by tid 1002 on node 1' in t" "$TMP/c2c.txt"

# perf c2c report on the same file: the same HITM per line.
perf c2c report -i "$TMP/c2c.data" --stdio >"$TMP/perf-c2c.txt" 2>/dev/null
expect_eq "perf c2c report reads the fixture" 0 $?
check "per-line HITM (total, local, remote) equals perf c2c report's" python3 - "$TMP/c2c.json" "$TMP/perf-c2c.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
ours = {c["address"]: (c["hitm"]["local"] + c["hitm"]["remote"], c["hitm"]["local"], c["hitm"]["remote"])
        for c in d["cachelines"] if c["hitm"]["local"] + c["hitm"]["remote"]}
text = open(sys.argv[2]).read()
table = text.split("Shared Data Cache Line Table")[1].split("Shared Cache Line Distribution")[0]
perf = {}
for line in table.splitlines():
    m = re.match(r"\s+\d+\s+(0x[0-9a-f]+)\s+\S+\s+\d+\s+[\d.]+%\s+(\d+)\s+(\d+)\s+(\d+)", line)
    if m:
        perf[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
assert perf and perf == ours, (perf, ours)
PY

check "code symbols and source lines equal perf c2c report's" python3 - "$TMP/c2c.json" "$TMP/perf-c2c.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
ours = {s for c in d["cachelines"] for o in c["offsets"] for s in o.get("symbols", []) if "memgen_writer" in s}
perf = {"%s (%s)" % m for m in re.findall(r"\[\.\] (memgen_writer_[ab])\s+memgen\s+(memgen\.c:\d+)", open(sys.argv[2]).read())}
assert ours and ours == perf, (ours, perf)
PY
"$LOCUS" report -q -i "$TMP/c2c.data" -d lcl --json "$TMP/lcl.json" >/dev/null
check "-d lcl ranks the local-HITM line first" python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); assert d['cachelines'][0]['address'] == '0x7f0000002000'" "$TMP/lcl.json"
"$LOCUS" report -q -i "$TMP/c2c.data" --line-size 128 --json "$TMP/l128.json" >/dev/null
check "--line-size 128 folds neighbouring lines" python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); assert d['memory']['line_size'] == 128 and d['memory']['lines'] < 2005" "$TMP/l128.json"
"$LOCUS" report -q -i "$TMP/c2c.data" --line-size 96 >/dev/null 2>&1
expect_eq "--line-size 96 is a usage error" 2 $?

# A real file from perf record: a software event with the memory-sample layout.
if have_root; then
	perf record -q -o "$TMP/pf.data" -d -W --phys-data -c 1 -e page-faults -- true 2>/dev/null
	"$LOCUS" report -q -i "$TMP/pf.data" --json "$TMP/pf.json" >/dev/null
	expect_eq "perf record -d -W --phys-data -e page-faults: read without error" 0 $?
	check "its samples are counted, none placed on a line by guesswork" python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); m = d['memory']; assert m['samples'] > 0 and m['unparsable'] == m['samples']" "$TMP/pf.json"
else
	skip "perf record needs root here"
fi
finish
