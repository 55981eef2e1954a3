#!/usr/bin/env python3
"""stackcollapse.py - `perf script` output of a `perf record -g` file into folded stacks
(one line a stack: comm;root;...;leaf COUNT), as stackcollapse-perf.pl --kernel does:
kernel frames get a "_[k]" suffix, offsets are dropped, the command name is the root.
An independent oracle for locus's folded stacks and flame graphs. Usage:
    perf script -i F | stackcollapse.py [--event NAME] > F.folded
"""
import collections
import re
import sys

def collapse(lines, event=None):
    counts = collections.Counter()
    head, frames = None, []

    def flush():
        if head is not None and (event is None or event in head[1]):
            stack = [head[0]] + list(reversed(frames))
            counts[";".join(stack)] += 1

    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            flush()
            head, frames = None, []
            continue
        if not line[0].isspace():
            flush()
            # "comm pid [cpu] time: event: ..." (comm may hold spaces: cut at " pid [")
            m = re.match(r"^(.*?)\s+\d+(?:/\d+)?\s+\[\d+\]\s+[\d.]+:\s+(?:\d+\s+)?(\S+):", line)
            head = (m.group(1).replace(" ", "_").replace(";", ":") or "[unknown]",
                    m.group(2)) if m else ("[unknown]", "")
            frames = []
            continue
        m = re.match(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)$", line)
        if not m:
            continue
        sym, dso = m.group(1), m.group(2)
        sym = re.sub(r"\+0x[0-9a-f]+$", "", sym).replace(";", ":")
        if sym == "[unknown]" and dso not in ("[unknown]", ""):
            sym = "[unknown]"
        if "kernel.kallsyms" in dso or dso.startswith("[kernel"):
            sym += "_[k]"
        frames.append(sym)
    flush()
    return counts

def main():
    event = None
    if len(sys.argv) == 3 and sys.argv[1] == "--event":
        event = sys.argv[2]
    for stack, n in sorted(collapse(sys.stdin, event).items()):
        print(f"{stack} {n}")

if __name__ == "__main__":
    main()
