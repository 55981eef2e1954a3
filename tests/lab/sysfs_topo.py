#!/usr/bin/env python3
"""sysfs_topo.py - the machine's locality classes read from sysfs, not from locus's code: the
SMT siblings (thread_siblings_list), the last-level cache (cache/index3/shared_cpu_list) and
the nodes (/sys/devices/system/node) of each CPU. wake_oracle.py imports it; the lab's
scripts call it:

  sysfs_topo.py classes   the classes this topology has (same_cpu smt llc node remote)
  sysfs_topo.py pairs     for each class but same_cpu, the first CPU after 0 in it: CLASS:CPU
"""
import os
import re
import sys

CLASSES = ("same_cpu", "smt", "llc", "node", "remote")


def cpulist(text):
    cpus = set()
    for part in text.strip().split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def read(path):
    with open(path) as f:
        return f.read()


class Topology:
    def __init__(self, sysfs="/sys"):
        base = os.path.join(sysfs, "devices/system/cpu")
        self.ncpus = len(cpulist(read(os.path.join(base, "possible"))))
        self.smt, self.llc, self.node = {}, {}, {}
        for c in range(self.ncpus):
            d = os.path.join(base, "cpu%d" % c)
            self.smt[c] = cpulist(read(os.path.join(d, "topology/thread_siblings_list")))
            p = os.path.join(d, "cache/index3/shared_cpu_list")
            self.llc[c] = cpulist(read(p)) if os.path.exists(p) else None
        nbase = os.path.join(sysfs, "devices/system/node")
        for n in sorted(os.listdir(nbase)) if os.path.isdir(nbase) else []:
            if re.match(r"node\d+$", n):
                for c in cpulist(read(os.path.join(nbase, n, "cpulist"))):
                    self.node[c] = int(n[4:])

    def cls(self, x, y):
        """The class of a wakeup from CPU x to CPU y."""
        if x == y:
            return "same_cpu"
        if y in self.smt[x]:
            return "smt"
        if self.llc[x] is not None and y in self.llc[x]:
            return "llc"
        if self.node.get(x, 0) == self.node.get(y, 0):
            return "node"
        return "remote"


def main():
    t = Topology()
    if sys.argv[1:] == ["classes"]:
        have = {t.cls(a, b) for a in range(t.ncpus) for b in range(t.ncpus)}
        print(" ".join(k for k in CLASSES if k in have))
    elif sys.argv[1:] == ["pairs"]:
        seen = {}
        for c in range(1, t.ncpus):
            seen.setdefault(t.cls(0, c), c)
        print(" ".join("%s:%d" % kv for kv in seen.items()))
    else:
        sys.exit("usage: sysfs_topo.py classes|pairs")


if __name__ == "__main__":
    main()
