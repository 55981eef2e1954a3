#!/usr/bin/env python3
"""flame_check.py - oracles for locus's flame graphs, from the same folded files:

  widths SVG FOLDED          every frame's value is the sum of the file's stacks under its
                             path, its width value/total of the graph's width, and every
                             path wide enough is drawn
  diffcolours SVG BASE NEW   each frame red where its share of all grew, blue where it shrank
  diffsvg SVG JSON           locus diff --svg's means, intervals and '*' against its --json
  difftext TEXT BASE NEW N   the text's top N rows: the stacks whose share moved most
  browser OUT SVG...         headless Chromium (DevTools protocol): each SVG loaded and
                             screenshot to OUT/NAME.png; on flame graphs a real mouse click on
                             a frame zooms to it, and ?s=REGEX reports the matched share
Prints "ok - ..." / "FAIL - ..." lines (tests/lib.sh counts them); exits 0.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"

def say(good, what):
    print(("ok - " if good else "FAIL - ") + what)

def fold_unknown(frames):
    """The unwinder's [unknown] frames as locus folds them by default (man locus-diff):
    dropped at a stack's root, a run of them one elsewhere, one kept when nothing else is;
    in an off-wake stack (blocked;--;waker) the waker is leaf first, its root last."""
    def seg(fr, root_last):
        if root_last:
            return seg(fr[::-1], False)[::-1]
        out = []
        for f in fr:
            if f == "[unknown]" and (not out or out[-1] == "[unknown]"):
                continue
            out.append(f)
        return out or ["[unknown]"]
    fr = frames.split(";")
    if "--" in fr:
        i = fr.index("--")
        return ";".join(seg(fr[:i], False) + ["--"] + seg(fr[i + 1:], True))
    return ";".join(seg(fr, False))

def read_folded(path):
    stacks = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            frames, n = line.rsplit(" ", 1)
            frames = fold_unknown(frames)
            stacks[frames] = stacks.get(frames, 0) + int(n)
    return stacks

def prefixes(stacks):
    """Inclusive value of every path (all;frame;...), as a flame graph's frames hold."""
    inc = {}
    for frames, n in stacks.items():
        path = "all"
        inc[path] = inc.get(path, 0) + n
        for fr in frames.split(";"):
            path += ";" + fr
            inc[path] = inc.get(path, 0) + n
    return inc

def svg_frames(path):
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "f":
            continue
        name = g.find(NS + "title").text.split("\n")[0]
        if g.get("data-k") == "k":
            name = name[: -len(" [kernel]")] + "_[k]"
        r = g.find(NS + "rect")
        out.append({"x": int(g.get("data-x")), "v": int(g.get("data-v")),
                    "d": int(g.get("data-d")), "name": name, "w": float(r.get("width")),
                    "fill": r.get("fill"), "rx": float(r.get("x"))})
    # each frame's path: its parent is the frame one row down holding its range
    out.sort(key=lambda f: (f["d"], f["x"]))
    by_depth = {}
    for f in out:
        if f["d"] == 0:
            f["path"] = "all"
        else:
            ps = [p for p in by_depth.get(f["d"] - 1, [])
                  if p["x"] <= f["x"] and f["x"] + f["v"] <= p["x"] + p["v"]]
            f["path"] = (ps[0]["path"] if ps else "?") + ";" + f["name"]
        by_depth.setdefault(f["d"], []).append(f)
    return root, out

def widths(svg, folded):
    root, frames = svg_frames(svg)
    stacks = read_folded(folded)
    inc = prefixes(stacks)
    total = sum(stacks.values())
    gw, minw = float(root.get("data-gw")), float(root.get("data-minw"))
    bad = [f for f in frames if inc.get(f["path"]) != f["v"]]
    say(not bad and frames, f"{svg}: each of {len(frames)} frames' value is the sum of "
        f"{folded}'s stacks under its path" + (f" (first wrong: {bad[0]['path'][:120]} "
        f"{bad[0]['v']} vs {inc.get(bad[0]['path'])})" if bad else ""))
    bad = [f for f in frames if abs(f["w"] - f["v"] * gw / total) > 0.0015]
    say(not bad, f"{svg}: each frame's width is value/total x {gw:g} px (total {total})" +
        (f" (first wrong: {bad[0]['path'][:100]} {bad[0]['w']})" if bad else ""))
    drawn = {f["path"] for f in frames}
    missing = [p for p, v in inc.items() if v * gw / total >= minw and p not in drawn]
    say(not missing, f"{svg}: every path at least {minw:g} px wide is drawn" +
        (f" (missing: {missing[0][:120]})" if missing else ""))

def diffcolours(svg, base, new):
    _, frames = svg_frames(svg)
    b, n = read_folded(base), read_folded(new)
    ib, inn = prefixes(b), prefixes(n)
    tb, tn = sum(b.values()), sum(n.values())
    wrong, red, blue = [], 0, 0
    for f in frames:
        ch = inn.get(f["path"], 0) / tn - ib.get(f["path"], 0) / tb
        m = re.match(r"rgb\((\d+),(\d+),(\d+)\)", f["fill"])
        r, g, bl = (int(x) for x in m.groups())
        colour = "red" if r > bl else "blue" if bl > r else "white"
        red += colour == "red"
        blue += colour == "blue"
        want = "red" if ch > 1e-12 else "blue" if ch < -1e-12 else "white"
        if colour != want and abs(ch) > 1e-9:
            wrong.append((f["path"], ch, f["fill"]))
    say(not wrong and frames, f"{svg}: {red} frames red where their share grew, {blue} blue "
        f"where it shrank (shares of {tb} and {tn})" + (f" (first wrong: {wrong[0]})" if wrong else ""))

def difftext(text, base, new, top):
    b, n = read_folded(base), read_folded(new)
    tb, tn = sum(b.values()), sum(n.values())
    rows = []
    for s in set(b) | set(n):
        ch = n.get(s, 0) / tn - b.get(s, 0) / tb
        rows.append((-abs(ch), s, b.get(s, 0), n.get(s, 0), ch))
    rows.sort()
    want = [f"{100 * r[2] / tb:.2f}% {100 * r[3] / tn:.2f}% {100 * r[4]:+.2f}" for r in rows[:top]]
    stacks = {f"{100 * r[2] / tb:.2f}% {100 * r[3] / tn:.2f}% {100 * r[4]:+.2f}": r[1] for r in rows[:top]}
    got, whole = [], True
    with open(text) as f:  # a row of shares, then its stack folded under it, every frame
        lines = f.read().splitlines()
    at = next(i for i, l in enumerate(lines) if l.split()[:3] == ["base", "new", "change"]) + 1
    for i, line in enumerate(lines[at:], at):
        if line.startswith("("):
            break  # the footer
        if re.match(r"\s+[\d.]+%\s", line):
            key = " ".join(line.split()[:3])
            got.append(key)
            stack = []
            for more in lines[i + 1:]:
                if re.match(r"\s+[\d.]+%\s", more) or more.startswith("("):
                    break
                stack.append(more.strip())
            # ties in the change make the order of equal rows free: their stacks are not compared
            if want.count(key) == 1 and " ".join(stack).replace("; ", ";") != stacks[key]:
                whole = False
        if len(got) == top:
            break
    got = got[:top]
    say(got == want and whole, f"{text}: the top {top} stacks by change of share and their "
        f"shares equal those computed from the two files, each stack whole" +
        ("" if got == want and whole else f" (want {want}, got {got}, stacks whole: {whole})"))

# --- headless Chromium through the DevTools protocol ---
class Browser:
    def __init__(self, chromium):
        import websocket  # python3-websocket
        self.dir = tempfile.mkdtemp(prefix="locus-chromium-")
        self.proc = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                      "--remote-debugging-port=0", "--user-data-dir=" + self.dir,
                                      "--no-first-run", "--hide-scrollbars", "about:blank"],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        port = None
        end = time.time() + 60
        while time.time() < end and port is None:
            line = self.proc.stderr.readline()
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line or "")
            if m:
                port = int(m.group(1))
            if not line and self.proc.poll() is not None:
                break
        if port is None:
            raise RuntimeError("chromium did not start its DevTools endpoint")
        import urllib.request
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = [t for t in targets if t.get("type") == "page"][0]
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60)
        self.id = 0
        self.call("Page.enable")

    def call(self, method, **params):
        self.id += 1
        self.ws.send(json.dumps({"id": self.id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def load(self, url):
        self.call("Page.navigate", url=url)
        for _ in range(600):
            if self.eval("document.readyState") == "complete":
                return
            time.sleep(0.05)
        raise RuntimeError(f"{url} did not load")

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if r.get("exceptionDetails"):
            raise RuntimeError(f"{expr[:60]}: {r['exceptionDetails'].get('text')}")
        return r["result"].get("value")

    def click(self, x, y):
        for t in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=t, x=x, y=y, button="left",
                      clickCount=1)

    def screenshot(self, out):
        import base64
        w = self.eval("document.documentElement.getAttribute('width')|0")
        h = self.eval("document.documentElement.getAttribute('height')|0")
        self.call("Emulation.setDeviceMetricsOverride", width=w, height=h,
                  deviceScaleFactor=1, mobile=False)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(out, "wb") as f:
            f.write(base64.b64decode(data))
        return w, h

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        self.proc.wait(timeout=30)
        subprocess.run(["rm", "-rf", self.dir])

# The frame to click: a narrow-ish frame above the root with children, its centre on screen.
PICK = """(function () {
  var best = null, gs = document.querySelectorAll('g.f');
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], d = +g.getAttribute('data-d'), v = +g.getAttribute('data-v');
    var w = +g.getElementsByTagName('rect')[0].getAttribute('width');
    if (d >= 2 && w > 40 && w < 700 && (!best || d < best.d)) best = {g: g, d: d, v: v, w: w};
  }
  for (var i = 0; !best && i < gs.length; i++) { /* one stack wide: the narrowest clickable */
    var g = gs[i], d = +g.getAttribute('data-d'), v = +g.getAttribute('data-v');
    var w = +g.getElementsByTagName('rect')[0].getAttribute('width');
    if (d >= 2 && w > 40) best = {g: g, d: d, v: v, w: w};
  }
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], d = +g.getAttribute('data-d'), v = +g.getAttribute('data-v');
    var w = +g.getElementsByTagName('rect')[0].getAttribute('width');
    if (best && best.w >= 700 && d >= 2 && w > 40 && w < best.w) best = {g: g, d: d, v: v, w: w};
  }
  if (!best) return null;
  var r = best.g.getElementsByTagName('rect')[0].getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2, fx: +best.g.getAttribute('data-x'),
          v: best.v, d: best.d, w: best.w};
})()"""

# Text the picture cuts off (past its right or left edge), and frame labels wider than
# their frame: measured by the browser's own layout (getBBox), not estimated.
FIT = """(function () {
  var svg = document.documentElement, w = +svg.getAttribute('width'), out = {edge: [], label: []};
  var ts = document.getElementsByTagName('text');
  for (var i = 0; i < ts.length; i++) {
    var b = ts[i].getBBox();
    if (!ts[i].textContent.trim() || ts[i].id === 'details') continue;
    if (b.x < -1 || b.x + b.width > w + 1) out.edge.push(ts[i].textContent.substring(0, 60));
    var g = ts[i].parentNode;
    if (g.getAttribute && g.getAttribute('class') === 'f') {
      var r = g.getElementsByTagName('rect')[0];
      if (b.x + b.width > +r.getAttribute('x') + +r.getAttribute('width') + 0.5)
        out.label.push(ts[i].textContent.substring(0, 40));
    }
  }
  return out;
})()"""

AFTER = """(function (fx, v, d) {
  var gw = +document.documentElement.getAttribute('data-gw'), out = {self: -1, bad: 0, n: 0, hidden: 0};
  var gs = document.querySelectorAll('g.f');
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], x = +g.getAttribute('data-x'), gv = +g.getAttribute('data-v'), gd = +g.getAttribute('data-d');
    var w = +g.getElementsByTagName('rect')[0].getAttribute('width');
    if (g.style.display === 'none') { out.hidden++; continue; }
    if (gd === d && x === fx) out.self = w;
    else if (gd > d && x >= fx && x + gv <= fx + v) { out.n++; if (Math.abs(w - gv * gw / v) > 0.002) out.bad++; }
    else if (gd < d && x <= fx && x + gv >= fx + v) { if (Math.abs(w - gw) > 0.002) out.bad++; }
    else out.bad++;
  }
  out.gw = gw; out.zoomed = document.documentElement.getAttribute('data-zoomed');
  return out;
})(%d, %d, %d)"""

def matched_oracle(svg, folded, regex):
    """The value of the stacks with a drawn frame matching regex, each stack once."""
    root = ET.parse(svg).getroot()
    gw, minw = float(root.get("data-gw")), float(root.get("data-minw"))
    stacks = read_folded(folded)
    inc = prefixes(stacks)
    total = sum(stacks.values())
    rx = re.compile(regex)
    m = 0
    for frames, n in stacks.items():
        path = "all"
        for fr in frames.split(";"):
            path += ";" + fr
            if inc[path] * gw / total >= minw and rx.search(fr[:-4] if fr.endswith("_[k]") else fr):
                m += n
                break
    return m

def browser(outdir, svgs):
    chromium = os.environ.get("CHROMIUM", "chromium")
    b = Browser(chromium)
    try:
        for arg in svgs:
            svg, _, folded = arg.partition(":")
            url = "file://" + os.path.abspath(svg)
            name = os.path.basename(svg)
            b.load(url)
            png = os.path.join(outdir, name + ".png")
            w, h = b.screenshot(png)
            say(os.path.getsize(png) > 2000 and w > 0 and h > 0,
                f"chromium rendered {name} ({w}x{h}) to {png}")
            fit = b.eval(FIT)
            say(not fit["edge"], f"{name}: every text inside the picture in Chromium's layout" +
                (f" (cut: {fit['edge'][:3]})" if fit["edge"] else ""))
            if not b.eval("document.querySelectorAll('g.f').length"):
                continue
            say(not fit["label"], f"{name}: every frame label inside its frame" +
                (f" ({len(fit['label'])} overflow: {fit['label'][:3]})" if fit["label"] else ""))
            pick = b.eval(PICK)
            if not pick:
                say(False, f"{name}: no frame to click")
                continue
            b.click(pick["x"], pick["y"])
            after = b.eval(AFTER % (pick["fx"], pick["v"], pick["d"]))
            say(abs(after["self"] - after["gw"]) < 0.002 and after["bad"] == 0 and after["zoomed"],
                f"{name}: a click on a frame {pick['w']:.1f} px wide zoomed it to the full "
                f"{after['gw']} px, its {after['n']} descendants to value/its value, "
                f"{after['hidden']} others hidden (zoomed: {after['zoomed']!r}, wrong: {after['bad']})")
            b.click(2, 2)  # outside any frame: nothing changes
            # the reset: the root's click
            b.eval("window.flame.zoom({d: 0, x: 0, v: +document.documentElement.getAttribute('data-total')})")
            b.load(url + "?s=" + "schedule")
            got = b.eval("document.getElementById('matched').textContent")
            value = b.eval("document.documentElement.getAttribute('data-matched')")
            if not folded:
                say(got.startswith("Matched: ") and value not in (None, ""),
                    f"{name}: ?s=schedule says {got!r}")
                continue
            want = matched_oracle(svg, folded, "schedule")
            total = sum(read_folded(folded).values())
            say(value == str(want) and f"{100 * want / total:.2f}%" in got,
                f"{name}: ?s=schedule says {got!r}: {value} of {total}, as the stacks of "
                f"{os.path.basename(folded)} with a drawn frame matching (oracle {want})")
    finally:
        b.close()

def diffsvg(svg, js):
    """locus diff --svg against locus diff --json of the same two files: each side's mean
    and interval per value, and a '*' exactly where the metric's row is significant."""
    root = ET.parse(svg).getroot()
    rows = [r for r in json.load(open(js))["rows"] if r["measure"] == "metric"]
    means = [(g.get("data-side"), float(g.get("data-mean")), float(g.get("data-ci95")))
             for g in root.iter(NS + "g") if g.get("class") == "mean"]
    want = []
    for r in rows:
        for side, key in (("base", "base"), ("new", "new")):
            want.append((side, r[key]["mean"], r[key]["ci95"] if r[key]["n"] >= 2 else 0))
    good = len(means) == len(want) and all(
        a[0] == b[0] and math.isclose(a[1], b[1], rel_tol=1e-6) and
        math.isclose(a[2], b[2], rel_tol=1e-6, abs_tol=1e-9) for a, b in zip(means, want))
    say(good, f"{svg}: each side's mean and 95% interval per value equal the JSON rows "
        f"of the same files ({len(rows)} values)" + ("" if good else f" (svg {means}, json {want})"))
    stars = sum(1 for t in root.iter(NS + "text") if t.get("class") == "significant")
    sig = sum(1 for r in rows if r["significant"])
    say(stars == sig, f"{svg}: {stars} '*' marks, the JSON's significant metric rows: {sig}")

def main():
    cmd = sys.argv[1]
    if cmd == "widths":
        widths(sys.argv[2], sys.argv[3])
    elif cmd == "diffcolours":
        diffcolours(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "difftext":
        difftext(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif cmd == "diffsvg":
        diffsvg(sys.argv[2], sys.argv[3])
    elif cmd == "browser":
        browser(sys.argv[2], sys.argv[3:])
    elif cmd == "matched":
        # the share of frames matching REGEX, nested matches once, from the folded file
        stacks = read_folded(sys.argv[2])
        rx = re.compile(sys.argv[3])
        total = sum(stacks.values())
        m = 0
        for frames, n in stacks.items():
            if any(rx.search(fr[:-4] if fr.endswith("_[k]") else fr) for fr in frames.split(";")):
                m += n
        print(m)

if __name__ == "__main__":
    main()
