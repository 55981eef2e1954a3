#!/usr/bin/env python3
"""pd_count.py FILE: count a perf.data file's tracepoint samples by event, read apart from
locus (the header, the attribute table and the data records, nothing else): a file-mode
file whose data runs past its end (a cut copy) is counted to its last whole record.
Prints JSON {"sys:event": count, ...}; with --cut, also whether the data was cut."""
import glob, json, os, struct, sys

PERF_RECORD_SAMPLE = 9
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR, SAMPLE_ID = 1, 2, 4, 8, 64
SAMPLE_IDENTIFIER = 1 << 16


def tracepoint_names():
    names = {}
    for root in ("/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events"):
        for path in glob.glob(root + "/*/*/id"):
            parts = path.split("/")
            names[int(open(path).read())] = parts[-3] + ":" + parts[-2]
        if names:
            break
    return names


def main():
    path = sys.argv[1]
    data = open(path, "rb").read()
    magic, hsize, attr_size, a_off, a_size, d_off, d_size = struct.unpack_from("<8s6Q", data, 0)
    assert magic == b"PERFILE2" and hsize == 104, "a file-mode perf.data file"
    names = tracepoint_names()
    by_id = {}
    for i in range(a_size // attr_size):
        base = a_off + i * attr_size
        typ, _sz, config, _period, sample_type = struct.unpack_from("<IIQQQ", data, base)
        ids_off, ids_size = struct.unpack_from("<QQ", data, base + attr_size - 16)
        name = names.get(config, "config %d" % config) if typ == 2 else "type %d" % typ
        for k in range(ids_size // 8):
            by_id[struct.unpack_from("<Q", data, ids_off + 8 * k)[0]] = (name, sample_type)
    end = min(d_off + d_size, len(data))
    pos, counts = d_off, {}
    while pos + 8 <= end:
        typ, _misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8 or pos + size > end:
            break
        if typ == PERF_RECORD_SAMPLE:
            st = next(iter(by_id.values()))[1]
            if st & SAMPLE_IDENTIFIER:
                sid = struct.unpack_from("<Q", data, pos + 8)[0]
            else:
                off = pos + 8 + 8 * sum(1 for b in (SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR)
                                        if st & b)
                sid = struct.unpack_from("<Q", data, off)[0]
            name = by_id.get(sid, ("unknown id",))[0]
            counts[name] = counts.get(name, 0) + 1
        pos += size
    out = {"counts": counts, "cut": d_off + d_size > len(data), "data_read": pos - d_off}
    print(json.dumps(out if "--cut" in sys.argv else counts, sort_keys=True))


main()
