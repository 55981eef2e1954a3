#!/usr/bin/env python3
"""consistency.py REPORT.json REPORT.txt HEAT.svg|- TIMELINE.svg: one set of wakeups, counted
alike in every section of one locus report, or each difference equal to the count that
explains it. Prints what it compared; exits 1 with the first disagreement.

The two class definitions: the Wakeups section, latency and the heatmap count a wakeup by
its waker CPU -> target CPU (the CPU chosen); blame, the stacks and the timelines by the CPU
it ran on, seen from its waker's. wakeups.ran_on holds the timed wakeups by the second and
the moves from the first, so each section's counts follow from the other's."""
import json
import math
import re
import sys
import xml.etree.ElementTree as ET

LABELS = {"same_cpu": "same CPU", "smt": "SMT sibling", "llc": "shared LLC",
          "node": "same node", "remote": "other node"}
failed = []


def check(what, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + what + (": " + str(detail) if detail and not cond else ""))
    if not cond:
        failed.append(what)


def num(s):
    return int(s.replace(",", ""))


def label(d, k):
    """The text's label of class k ('same node (LLC unknown)' where the LLC is unknown)."""
    if k == "node" and not d["topology"]["llc_known"]:
        return "same node (LLC unknown)"
    return LABELS[k]


def section(text, title):
    """The lines of the section whose heading starts with title, up to the next heading."""
    out, on = [], False
    for line in text.split("\n"):
        if line.startswith(" " + title) or line.startswith(title):
            on = True
        elif on and line[:2] != "  " and line.strip():
            break
        if on:
            out.append(line)
    return out


def joined(lines):
    return re.sub(r"\s+", " ", " ".join(lines))


def main():
    d = json.load(open(sys.argv[1]))
    text = open(sys.argv[2]).read()
    w, lat = d["wakeups"], d["latency"]
    ro = w["ran_on"]
    classes = list(w["by_class"])
    # the moves, and each class's timed wakeups both ways
    moved = {(m["target"], m["ran"]): m["count"] for m in ro["moved"]}
    col = ro["by_class"]
    diag = {c: col[c] - sum(v for (t, r), v in moved.items() if r == c and t != c) for c in classes}
    row = {c: diag[c] + sum(v for (t, r), v in moved.items() if t == c and r != c) for c in classes}
    print("classes", classes, "target", w["by_class"], "ran", col, "moved", moved)

    check("wakeups: the classes add up to the wakeups placed", sum(w["by_class"].values()) == w["placed"],
          (w["by_class"], w["placed"]))
    check("ran_on: the classes add up to the timed", sum(col.values()) == ro["timed"], (col, ro["timed"]))
    check("latency: each class's count is the timed ones of that target class (ran_on's rows)",
          all(lat["by_class"][c]["count"] == row[c] for c in classes),
          ({c: lat["by_class"][c]["count"] for c in classes}, row))
    untimed = w["placed"] - ro["timed"]
    check("latency: the target classes less the timed ones are the untimed, each class at least 0",
          all(w["by_class"][c] >= row[c] for c in classes) and untimed >= 0,
          ({c: w["by_class"][c] - row[c] for c in classes}, untimed))
    check("ran elsewhere than chosen = the moves between classes + within a class + outside the matrix",
          w["ran_elsewhere"] == sum(moved.values()) + ro["moved_within_class"] + ro["moved_not_in_matrix"],
          (w["ran_elsewhere"], sum(moved.values()), ro["moved_within_class"], ro["moved_not_in_matrix"]))
    b = d.get("blame")
    if b:
        check("blame: its classes are ran_on's (the CPU it ran on)",
              all(b["by_class"][c]["wakeups"] == col[c] for c in classes),
              ({c: b["by_class"][c]["wakeups"] for c in classes}, col))
        check("blame: its wakeups are the timed", b["all"]["wakeups"] == ro["timed"],
              (b["all"]["wakeups"], ro["timed"]))
    s = d.get("stacks")
    if s:
        sb = s["wakers"]["by_class"]
        check("stacks: the waker view's classes are ran_on's",
              all(sb[c]["count"] == col[c] for c in classes), ({c: sb[c]["count"] for c in classes}, col))
        check("stacks: the wakings are the sched_waking the Wakeups section counts",
              s["wakings"] == sum(sb[k]["count"] for k in sb) and s["wakings"] == w["source_events"],
              (s["wakings"], w["source_events"]))
        check("stacks: 'did not run after' are the wakeups of running tasks and the untimed",
              sb["not_run"]["count"] == w["woken_while_running"] + w["total"] - ro["timed"],
              (sb["not_run"]["count"], w["woken_while_running"], w["total"] - ro["timed"]))
    # per CPU: the matrix's rows and columns
    m = w["matrix"]
    cpus = {c["cpu"]: c for c in d["cpus"]}
    check("per CPU: woke and woken on are the matrix's row and column sums",
          all(cpus[i]["wakeups_from"] == sum(m[i]) and cpus[i]["wakeups_to"] == sum(r[i] for r in m)
              for i in cpus if i < len(m)))

    # the text: no line wider than 100 columns (prose folds at 80; a label is never cut: below)
    wide = [l for l in text.split("\n") if len(l) > 100]
    check("text: every line within 100 columns", not wide, wide[:2])
    # the text says the same numbers, and which classes it counts
    wk = section(text, "Wakeups of the traced tasks")
    for c in classes:
        if w["by_class"][c] or c in ("same_cpu", "llc"):
            lm = [l for l in wk if re.match(r"\s+%s\s+[\d,]+\s+[\d.]+%%" % re.escape(label(d, c)), l)]
            check("text: the Wakeups table's %s" % c, lm and num(lm[0].split()[-3]) == w["by_class"][c],
                  lm[:1])
    jw = joined(wk)
    mt = re.search(r"by the CPU each ran on, seen from its waker's \(as blame, the stacks and the "
                   r"timelines count\), the ([\d,]+) timed:(.*?)(?:; from the classes above:(.*?))?(?:;|$| remote| other)", jw)
    check("text: the Wakeups section states the ran-on classes and the moves", mt is not None, jw[-400:])
    if mt:
        check("text: its timed count", num(mt.group(1)) == ro["timed"], mt.group(1))
        for c in classes:
            if col[c]:
                mc = re.search(re.escape(label(d, c)) + r" ([\d,]+)", mt.group(2))
                check("text: ran on %s" % c, mc and num(mc.group(1)) == col[c], mt.group(2))
        for (t, r), v in moved.items():
            check("text: moved %s -> %s" % (t, r),
                  mt.group(3) and "%s -> %s %s" % (label(d, t), label(d, r), format(v, ",")) in mt.group(3),
                  mt.group(3))
    lt = section(text, "Wake-to-run delay")
    check("text: the latency table says its classes are waker -> target",
          any(re.match(r"\s+waker->target\s+wakeups", l) for l in lt))
    for c in classes:
        if lat["by_class"][c]["count"]:
            lm = [l for l in lt if re.match(r"\s+%s\s+[\d,]+ " % re.escape(label(d, c)), l)]
            check("text: latency's %s" % c, lm and num(lm[0][len(label(d, c)) + 5:].split()[0]) ==
                  lat["by_class"][c]["count"], lm[:1])
    if b:
        bl = section(text, "Why woken tasks waited")
        check("text: blame says its classes are the CPU it ran on",
              "classes: the CPU it ran on seen from its waker's" in joined(bl))
        for c in classes:
            if b["by_class"][c]["wakeups"]:
                lm = [l for l in bl if l.startswith("   " + label(d, c) + " ")]
                check("text: blame's %s (the label whole)" % c,
                      lm and num(lm[0][3 + len(label(d, c)):].split()[0]) == b["by_class"][c]["wakeups"], lm[:1])
    if s:
        st = section(text, "Stacks (callchains")
        at = next((i for i, l in enumerate(st) if l.startswith("    by class (the CPU it ran on, seen from its "
                                                               "waker's): ")), None)
        check("text: the stacks say their classes are the CPU it ran on", at is not None, st[:6])
        if at is not None:  # the first view's (the wakers'): its line and the lines folded under it
            by = [st[at]] + [l for l in __import__("itertools").takewhile(
                lambda l: re.match(r"      \S", l), st[at + 1:])]
            by = joined(by)
            for c in classes:
                if col[c]:
                    check("text: stacks' %s" % c, "%s %s" % (label(d, c), format(col[c], ",")) in by, by)

    # the pictures
    if sys.argv[3] == "-":
        print("consistency: %d failed (no pictures)" % len(failed))
        sys.exit(1 if failed else 0)
    heat = " ".join("".join(t.itertext()) for t in ET.parse(sys.argv[3]).iter() if t.tag.endswith("}text"))
    hm = re.search(r"of ([\d,]+) placed wakeups, waker CPU to target CPU", heat)
    check("heatmap SVG: the placed wakeups, by waker CPU -> target CPU", hm and num(hm.group(1)) == w["placed"],
          heat[:200])
    for c in classes:
        pm = re.search(re.escape(LABELS[c] if c != "node" else "same node") + r"[^%]*? ([\d.]+)%", heat)
        want = 100.0 * w["by_class"][c] / w["placed"] if w["placed"] else 0
        check("heatmap SVG: %s %.1f%%" % (c, want), pm and abs(float(pm.group(1)) - want) < 0.051,
              pm.group(0) if pm else heat[:300])
    # its colours: darker with the count, and two counts 1.5 times apart in two shades
    cells = []
    for e in ET.parse(sys.argv[3]).iter():
        t = e.find("{http://www.w3.org/2000/svg}title") if e.tag.endswith("}rect") else None
        if t is not None and "->" in (t.text or "") and num(t.text.rsplit(" ", 1)[1]):
            f = e.get("fill").lstrip("#")
            cells.append((num(t.text.rsplit(" ", 1)[1]), sum(int(f[i:i + 2], 16) for i in (0, 2, 4))))
    cells.sort()
    # Two cells apart by a share of the scale differ in shade (R+G+B) by at least that
    # share of its range (652 to 166: pale yellow to dark red, every third at least 144 of
    # it), three quarters of it for rounding: on a log scale from the smallest count to the
    # largest (spans over 16x) the share of 2x is log 2 / log(max/min), on a linear one
    # (b-a)/max. The old scale from 1 put 1,537 and 3,349 at 248 and 202 (two dark reds);
    # a count of 5 beside 1 under a largest of 227,513 is 56 apart, as it should be.
    def share(x, y, lo, hi):
        if hi <= lo * 16:
            return (y - x) / hi
        return math.log(y / x) / math.log(hi / lo)
    lo, hi = (cells[0][0], cells[-1][0]) if cells else (1, 1)
    check("heatmap SVG: a cell's shade darker with its count, by its share of the scale",
          all(b[1] <= a[1] for a, b in zip(cells, cells[1:])) and
          all(a[1] - b[1] >= 0.75 * 486 * share(a[0], b[0], lo, hi) - 2
              for i, a in enumerate(cells) for b in cells[i + 1:] if b[0] > a[0]), cells)
    tl = " ".join("".join(t.itertext()) for t in ET.parse(sys.argv[4]).iter() if t.tag.endswith("}text"))
    tm = re.search(r"\(([\d,]+) of the workload's: \d+ drawn as arrows(?:, one in \d+)?, ([\d,]+) on "
                   r"their waker's CPU as ticks\)", tl)
    check("timeline SVG: counts the timed and those that ran on the waker's CPU",
          tm and num(tm.group(1)) == ro["timed"] and num(tm.group(2)) == col["same_cpu"],
          (tm.groups() if tm else tl[:300], ro["timed"], col["same_cpu"]))
    check("timeline SVG: its legend says its classes are where each ran, with ran_on's counts",
          "the workload's wakeups, waker to where it ran:" in tl and
          all("%s %s" % (label(d, c), format(col[c], ",")) in tl for c in classes if c != "smt" or col[c]),
          tl[-600:])
    mg = re.search(r"([\d,]+) migrations \(([\d,]+) of the workload's\)", tl)
    mt = re.search(r"Migrations: ([\d,]+)", text)
    check("timeline SVG: every task's migrations as the file counts them, the workload's as the "
          "report does", mg and mt and num(mg.group(1)) ==
          d["sched"]["events_by_type"].get("sched_migrate_task", 0) and
          num(mg.group(2)) == num(mt.group(1)),
          (mg.groups() if mg else None, mt.group(1) if mt else None,
           d["sched"]["events_by_type"].get("sched_migrate_task")))
    print("consistency: %d failed" % len(failed))
    sys.exit(1 if failed else 0)


main()
