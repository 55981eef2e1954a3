#!/usr/bin/env python3
"""svg_timeline_check.py - check an SVG timeline of locus report --svg-timeline: well-formed
XML, the lanes it says it has (labelled), time ticks on round values (1, 2 or 5 times a power
of ten seconds, evenly spaced, increasing), every running period inside the plot, arrows no
more than the bound, and the counts it states; with --trace FILE (the Chrome trace of the
same window), the wakeups of its header equal the trace's flows, the arrows drawn are
all of those between CPUs when they fit, and the same-CPU ticks (counts per pixel column)
hold every same-CPU wakeup: per CPU, the trace's same_cpu flows when every flow is the
workload's (-a).

usage: svg_timeline_check.py FILE.svg --lanes N [--unit CPU|core|LLC|node] [--trace T.json]
       [--class-counts a,b,c,d,e] [--min-same N] [--every-class-drawn]
"""
import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("svg_timeline_check: " + msg)
    sys.exit(1)


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(NS + "text")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("svg")
    ap.add_argument("--lanes", type=int, required=True)
    ap.add_argument("--unit", default="CPU")
    ap.add_argument("--trace")
    ap.add_argument("--class-counts")
    ap.add_argument("--max-arrows", type=int, default=400)
    ap.add_argument("--min-same", type=int, default=0)
    ap.add_argument("--every-class-drawn", action="store_true")
    a = ap.parse_args()
    try:
        root = ET.parse(a.svg).getroot()
    except ET.ParseError as e:
        fail("not well-formed XML: %s" % e)
    if root.tag != NS + "svg":
        fail("the root is not <svg>")
    tx = texts(root)
    head = [t for t in tx if "into the recording" in t]
    if not head:
        fail("no window line")
    m = re.search(r"one lane per (\S+?)[ ,].*\((\d+) lanes, (\d+) CPUs\)", head[0])
    if not m or m.group(1) != a.unit or int(m.group(2)) != a.lanes:
        fail("window line %r: not %d lanes per %s" % (head[0], a.lanes, a.unit))
    lanes = [t for t in tx if (re.fullmatch(r"CPU \d+", t) if a.unit == "CPU" else re.fullmatch(r"[cLN]\d+", t))]
    if len(lanes) != a.lanes and not (a.lanes > 64 and len(lanes) == (a.lanes + 3) // 4):
        fail("%d lane labels, %d lanes" % (len(lanes), a.lanes))
    ticks = [float(t[:-2]) for t in tx if re.fullmatch(r"\d+(\.\d+)? s", t)]
    if len(ticks) < 2:
        fail("fewer than 2 time ticks: %r" % ticks)
    steps = [round(b - x, 9) for x, b in zip(ticks, ticks[1:])]
    if any(abs(s - steps[0]) > 1e-9 for s in steps) or steps[0] <= 0:
        fail("ticks not evenly spaced and increasing: %r" % ticks)
    mant = steps[0] / 10 ** __import__("math").floor(__import__("math").log10(steps[0]))
    if min(abs(mant - r) for r in (1, 2, 5, 10)) > 1e-6:
        fail("tick step %g is not 1, 2 or 5 times a power of ten" % steps[0])
    if any(abs(t / steps[0] - round(t / steps[0])) > 1e-6 for t in ticks):
        fail("ticks %r are not multiples of their step" % ticks)
    width = float(root.get("width"))
    for r in root.iter(NS + "rect"):
        if r.find(NS + "title") is not None:
            x, w = float(r.get("x")), float(r.get("width"))
            if x < 0 or x + w > width or w <= 0:
                fail("a running period outside the picture: x %g width %g" % (x, w))
    arrows = [p for p in root.iter(NS + "path") if p.get("marker-end")]
    if len(arrows) > a.max_arrows:
        fail("%d arrows, more than %d" % (len(arrows), a.max_arrows))
    counts = [t for t in tx if " running periods, " in t or " wakeups (" in t]
    m = re.search(r"([\d,]+) running periods, [\d,]+ migrations \([\d,]+ of the workload's\) ([\d,]+) wakeups \(([\d,]+) of the workload's: (\d+) drawn as arrows(?:, one in \d+)?, ([\d,]+) on their waker.s CPU as ticks\)", " ".join(counts[:2]))
    if not m:
        fail("no counts line")
    flows = int(m.group(2).replace(",", ""))
    wl = int(m.group(3).replace(",", ""))
    drawn = int(m.group(4))
    same = int(m.group(5).replace(",", ""))
    if drawn != len(arrows):
        fail("says %d drawn, draws %d" % (drawn, len(arrows)))
    if wl - same <= a.max_arrows and drawn != wl - same:
        fail("%d wakeups of the workload between CPUs fit, %d drawn" % (wl - same, drawn))
    # same-CPU wakeups: ticks, not arrows; every one counted (none thinned)
    ticks_by_lane = {}
    for g in root.iter(NS + "g"):
        if g.get("class") == "same-cpu":
            for r in g.iter(NS + "rect"):
                ln = r.get("data-lane")
                ticks_by_lane[ln] = ticks_by_lane.get(ln, 0) + int(r.get("data-n"))
    if same < a.min_same:
        fail("%d same-CPU wakeups, fewer than %d" % (same, a.min_same))
    if sum(ticks_by_lane.values()) != same:
        fail("same-CPU ticks hold %d wakeups, the header says %d" % (sum(ticks_by_lane.values()), same))
    if any(p.get("d") and " Q" in p.get("d") and p.get("stroke") == "#444444" for p in arrows):
        fail("a same-CPU wakeup drawn as an arc")
    if a.trace:
        tr = json.load(open(a.trace))["traceEvents"]
        nflows = sum(1 for e in tr if e["ph"] == "s")
        if nflows != flows:
            fail("%d wakeups in the picture, %d flows in the trace of the same window" % (flows, nflows))
        if a.unit == "CPU" and flows == wl:  # every flow the workload's (-a): per CPU, one for one
            want = {}
            for e in tr:
                if e["ph"] == "s" and e["args"].get("class") == "same_cpu":
                    want[str(e["tid"])] = want.get(str(e["tid"]), 0) + 1
            if want != ticks_by_lane:
                fail("same-CPU ticks per CPU %r, the trace's same_cpu flows per CPU %r" % (ticks_by_lane, want))
    if a.class_counts:
        want = [int(x) for x in a.class_counts.split(",")]
        got = []
        for label in ("same CPU", "SMT sibling", "shared LLC", "same node", "other node"):
            c = [t for t in tx if t.startswith(label + " ")]
            got.append(int(c[0].split()[-1].replace(",", "")) if c else -1)
        if got != want:
            fail("wakeups by class %r, want %r" % (got, want))
    if a.every_class_drawn:  # thinning keeps each class's share, whatever order they come in
        colour = {"SMT sibling": "#00796b", "shared LLC": "#1f4e9c", "same node": "#b35900",
                  "other node": "#c00000"}
        for label, c in colour.items():
            n = [t for t in tx if t.startswith(label + " ")]
            if n and int(n[0].split()[-1].replace(",", "")) > 0 and \
                    not any(p.get("stroke") == c for p in arrows):
                fail("%s wakeups counted, none drawn as an arrow" % label)
    print("svg_timeline_check: %d lanes per %s, %d ticks every %g s, %d arrows of %d wakeups of "
          "the workload: ok" % (a.lanes, a.unit, len(ticks), steps[0], drawn, wl))


if __name__ == "__main__":
    main()
