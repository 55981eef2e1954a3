#!/usr/bin/env python3
"""svg_check.py - check what a locus SVG says in the picture itself, against an oracle of
the same run or fixture: the caption (command, kernel), thousands separators in titles and
legends, the heatmap's class shares against the JSON of the same run, its node boundaries
against a sysfs topology fixture, and the loop chart's error bars against the loop JSON.

usage: svg_check.py FILE.svg [--caption-has S]... [--separators] [--shares R.json] [--fits]
       [--nodes SYSFS_ROOT] [--errbars LOOP.json]
"""
import argparse
import json
import math
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
# two-sided 95% t quantiles by degrees of freedom (then the normal's)
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def fail(msg):
    print("svg_check: " + msg)
    sys.exit(1)


def text_of(e):
    return "".join(e.itertext())


def cpulist(s):
    out = []
    for part in s.strip().split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def caption(root, wants):
    g = [e for e in root.iter(NS + "g") if e.get("class") == "caption"]
    if len(g) != 1:
        fail("%d caption groups, not 1" % len(g))
    t = " ".join(text_of(x) for x in g[0].iter(NS + "text"))
    for w in wants:
        if w not in t:
            fail("the caption lacks %r: %r" % (w, t))


def separators(root):
    """Titles, legends and labels: no run of 4+ digits (a count >= 1000 without commas)."""
    n = 0
    for e in root.iter(NS + "text"):
        t = text_of(e)
        cls = e.get("class") or ""
        if cls in ("title", "shares", "share", "legend") or e.get("font-size") == "14":
            n += 1
            bad = re.findall(r"(?<![\d.,])\d{4,}(?![\d.])", t)
            if bad:
                fail("a count without separators in %r" % t)
    if not n:
        fail("no title text found")


def shares(root, path):
    w = json.load(open(path))["wakeups"]
    placed = w["placed"]
    spans = [e for e in root.iter() if e.tag in (NS + "tspan", NS + "text") and e.get("data-class")]
    if not spans:
        fail("no class shares drawn")
    for e in spans:
        k = e.get("data-class")
        got = float(re.search(r"([\d.]+)%", text_of(e)).group(1))
        want = 100.0 * w["by_class"][k] / placed
        if abs(got - round(want, 1)) > 0.051:
            fail("share %s: the picture says %.1f%%, the JSON's by_class %.3f%%" % (k, got, want))
    missing = set(w["by_class"]) - {e.get("data-class") for e in spans}
    if missing - {"llc"}:
        fail("classes not drawn: %s" % missing)
    print("svg_check: %d shares equal the JSON's" % len(spans))


def nodes(root, sysfs):
    import glob
    import os
    node_of = {}
    for d in glob.glob(os.path.join(sysfs, "devices/system/node/node*")):
        for c in cpulist(open(os.path.join(d, "cpulist")).read()):
            node_of[c] = int(d.rsplit("node", 1)[1])
    # the groups in column order, from the first row's cells: "<unit> <a> -> <unit> <b>: n"
    cols, xs = [], []
    row0 = None
    for r in root.iter(NS + "rect"):
        t = r.find(NS + "title")
        if t is None or "->" not in (t.text or ""):
            continue
        m = re.match(r"\S+ (\S+) -> \S+ (\S+):", t.text)
        if row0 is None:
            row0 = m.group(1)
        if m.group(1) != row0:
            break
        cols.append(m.group(2))
        xs.append(float(r.get("x")))
    first = [int(re.sub(r"^[A-Za-z]+", "", c)) for c in cols]
    want = [xs[i] for i in range(1, len(cols)) if node_of[first[i]] != node_of[first[i - 1]]]
    got = []
    for g in root.iter(NS + "g"):
        if g.get("class") == "node-boundary":
            ln = [x for x in g.iter(NS + "line") if x.get("x1") == x.get("x2")]
            got.append(float(ln[0].get("x1")))
    if sorted(got) != want:
        fail("node lines at x=%s, the fixture's node boundaries at x=%s" % (sorted(got), want))
    labels = [text_of(e) for e in root.iter(NS + "text") if e.get("class") == "node-label"]
    if len(want) and len(labels) != len(want) + 1:
        fail("%d node labels for %d boundaries" % (len(labels), len(want)))
    print("svg_check: %d node lines at the fixture's boundaries, labels %s" % (len(got), labels))


def ci95(v):
    n = len(v)
    if n < 2:
        return 0.0
    m = sum(v) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
    df = n - 1
    t = T95.get(df) or T95[max(k for k in T95 if k <= df)] if df <= 30 else 1.96
    return t * sd / math.sqrt(n)


def errbars(root, path):
    d = json.load(open(path))
    runs = [r for r in d["runs"] if r.get("ok")]
    bars = [e for e in root.iter(NS + "g") if e.get("class") == "errbar"]
    if not bars:
        fail("no error bars")
    for b in bars:
        key, value = b.get("data-measure"), b.get("data-value")
        v = [r["measures"][key] for r in runs if r["value"] == value and key in r["measures"]]
        m = sum(v) / len(v)
        h = ci95(v)
        lo, hi = float(b.get("data-lo")), float(b.get("data-hi"))
        tol = 1e-6 * max(1.0, abs(m)) + 5e-4 * max(h, 1e-9)
        if abs(lo - (m - h)) > tol or abs(hi - (m + h)) > tol:
            fail("%s at %s: bar %g..%g, the JSON's runs give %g +- %g" % (key, value, lo, hi, m, h))
        # the drawn extent: the vertical line spans the pixels of lo..hi on the panel's scale
        ln = [x for x in b.iter(NS + "line") if x.get("x1") == x.get("x2")][0]
        y1, y2 = float(ln.get("y1")), float(ln.get("y2"))
        scale = float(b.get("data-px-per-unit"))
        if h > 0 and not b.get("data-clipped") and abs(abs(y1 - y2) - 2 * h * scale) > 1.0:
            fail("%s at %s: drawn %g px, 2 x %g x %g expected" % (key, value, abs(y1 - y2), h, scale))
    legend = " ".join(text_of(e) for e in root.iter(NS + "text"))
    if "95% interval of the mean" not in legend:
        fail("the legend does not say what the bars are")
    print("svg_check: %d error bars equal the loop JSON's 95%% intervals" % len(bars))


def fits(root):
    """Every text inside the picture's width: its right edge, estimated as locus sizes its
    pictures (0.58 of the font size a character), within the width plus 3%."""
    width = float(root.get("width"))
    parents = {c: p for p in root.iter() for c in p}

    def font(e):
        while e is not None:
            if e.get("font-size"):
                return float(e.get("font-size"))
            e = parents.get(e)
        return 11.0

    over = []
    for e in root.iter(NS + "text"):
        t, x = text_of(e), e.get("x")
        if not t or x is None:
            continue
        w = len(t) * font(e) * 0.58
        anchor = e.get("text-anchor", "start")
        right = float(x) + (w if anchor == "start" else w / 2 if anchor == "middle" else 0)
        if right > width * 1.03:
            over.append("%r ends at %.0f of %.0f px" % (t[:60], right, width))
    if over:
        fail("text past the picture's edge: " + "; ".join(over[:3]))
    print("svg_check: every text within the %.0f px width" % width)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("svg")
    ap.add_argument("--caption-has", action="append", default=[])
    ap.add_argument("--separators", action="store_true")
    ap.add_argument("--shares")
    ap.add_argument("--nodes")
    ap.add_argument("--errbars")
    ap.add_argument("--fits", action="store_true")
    a = ap.parse_args()
    try:
        root = ET.parse(a.svg).getroot()
    except ET.ParseError as e:
        fail("not well-formed: %s" % e)
    if a.caption_has:
        caption(root, a.caption_has)
    if a.separators:
        separators(root)
    if a.shares:
        shares(root, a.shares)
    if a.nodes:
        nodes(root, a.nodes)
    if a.errbars:
        errbars(root, a.errbars)
    if a.fits:
        fits(root)


main()
