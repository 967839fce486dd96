#!/usr/bin/env python3
"""Checks a run's report.html against the outputs it was drawn from.

Usage: report_check.py OUTDIR

Every plotted point must be a row of the CSVs or a figure of summary.json, and sit where its
axes put it: the plot area declares its domain and pixel box (data-x-lo, data-left, ...), so the
expected pixel follows from the linear or log10 map that an axis is by definition. Pixels are
printed with one decimal: a tolerance of 0.05 px (plus rounding slack) is that precision. Data
values are compared exactly: the report writes them as the shortest decimal that reads back as
the same double, and the CSVs' text parses to that double too.
"""
import csv
import json
import math
import re
import sys
from collections import Counter
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "img", "input", "hr"}
PX_TOLERANCE = 0.05 + 1e-6


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], ""

    def cls(self):
        return self.attrs.get("class", "")

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, tag=None, cls=None):
        return [n for n in self.walk() if (tag is None or n.tag == tag) and
                (cls is None or n.cls() == cls)]


class Tree(HTMLParser):
    """The document as a tree; fails on a closing tag that does not match the open one."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        assert self.cur.tag == tag, f"</{tag}> closes <{self.cur.tag}>"
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.text += data


def fail(msg):
    print(f"report_check: FAIL: {msg}")
    sys.exit(1)


def frac(value, lo, hi, scale):
    if scale == "log10":
        return (math.log10(value) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
    return (value - lo) / (hi - lo)


def chart(doc, title):
    found = [s for s in doc.find("svg") if s.attrs.get("aria-label") == title]
    if len(found) != 1:
        fail(f"{len(found)} charts titled {title!r}")
    return found[0]


def series_points(svg):
    """{series name: [(x, y), ...]} of the markers, after checking each sits on its axes."""
    plot = svg.find("g", "plot")[0].attrs
    num = {k: float(v) for k, v in plot.items() if k.startswith("data-") and "scale" not in k}
    out = {}
    for g in svg.find("g", "series"):
        points = []
        for c in g.find("circle", "point"):
            x, y = float(c.attrs["data-x"]), float(c.attrs["data-y"])
            cx = num["data-left"] + frac(x, num["data-x-lo"], num["data-x-hi"],
                                         plot["data-x-scale"]) * num["data-width"]
            cy = num["data-top"] + (1 - frac(y, num["data-y-lo"], num["data-y-hi"],
                                             plot["data-y-scale"])) * num["data-height"]
            if abs(float(c.attrs["cx"]) - cx) > PX_TOLERANCE or \
                    abs(float(c.attrs["cy"]) - cy) > PX_TOLERANCE:
                fail(f"point ({x}, {y}) of {g.attrs['data-series']!r} drawn at "
                     f"({c.attrs['cx']}, {c.attrs['cy']}), its axes put it at ({cx:.2f}, {cy:.2f})")
            points.append((x, y))
        out[g.attrs["data-series"]] = (points, int(g.attrs["data-points"]), g)
    return out


def path_vertices(g, plot):
    """The data coordinates of a step path's vertices (the inverse of the axes' map)."""
    num = {k: float(v) for k, v in plot.attrs.items() if k.startswith("data-") and "scale" not in k}

    def inv(p, axis):
        lo, hi = num[f"data-{axis}-lo"], num[f"data-{axis}-hi"]
        if plot.attrs[f"data-{axis}-scale"] == "log10":
            return 10 ** (math.log10(lo) + p * (math.log10(hi) - math.log10(lo)))
        return lo + p * (hi - lo)

    d = g.find("path")[0].attrs["d"]
    xs, ys, out = None, None, []
    for cmd, args in re.findall(r"([MLHV])([-0-9. ]+)", d):
        vals = [float(v) for v in args.split()]
        if cmd in "ML":
            xs, ys = vals
        elif cmd == "H":
            xs = vals[0]
            continue  # the corner before the step up: not a data point
        else:
            ys = vals[0]
        out.append((inv((xs - num["data-left"]) / num["data-width"], "x"),
                    inv(1 - (ys - num["data-top"]) / num["data-height"], "y")))
    return out


def check_fct(doc, summary, flows):
    done = [(float(r["size_bytes"]), float(r["slowdown"])) for r in flows if r["slowdown"]]
    if len(done) != summary["slowdown"]["count"]:
        fail(f"{len(done)} completed flows in flows.csv, summary.json counts "
             f"{summary['slowdown']['count']}")
    by_size = series_points(chart(doc, "Slowdown against flow size"))
    dots = by_size["flows"][0]
    if Counter(dots) != Counter(done):
        fail(f"the scatter's {len(dots)} points are not flows.csv's {len(done)} (size, slowdown)")
    buckets = [b for b in summary["slowdown_by_size"] if b["count"] > 0]
    for key in ("p50", "p99"):
        ys = sorted({y for _, y in by_size[f"{key} (summary.json)"][0]})
        if ys != sorted({b[key] for b in buckets}):
            fail(f"{key} line at {ys}, summary.json's buckets say {[b[key] for b in buckets]}")

    cdf_svg = chart(doc, "Slowdown CDF by flow size")
    cdf = series_points(cdf_svg)
    plot = cdf_svg.find("g", "plot")[0]
    checked = 0
    for b in buckets:
        lo, hi = b["lower_bytes"], b["upper_bytes"] or math.inf
        mine = sorted(s for size, s in done if lo <= size < hi)
        names = [n for n in cdf if n.endswith(f"({len(mine)})") and not n.startswith("all")]
        if len(mine) != b["count"] or not names:
            fail(f"bucket {lo}..{hi}: {len(mine)} flows in flows.csv, summary.json has "
                 f"{b['count']}, series {list(cdf)}")
        points, n, g = cdf[names[0]]
        expected = [(s, (k + 1) / len(mine)) for k, s in enumerate(mine)]
        if n != len(mine):
            fail(f"CDF {names[0]!r} declares {n} points")
        if points:  # markers: exact values
            if points != expected:
                fail(f"CDF {names[0]!r} points differ from flows.csv's slowdowns")
        else:  # a long curve: every vertex is one of the steps, to a pixel's precision
            for x, y in path_vertices(g, plot):
                if not any(abs(x - ex) <= 1e-3 * ex and abs(y - ey) < 3e-3 for ex, ey in expected):
                    fail(f"CDF {names[0]!r} has a vertex ({x}, {y}) that is no flow's step")
        checked += len(mine)
    return checked


def check_heatmaps(doc, summary, links):
    util = {(r["node"], r["port"]): float(r["utilization"]) for r in links}
    cells = chart(doc, "Utilisation of each switch egress port").find("rect", "cell")
    switch_ports = {(r["node"], r["port"]) for r in links if r["kind"] == "switch"}
    if len(cells) != len(switch_ports):
        fail(f"{len(cells)} utilisation cells for {len(switch_ports)} switch ports in links.csv")
    for c in cells:
        key = (c.attrs["data-row"], c.attrs["data-column"])
        if float(c.attrs["data-value"]) != util[key]:
            fail(f"utilisation of {key}: {c.attrs['data-value']}, links.csv says {util[key]}")
    n = 0
    for field, title in (("paused_time_ns", "Paused time"), ("ecn_marks", "ECN marks")):
        value = {(q["switch"], str(q["port"]), q["queue"]): q[field]
                 for q in summary["switch_queues"]}
        priorities = sorted({k[2] for k, v in value.items() if v > 0})
        if not priorities:
            fail(f"the test scenario has no {field}: it no longer tests that map")
        for p in priorities:
            for c in chart(doc, f"{title}, priority {p}").find("rect", "cell"):
                key = (c.attrs["data-row"], c.attrs["data-column"], p)
                if float(c.attrs["data-value"]) != value.get(key, 0):
                    fail(f"{field} of {key}: {c.attrs['data-value']}, summary.json says "
                         f"{value.get(key, 0)}")
                n += 1
    return len(cells), n


def check_queues(doc, queues_csv):
    peak = {}
    for r in queues_csv:
        key = f"{r['switch']} port {r['port']} q{r['queue']}"
        peak[key] = max(peak.get(key, 0), int(r["depth_bytes"]))
    shown = [g.attrs["data-series"] for g in
             chart(doc, "Depth of the busiest queues").find("g", "series")]
    if not shown:
        fail("no queue drawn")
    lowest_shown = min(peak[k] for k in shown)
    if any(v > lowest_shown for k, v in peak.items() if k not in shown):
        fail("a queue deeper than those drawn is left out")
    return len(shown)


def check_tables(doc, summary):
    """The parameters section's tables: each figure is summary.json's at that key."""
    rows = 0
    for table in doc.find("table"):
        head = [th.text for th in table.find("th")]
        if head != ["summary.json", "value"]:
            continue
        for tr in table.find("tr")[1:]:
            key, value = [td.text for td in tr.find("td")]
            node = summary
            for part in key.split("."):
                node = node[part]
            if isinstance(node, (int, float)) and not isinstance(node, bool):
                if float(value) != node:
                    fail(f"{key}: {value} in the report, {node} in summary.json")
            rows += 1
    return rows


def check_events(doc, summary, events):
    marks = [float(m.attrs["data-at"]) for m in
             chart(doc, "Failures and commands").find("path", "mark")]
    expected = sorted([e["at_ns"] for e in summary["failures"]["events"]] +
                      [float(e["time_ns"]) for e in events])
    if not events:
        fail("the test scenario applied no command: it no longer tests events.csv")
    if sorted(marks) != expected:
        fail(f"event marks at {marks}: summary.json's failures and events.csv's commands are at "
             f"{expected}")
    commands = [td.text for td in doc.find("td")]
    for e in events:
        if e["command"] not in commands:
            fail(f"events.csv's command {e['command']} is not in the page")
    return len(marks)


def main():
    out = sys.argv[1]
    doc = Tree()
    doc.feed(open(f"{out}/report.html", encoding="utf-8").read())
    doc.close()
    if doc.cur is not doc.root:
        fail(f"<{doc.cur.tag}> is never closed")
    doc = doc.root
    for bad in ("script", "iframe", "object", "embed"):
        if doc.find(bad):
            fail(f"the page has a <{bad}>")
    for n in doc.walk():
        for k, v in n.attrs.items():
            if k in ("href", "src") and v and not v.startswith("#"):
                fail(f"<{n.tag} {k}={v!r}> points outside the page")
    summary = json.load(open(f"{out}/summary.json"))
    flows = list(csv.DictReader(open(f"{out}/flows.csv")))
    links = list(csv.DictReader(open(f"{out}/links.csv")))
    queues = list(csv.DictReader(open(f"{out}/queues.csv")))
    events = list(csv.DictReader(open(f"{out}/events.csv", newline="")))
    cdf = check_fct(doc, summary, flows)
    util, paused = check_heatmaps(doc, summary, links)
    shown = check_queues(doc, queues)
    rows = check_tables(doc, summary)
    marks = check_events(doc, summary, events)
    print(f"report_check: {cdf} CDF steps and {len(flows)} flows against flows.csv, {util} "
          f"utilisation and {paused} paused-time and ECN-mark cells, {shown} queues, {rows} "
          f"summary figures, {marks} failure and command marks: all equal their sources")


main()
