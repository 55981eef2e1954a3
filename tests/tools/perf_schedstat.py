#!/usr/bin/env python3
"""perf_schedstat.py - a perf.data file as `perf sched stats record` writes it, from two
/proc/schedstat texts (its start and end snapshots), and the deltas an honest reader gives.

Written apart from locus's C code, from perf's own definitions
(tools/lib/perf/include/perf/event.h and schedstat-v15/16/17.h):

  PERF_RECORD_SCHEDSTAT_CPU (85):    header, u64 timestamp, u32 cpu, u16 version, char pad[2],
                                     then u32 yld_count .. ttwu_local (6), u64 rq_cpu_time,
                                     run_delay, pcount; sizeof = 72
  PERF_RECORD_SCHEDSTAT_DOMAIN (86): header, u64 timestamp, u32 cpu, u16 version, u16 domain,
                                     then every counter after the mask as a u32, in the file's
                                     order; sizeof = 24 + the v17 union (45 u32) = 204 -> 208

The file has perf's 104-byte header, no attributes, and the records in its data section.

usage: perf_schedstat.py BEFORE AFTER OUT.data   (prints the expected deltas as JSON)
"""
import json
import struct
import sys

CPU, DOMAIN = 85, 86
CPU_SIZE, DOMAIN_SIZE = 72, 208


def parse(path):
    """version, timestamp, [(cpu, [9 counters], [(level, name, [counters])])]"""
    version = ts = None
    cpus = []
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "version":
            version = int(w[1])
        elif w[0] == "timestamp":
            ts = int(w[1])
        elif w[0].startswith("cpu"):
            cpus.append((int(w[0][3:]), [int(x) for x in w[1:10]], []))
        elif w[0].startswith("domain"):
            rest = w[1:]
            name = ""
            if version >= 17 and not all(c in "0123456789abcdef," for c in rest[0]):
                name, rest = rest[0], rest[1:]
            cpus[-1][2].append((int(w[0][6:]), name, [int(x) for x in rest[1:]]))
    return version, ts, cpus


def records(version, ts, cpus):
    out = b""
    for cpu, c, doms in cpus:
        body = struct.pack("<QIH2x", ts, cpu, version) + struct.pack("<6I3Q", *c)
        out += struct.pack("<IHH", CPU, 0, CPU_SIZE) + body.ljust(CPU_SIZE - 8, b"\0")
        for level, _name, cols in doms:
            body = struct.pack("<QIHH", ts, cpu, version, level)
            body += struct.pack("<%dI" % len(cols), *cols)
            out += struct.pack("<IHH", DOMAIN, 0, DOMAIN_SIZE) + body.ljust(DOMAIN_SIZE - 8, b"\0")
    return out


def main():
    before, after, out = sys.argv[1:4]
    b, a = parse(before), parse(after)
    data = records(*b) + records(*a)
    header_size = 104
    hdr = b"PERFILE2" + struct.pack("<QQ", header_size, 136 + 16)
    hdr += struct.pack("<QQ", header_size, 0)              # attrs: none
    hdr += struct.pack("<QQ", header_size, len(data))      # data
    hdr += struct.pack("<QQ", 0, 0)                        # event types
    hdr += b"\0" * 32                                      # no features
    assert len(hdr) == header_size
    with open(out, "wb") as f:
        f.write(hdr + data)
    # the deltas by CPU and by CPU and domain level, for the caller to compare
    exp = {"version": a[0], "jiffies": a[1] - b[1], "cpus": {}, "domains": {}}
    for (cpu, cb, db), (_, ca, da) in zip(b[2], a[2]):
        exp["cpus"][str(cpu)] = [y - x for x, y in zip(cb, ca)]
        for (lvl, _n, xb), (_, _m, xa) in zip(db, da):
            exp["domains"]["%d/%d" % (cpu, lvl)] = [y - x for x, y in zip(xb, xa)]
    json.dump(exp, sys.stdout)


if __name__ == "__main__":
    main()
