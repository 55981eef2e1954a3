#!/usr/bin/env python3
"""stacks_oracle.py - per-stack counts from perf script, the oracle of tests/e2e/stacks.sh.

Reads `perf script -F comm,pid,tid,cpu,time,event,trace,ip,sym,symoff,dso
--show-mmap-events --show-task-events` of a recording with callchains and writes,
independently of locus, the folded stacks locus report --folded writes with
--stack-addresses:
  wakers:  every sched_waking sample's callchain, root first, counted;
  blocked: every sched_switch sample whose prev_state is a voluntary sleep (not R, R+,
           and not an exit: X or Z) with prev_pid > 0, its callchain counted.
perf prints a user frame it resolved as an offset into its file ("f8350 ... (libc.so.6)");
the mappings perf saw (MMAP/MMAP2, copied at FORK, kept at exec) turn it back into the
address the kernel recorded. --names FILE writes, per address, the name perf gave, its file
('-' for the kernel) and where that symbol starts in the file (perf's offset minus +0x..).
"""
import re
import sys

HDR = re.compile(r"^\s*(.*?)\s+(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(.*)$")
MMAP = re.compile(r'PERF_RECORD_MMAP2? (-?\d+)/(-?\d+): \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ '
                  r'(0x[0-9a-f]+|0)[^\]]*\]: \S+ (.*)$')
FORK = re.compile(r'PERF_RECORD_FORK\((\d+):(\d+)\):\((\d+):(\d+)\)')
FRAME = re.compile(r'^\s+([0-9a-f]+) (.*) \((.*)\)$')


def main():
    out_w, out_b = sys.argv[1], sys.argv[2]
    names_out = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == '--names' else None
    maps = {}          # pid -> [(start, len, pgoff, path)]
    wakers, blocked = {}, {}
    names = {}         # absolute address -> set of perf's names
    unmapped = 0
    cur = None         # (kind, pid, frames) of the sample being read

    def close():
        nonlocal cur
        if cur and cur[2]:
            d = wakers if cur[0] == 'w' else blocked
            key = ';'.join('0x%x' % a for a in reversed(cur[2]))
            d[key] = d.get(key, 0) + 1
        cur = None

    for line in sys.stdin:
        line = line.rstrip('\n')
        fm = FRAME.match(line)
        if fm and cur is not None:
            addr, sym, dso = int(fm.group(1), 16), fm.group(2), fm.group(3)
            rel = addr
            if dso not in ('[kernel.kallsyms]', '[unknown]') and not dso.startswith('[kernel'):
                for start, ln, pgoff, path in reversed(maps.get(cur[1], [])):
                    if path == dso and pgoff <= addr < pgoff + ln:
                        addr = start + addr - pgoff
                        break
                else:
                    unmapped += 1
            cur[2].append(addr)
            if sym != '[unknown]':
                kern = dso.startswith('[kernel')
                off = re.search(r'\+0x([0-9a-f]+)$', sym)
                start = rel - (int(off.group(1), 16) if off else 0)
                names.setdefault(addr, set()).add((re.sub(r'\+0x[0-9a-f]+$', '', sym) +
                                                   ('_[k]' if kern else ''),
                                                   '-' if kern else dso, start))
            continue
        if fm:
            continue
        if not line.strip():
            close()
            continue
        h = HDR.match(line)
        if not h:
            continue
        close()
        pid, rest = int(h.group(2)), h.group(6)
        m = MMAP.search(rest)
        if m:
            maps.setdefault(int(m.group(1)), []).append(
                (int(m.group(3), 16), int(m.group(4), 16), int(m.group(5), 16), m.group(6)))
            continue
        m = FORK.search(rest)
        if m:
            child, parent = int(m.group(1)), int(m.group(3))
            if child != parent:
                maps[child] = list(maps.get(parent, []))
            continue
        # exec keeps the old mappings, as perf's do: a waking inside execve after the
        # COMM (the vfork parent's, or a softirq's during the ELF load) still has the old
        # image's return address, which perf resolves through them; the new image's
        # mappings are found first (the newest of a file's that hold the offset)
        if 'sched:sched_waking:' in rest:
            cur = ('w', pid, [])
        elif 'sched:sched_switch:' in rest:
            st = re.search(r'prev_state=(\S+)', rest).group(1).rstrip('+')
            ppid = int(re.search(r'prev_pid=(-?\d+)', rest).group(1))
            flags = st.split('|')
            if st != 'R' and 'X' not in flags and 'Z' not in flags and ppid > 0:
                cur = ('b', pid, [])
    close()
    for path, d in ((out_w, wakers), (out_b, blocked)):
        with open(path, 'w') as f:
            for k in sorted(d):
                f.write('%s %d\n' % (k, d[k]))
    if names_out:
        with open(names_out, 'w') as f:
            for a in sorted(names):
                for n, dso, start in sorted(names[a]):
                    f.write('0x%x %s %s 0x%x\n' % (a, n, dso, start))
    print('oracle: %d waker stacks (%d wakings), %d blocked stacks (%d switch-outs), '
          '%d user frames outside the maps perf saw' %
          (len(wakers), sum(wakers.values()), len(blocked), sum(blocked.values()), unmapped))


main()
